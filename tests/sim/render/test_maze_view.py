"""Maze view: markers where the engine says, arrows in the mask, no walls, LED corner free."""

from __future__ import annotations

import numpy as np

from gptnt.rules._edgework import Edgework
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.maze import MazeEngine
from gptnt.sim.render._view import LED_CENTER, LED_RADIUS, MODULE_SIZE
from gptnt.sim.render.modules import maze as drawer
from gptnt.sim.render.modules._plate import Canvas


class Bomb:
    edgework = Edgework(serial="AB1CD2")
    strike_count = 0

    def timer_text(self) -> str:
        return "04:59"

    def strike(self, module: str) -> None:
        self.strike_count += 1


def engine(square: tuple[int, int] = (0, 0), goal: tuple[int, int] = (5, 5)) -> MazeEngine:
    return MazeEngine(
        rules=V1, bomb=Bomb(), slot=Slot(True, 0), maze=V1.maze.mazes[0], square=square, goal=goal
    )


def pixel(view: object, cell: tuple[int, int]) -> tuple[int, int, int]:
    x = drawer.GRID_X + cell[1] * drawer.PITCH
    y = drawer.GRID_Y + cell[0] * drawer.PITCH
    return view.image.getpixel((x, y))  # type: ignore[attr-defined]


def test_shape_and_mask_cover_every_arrow() -> None:
    e = engine()
    view = drawer.draw(e, 0.0)
    assert view.image.size == (MODULE_SIZE, MODULE_SIZE) and view.image.mode == "RGB"
    assert view.ids.shape == (MODULE_SIZE, MODULE_SIZE) and view.ids.dtype == np.uint8
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
    x, y = LED_CENTER
    r = LED_RADIUS
    assert not view.ids[y - r : y + r, x - r : x + r].any()
    corner = (x - r, y - r, x + r, y + r)
    assert view.image.crop(corner).tobytes() == Canvas().image.crop(corner).tobytes()
