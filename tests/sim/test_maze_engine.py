"""Maze engine: generation, walls, the square's walk, and the oracle self-check."""

from __future__ import annotations

import random
from dataclasses import replace

from _support import FakeBomb, follow_the_oracle, generated, random_edgework

from gptnt.protocol import MazeModule
from gptnt.rules import Edgework
from gptnt.rules.modules import maze as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.maze import ENGINE, MazeEngine


def new(seed: int, bomb: FakeBomb | None = None) -> MazeEngine:
    bomb = bomb or FakeBomb(random_edgework(random.Random(seed)))
    return generated(ENGINE, random.Random(seed), bomb, Slot(True, 1))


def test_generation_is_deterministic_and_valid() -> None:
    a, b = new(7), new(7)
    assert a.export(0, in_focus=False) == b.export(0, in_focus=False)
    for seed in range(100):
        e = new(seed)
        assert e.maze in V1.maze.mazes
        assert max(abs(e.square[0] - e.goal[0]), abs(e.square[1] - e.goal[1])) >= 2
        MazeModule.model_validate(e.export(0, in_focus=True).to_wire())


def test_appendix_c_maze_1_walk_and_wall() -> None:
    bomb = FakeBomb(Edgework(serial="AB1CD2"))
    e = MazeEngine(
        rules=V1, bomb=bomb, slot=Slot(True, 0), maze=V1.maze.mazes[0], square=(0, 0), goal=(5, 5)
    )
    e.press("right", 1.0)
    e.press("right", 2.0)
    assert e.square == (0, 2) and bomb.strike_count == 0
    e.press("right", 3.0)
    assert e.square == (0, 2) and bomb.strikes == ["Maze"] and e.last_strike_time == 3.0


def test_border_strikes_unless_the_rules_say_otherwise() -> None:
    bomb = FakeBomb(Edgework(serial="AB1CD2"))
    e = MazeEngine(
        rules=V1, bomb=bomb, slot=Slot(True, 0), maze=V1.maze.mazes[3], square=(0, 0), goal=(5, 5)
    )
    e.press("up", 0.0)
    assert bomb.strike_count == 1
    lenient = replace(V1, maze=replace(V1.maze, border_strikes=False))
    e2 = MazeEngine(
        rules=lenient,
        bomb=bomb,
        slot=Slot(True, 0),
        maze=V1.maze.mazes[3],
        square=(0, 0),
        goal=(5, 5),
    )
    e2.press("up", 0.0)
    assert bomb.strike_count == 1 and e2.square == (0, 0)


def test_reaching_the_goal_solves_and_then_input_is_ignored() -> None:
    bomb = FakeBomb(Edgework(serial="AB1CD2"))
    e = MazeEngine(
        rules=V1, bomb=bomb, slot=Slot(True, 0), maze=V1.maze.mazes[0], square=(0, 0), goal=(0, 1)
    )
    e.press("right", 0.0)
    assert e.solved and e.export(0.0, in_focus=True).is_solved
    e.press("up", 1.0)
    assert bomb.strike_count == 0


def test_oracle_self_check() -> None:
    """For 200 seeds the oracle solves without a strike; every listed mistake costs one strike."""
    for seed in range(200):
        follow_the_oracle(new(seed), rules_file, V1.maze, rounds=20)
