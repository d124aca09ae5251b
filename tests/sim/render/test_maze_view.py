"""Maze view: markers where the engine says, arrows in the mask, no walls, LED corner free."""

from __future__ import annotations

import numpy as np
from _support import FakeBomb
from _views import assert_led_corner_free, assert_module_canvas

from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.maze import MazeEngine
from gptnt.sim.render.modules import maze as drawer


def engine(square: tuple[int, int] = (0, 0), goal: tuple[int, int] = (5, 5)) -> MazeEngine:
    return MazeEngine(
        rules=V1,
        bomb=FakeBomb(),
        slot=Slot(True, 0),
        maze=V1.maze.mazes[0],
        square=square,
        goal=goal,
    )


def pixel(view: object, cell: tuple[int, int]) -> tuple[int, int, int]:
    x = drawer.GRID_X + cell[1] * drawer.PITCH
    y = drawer.GRID_Y + cell[0] * drawer.PITCH
    return view.image.getpixel((x, y))  # type: ignore[attr-defined]


def test_shape_and_mask_cover_every_arrow() -> None:
    e = engine()
    view = drawer.draw(e, 0.0)
    assert_module_canvas(view)
    assert set(np.unique(view.ids)) == set(range(len(e.elements()) + 1))
    # "up" (id 1) sits above "down" (id 4); "left" (2) left of "right" (3).
    centre = {i: np.argwhere(view.ids == i).mean(axis=0) for i in range(1, 5)}
    assert centre[1][0] < centre[4][0] and centre[2][1] < centre[3][1]


def test_markers_are_drawn_in_their_cells() -> None:
    view = drawer.draw(engine(square=(0, 0), goal=(4, 4)), 0.0)
    assert pixel(view, (0, 0)) == drawer.SQUARE
    assert pixel(view, (4, 4)) == drawer.TRIANGLE
    assert pixel(view, (3, 3)) == drawer.DOT  # an ordinary dot; walls are invisible
    x, y = drawer.GRID_X + 0 * drawer.PITCH, drawer.GRID_Y + 1 * drawer.PITCH  # circle (1, 0)
    assert view.image.getpixel((x + 13, y)) == drawer.CIRCLE


def test_look_follows_the_square() -> None:
    e = engine()
    before = drawer.look(e, 0.0)
    e.press("right", 1.0)
    assert drawer.look(e, 1.0) != before
    assert pixel(drawer.draw(e, 1.0), (0, 1)) == drawer.SQUARE


def test_led_corner_is_left_free() -> None:
    view = drawer.draw(engine(), 0.0)
    assert_led_corner_free(view)
