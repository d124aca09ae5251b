"""Maze rules: the nine mazes as data, the BFS solver and the wall mistakes."""

from __future__ import annotations

import pytest

from gptnt.errors import ConfigError
from gptnt.protocol import MazeCell, MazeModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._steps import Press
from gptnt.rules.modules.maze import MOVES, V1, elements, mistakes, solve

EDGE = Edgework(serial="AB1CD2")

# The game's own dump (the maze data it writes to its log): column-major cells; 16 circle, 32 wall below,
# 64 wall above, 128 wall right, 256 wall left. An independent check of the transcribed tables.
RAW = [
    "320,400,384,384,256,288,96,320,288,352,96,224,192,160,192,32,192,288,320,288,320,160,320,160,96,96,96,352,224,352,224,192,144,128,384,160",
    "352,320,384,256,384,416,64,160,320,176,448,288,224,320,160,320,384,160,320,160,320,160,320,288,64,304,96,448,160,96,224,192,128,384,384,160",
    "320,416,320,384,384,288,96,448,128,384,288,96,192,384,384,384,160,96,448,288,320,400,384,160,320,160,192,384,384,288,192,384,384,400,384,160",
    "336,384,384,400,256,288,192,384,288,352,96,96,352,320,160,96,96,224,96,96,320,32,96,352,96,96,224,96,192,160,192,128,384,128,384,416",
    "352,320,256,384,384,416,96,96,192,288,320,288,96,96,352,96,96,96,96,64,160,192,32,112,64,160,336,416,224,96,192,416,192,384,384,160",
    "448,384,256,288,320,288,320,384,160,192,160,96,192,384,416,320,432,96,352,320,384,128,384,160,80,160,320,384,288,352,192,384,160,448,128,160",
    "320,384,288,320,384,288,112,320,160,192,416,112,96,224,320,256,288,96,192,288,224,96,96,96,320,160,320,160,192,32,192,384,160,448,384,160",
    "448,256,384,384,384,288,320,32,320,288,448,32,96,224,96,208,288,96,208,288,96,352,96,96,320,160,192,32,96,96,192,384,384,160,224,224",
    "448,384,256,384,400,288,320,384,32,448,384,160,96,336,160,320,384,288,96,224,320,160,320,160,64,384,160,352,192,288,192,384,384,128,416,224",
]  # fmt: skip


def module(square: tuple[int, int], goal: tuple[int, int], maze: int = 0) -> MazeModule:
    circles = V1.mazes[maze].circles
    return MazeModule(
        on_front=True,
        index=0,
        square_position=MazeCell(row=square[0], column=square[1]),
        triangle_position=MazeCell(row=goal[0], column=goal[1]),
        circle_positions=[MazeCell(row=r, column=c) for r, c in reversed(circles)],
    )


@pytest.mark.parametrize("n", range(9))
def test_tables_match_the_games_raw_dump(n: int) -> None:
    cells = [int(v) for v in RAW[n].split(",")]
    maze = V1.mazes[n]
    for r in range(6):
        for c in range(6):
            bits = cells[c * 6 + r]
            assert bool(bits & 128) == (maze.neighbour((r, c), "right") is None)
            assert bool(bits & 256) == (maze.neighbour((r, c), "left") is None)
            assert bool(bits & 32) == (maze.neighbour((r, c), "down") is None)
            assert bool(bits & 64) == (maze.neighbour((r, c), "up") is None)
            assert bool(bits & 16) == ((r, c) in maze.circles)


@pytest.mark.parametrize("n", range(9))
def test_every_maze_is_a_spanning_tree(n: int) -> None:
    maze = V1.mazes[n]
    passages = sum(1 - w for row in maze.right_walls for w in row)
    passages += sum(1 - w for row in maze.down_walls for w in row)
    assert passages == 35
    for r in range(6):
        for c in range(6):
            maze.path((0, 0), (r, c))  # raises when a cell is cut off


def test_longest_shortest_path_is_34_in_maze_3() -> None:
    cells = [(r, c) for r in range(6) for c in range(6)]
    assert max(len(V1.mazes[2].path(a, b)) for a in cells for b in cells) == 34


def test_appendix_c_maze_1_right_twice_then_wall() -> None:
    assert solve(module((0, 0), (0, 2)), EDGE, V1, strikes=0) == [Press("right"), Press("right")]
    at_wall = mistakes(module((0, 2), (5, 5)), EDGE, V1, strikes=0)
    assert Press("right") in at_wall and Press("up") in at_wall
    assert Press("left") not in at_wall


def test_solution_walks_only_through_open_passages() -> None:
    steps = solve(module((0, 0), (5, 5), maze=2), EDGE, V1, strikes=0)
    cell = (0, 0)
    for step in steps:
        assert isinstance(step, Press)
        nxt = V1.mazes[2].neighbour(cell, step.element)
        assert nxt is not None
        cell = nxt
    assert cell == (5, 5)


def test_border_presses_count_as_mistakes_only_when_the_border_strikes() -> None:
    from dataclasses import replace

    corner = module((0, 0), (5, 5), maze=3)  # maze 4: (0, 0) open to the right and down
    assert mistakes(corner, EDGE, V1, strikes=0) == [Press("up"), Press("left")]
    assert mistakes(corner, EDGE, replace(V1, border_strikes=False), strikes=0) == []


def test_unknown_circles_name_the_field() -> None:
    bad = module((0, 0), (1, 1)).model_copy(
        update={"circle_positions": [MazeCell(row=0, column=0), MazeCell(row=5, column=5)]}
    )
    with pytest.raises(ConfigError, match="circle_positions"):
        solve(bad, EDGE, V1, strikes=0)


def test_elements_and_solved() -> None:
    m = module((0, 0), (0, 2))
    assert elements(m) == ["up", "left", "right", "down"] == list(MOVES)
    assert solve(m.model_copy(update={"is_solved": True}), EDGE, V1, strikes=0) == []
