"""Maze: nine invisible-wall mazes, told apart by their two green circles; walk the square home.

The manual's data is the walls of each maze and where its circles sit. The solver identifies the
maze from the described circles and walks the shortest path (breadth-first search) from the white
square to the red triangle, one arrow press per cell.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gptnt.errors import ConfigError
from gptnt.protocol import MazeCell, MazeModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._file import no_history
from gptnt.rules._steps import Press, Step

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset

Cell = tuple[int, int]  # (row, column), 0-based, (0, 0) top-left

# The arrows and the cell offset each one moves the square by. Order = mask order.
MOVES: dict[str, Cell] = {"up": (-1, 0), "left": (0, -1), "right": (0, 1), "down": (1, 0)}


@dataclass(frozen=True)
class Maze:
    """One maze of the manual: the walls between neighbouring cells and its circle markers."""

    right_walls: tuple[tuple[int, ...], ...]  # [r][c] = 1: wall between (r, c) and (r, c + 1)
    down_walls: tuple[tuple[int, ...], ...]  # [r][c] = 1: wall between (r, c) and (r + 1, c)
    circles: tuple[Cell, Cell]  # manual order: left→right, top→bottom

    @property
    def size(self) -> int:
        return len(self.right_walls)

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.size and 0 <= cell[1] < self.size

    def toward(self, cell: Cell, arrow: str) -> Cell:
        """The cell ``arrow`` points at from ``cell``, walls ignored (may lie outside the maze)."""
        dr, dc = MOVES[arrow]
        return (cell[0] + dr, cell[1] + dc)

    def neighbour(self, cell: Cell, arrow: str) -> Cell | None:
        """Where ``arrow`` takes the square from ``cell``; None when a wall (or the border) is hit."""
        target = self.toward(cell, arrow)
        if not self.inside(target):
            return None
        top, left = min(cell, target)
        sideways = target[0] == cell[0]  # along a row: a right wall; along a column: a down wall
        blocked = self.right_walls[top][left] if sideways else self.down_walls[top][left]
        return None if blocked else target

    def path(self, start: Cell, goal: Cell) -> list[str]:
        """The arrows of a shortest walk from ``start`` to ``goal`` (breadth-first search)."""
        came: dict[Cell, tuple[Cell, str] | None] = {start: None}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            if cell == goal:
                break
            for arrow in MOVES:
                nxt = self.neighbour(cell, arrow)
                if nxt is not None and nxt not in came:
                    came[nxt] = (cell, arrow)
                    queue.append(nxt)
        if goal not in came:
            raise ConfigError(f"triangle_position={goal}: not reachable from {start} in this maze")
        arrows: list[str] = []
        cell = goal
        while (back := came[cell]) is not None:
            cell, arrow = back
            arrows.append(arrow)
        return arrows[::-1]


def _maze(right: list[list[int]], down: list[list[int]], circles: tuple[Cell, Cell]) -> Maze:
    return Maze(tuple(map(tuple, right)), tuple(map(tuple, down)), circles)


@dataclass(frozen=True)
class MazeRules:
    """The manual's mazes. ``border_strikes``: pressing an arrow into the outer edge is a strike
    (the game's cell data walls the border; inferred, not confirmed in play)."""

    mazes: tuple[Maze, ...]
    border_strikes: bool = True

    def by_circles(self, circles: list[Cell] | tuple[Cell, ...]) -> Maze:
        """The maze whose circle markers are ``circles`` (in any order)."""
        wanted = set(circles)
        for maze in self.mazes:
            if set(maze.circles) == wanted:
                return maze
        raise ConfigError(
            f"circle_positions={sorted(wanted)}: no maze of this manual has its circles there; "
            "give the two green circles as 0-based (row, column)"
        )


V1 = MazeRules(
    mazes=(
        _maze(
            [[0,0,1,0,0],[1,0,1,0,0],[1,0,1,0,0],[1,0,0,1,0],[0,0,1,0,1],[0,1,0,1,0]],
            [[0,1,0,0,1,1],[0,0,1,1,1,0],[0,1,0,0,1,0],[0,1,1,1,1,0],[0,1,0,0,1,0]],
            ((1, 0), (2, 5)),
        ),
        _maze(
            [[0,0,1,0,0],[0,1,0,1,0],[1,0,1,0,0],[0,1,0,1,1],[1,1,1,0,1],[1,0,1,0,0]],
            [[1,0,1,0,0,1],[0,1,0,1,1,0],[0,0,1,0,1,0],[0,1,0,1,0,0],[0,0,0,0,1,0]],
            ((1, 4), (3, 1)),
        ),
        _maze(
            [[0,0,1,1,0],[1,1,1,0,1],[0,1,1,0,1],[1,1,1,1,1],[1,0,1,1,1],[0,0,0,1,0]],
            [[0,1,0,0,0,0],[1,0,0,1,1,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,1,1,0,0,0]],
            ((3, 3), (3, 5)),
        ),
        _maze(
            [[0,1,0,0,0],[1,1,0,0,0],[1,0,1,0,1],[1,0,0,0,0],[0,0,0,0,1],[0,0,1,0,1]],
            [[0,0,1,1,1,0],[0,0,0,1,1,0],[0,1,1,0,1,0],[0,1,1,1,1,0],[0,1,1,1,0,0]],
            ((0, 0), (3, 0)),
        ),
        _maze(
            [[0,0,0,0,0],[0,0,0,0,1],[0,1,0,1,0],[1,0,0,1,1],[1,0,0,0,1],[1,0,0,0,0]],
            [[1,1,1,1,0,0],[0,1,1,0,1,1],[0,0,1,1,0,0],[0,1,1,0,1,0],[0,0,1,1,1,0]],
            ((2, 4), (5, 3)),
        ),
        _maze(
            [[1,0,1,0,0],[1,1,1,0,1],[0,1,1,1,0],[0,1,0,1,1],[0,1,1,1,0],[0,0,0,1,0]],
            [[0,0,0,1,0,0],[0,0,0,0,1,0],[0,1,1,0,0,1],[1,0,0,0,0,0],[0,1,1,0,1,0]],
            ((0, 4), (4, 2)),
        ),
        _maze(
            [[0,0,0,1,0],[1,0,1,0,1],[0,1,0,1,0],[0,1,0,0,1],[1,1,0,0,1],[0,0,0,0,0]],
            [[0,1,1,0,0,0],[0,0,1,1,1,0],[1,1,0,1,0,1],[0,0,0,1,1,0],[0,1,1,1,0,0]],
            ((0, 1), (5, 1)),
        ),
        _maze(
            [[1,0,0,1,0],[0,0,1,0,1],[1,0,0,0,1],[1,0,1,0,0],[1,1,0,0,0],[0,0,0,0,0]],
            [[0,0,1,0,0,0],[0,1,1,1,1,0],[0,0,1,1,0,0],[0,1,0,1,1,1],[0,0,1,1,1,1]],
            ((0, 3), (3, 2)),
        ),
        _maze(
            [[1,0,0,0,0],[1,1,0,1,1],[0,0,1,0,1],[1,1,0,1,0],[1,1,1,0,1],[0,1,0,1,0]],
            [[0,0,1,1,0,0],[0,0,0,1,0,0],[0,1,1,0,1,0],[0,0,0,1,1,0],[0,0,0,0,0,1]],
            ((1, 2), (4, 0)),
        ),
    ),
)  # fmt: skip


def _cell(cell: MazeCell) -> Cell:
    return (cell.row, cell.column)


def _maze_of(module: MazeModule, rules: MazeRules) -> Maze:
    """The manual's maze that the module's two circles name."""
    return rules.by_circles([_cell(c) for c in module.circle_positions])


def elements(module: MazeModule) -> list[str]:
    return list(MOVES)


def solve(
    module: MazeModule,
    edgework: Edgework,
    rules: MazeRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    if module.is_solved:
        return []
    path = _maze_of(module, rules).path(
        _cell(module.square_position), _cell(module.triangle_position)
    )
    return [Press(arrow) for arrow in path]


def mistakes(
    module: MazeModule,
    edgework: Edgework,
    rules: MazeRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """Every arrow that runs into a wall from where the square stands."""
    if module.is_solved:
        return []
    maze = _maze_of(module, rules)
    here = _cell(module.square_position)
    return [
        Press(arrow)
        for arrow in MOVES
        if maze.neighbour(here, arrow) is None
        and (rules.border_strikes or maze.inside(maze.toward(here, arrow)))
    ]


def tables(ruleset: Ruleset) -> MazeRules:
    return ruleset.maze


pressed = no_history
