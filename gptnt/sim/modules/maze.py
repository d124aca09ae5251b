"""The Maze engine: a square walked through invisible walls with four arrows.

An arrow into a wall is a strike and the square stays; reaching the triangle solves the module.
The walls and circles come from ``rules.maze``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from gptnt.protocol import MazeCell, MazeModule, ModuleKind
from gptnt.rules.modules.maze import MOVES, Cell, Maze
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.modules._base import BombContext, ModuleEngine, Slot


@dataclass(frozen=True)
class MazeGeneration:
    """Assumptions (docs/mechanics-audit.md, Maze): the maze and the start are uniform; the goal is uniform
    among cells at Chebyshev distance ≥ ``min_goal_distance`` from the start (ktanesim's choice;
    the game's real constraint is unknown)."""

    min_goal_distance: int = 2


class MazeEngine(ModuleEngine):
    kind: ClassVar[ModuleKind] = "Maze"
    generation: ClassVar[MazeGeneration] = MazeGeneration()

    def __init__(
        self, *, rules: Ruleset, bomb: BombContext, slot: Slot, maze: Maze, square: Cell, goal: Cell
    ) -> None:
        super().__init__(rules=rules, bomb=bomb, slot=slot)
        self.maze = maze
        self.square = square
        self.goal = goal

    @classmethod
    def generate(
        cls, rng: random.Random, *, rules: Ruleset, bomb: BombContext, slot: Slot
    ) -> MazeEngine:
        maze = rng.choice(rules.maze.mazes)
        cells = [(r, c) for r in range(maze.size) for c in range(maze.size)]
        square = rng.choice(cells)
        far = [
            cell
            for cell in cells
            if max(abs(cell[0] - square[0]), abs(cell[1] - square[1]))
            >= cls.generation.min_goal_distance
        ]
        return cls(
            rules=rules, bomb=bomb, slot=slot, maze=maze, square=square, goal=rng.choice(far)
        )

    def elements(self) -> list[str]:
        return list(MOVES)

    def press(self, element: str, t: float) -> None:
        if self.solved or element not in MOVES:
            return
        target = self.maze.neighbour(self.square, element)
        if target is None:
            dr, dc = MOVES[element]
            beyond = (self.square[0] + dr, self.square[1] + dc)
            if self.maze.inside(beyond) or self.rules.maze.border_strikes:
                self._strike(t)
            return
        self.square = target
        if self.square == self.goal:
            self.solved = True

    def export(self, t: float, *, in_focus: bool) -> MazeModule:
        def cell(c: Cell) -> MazeCell:
            return MazeCell(row=c[0], column=c[1])

        return MazeModule(
            **self._common(in_focus),
            num_rows=self.maze.size,
            num_columns=self.maze.size,
            square_position=cell(self.square),
            triangle_position=cell(self.goal),
            circle_positions=[cell(c) for c in self.maze.circles],
        )


ENGINE = MazeEngine
