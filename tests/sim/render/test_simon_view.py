"""Simon view: the diamond (blue top, yellow right, green bottom, red left), lit colours by time."""

from __future__ import annotations

import numpy as np
from _support import FakeBomb
from _views import assert_led_corner_free, assert_module_canvas, assert_same_view, count_near

from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.simon import SimonEngine
from gptnt.sim.render.modules import simon as drawer


def engine() -> SimonEngine:
    return SimonEngine(
        rules=V1, bomb=FakeBomb(), slot=Slot(True, 0), sequence=("green", "red", "blue")
    )


def test_shapes_ids_layout_and_led_corner() -> None:
    e = engine()
    view = drawer.draw(e, 10.0)
    assert_module_canvas(view)
    assert set(np.unique(view.ids)) == {0, 1, 2, 3, 4}
    centre = {c: np.argwhere(view.ids == i + 1).mean(axis=0) for i, c in enumerate(e.elements())}
    assert centre["blue"][0] < centre["red"][0] < centre["green"][0]  # top … bottom
    assert centre["red"][1] < centre["blue"][1] < centre["yellow"][1]  # left … right
    assert_led_corner_free(view)


def test_lit_button_is_bright_and_others_dark() -> None:
    e = engine()
    assert e.lit_color(0.1) == "green"
    view = drawer.draw(e, 0.1)
    for i, color in enumerate(e.elements()):
        _, dark, bright = drawer.BUTTONS[color]
        mask = view.ids == i + 1
        if color == "green":
            assert count_near(view.image, bright, tol=8, mask=mask) > 5000
            assert count_near(view.image, dark, tol=8, mask=mask) == 0
        else:
            assert count_near(view.image, dark, tol=8, mask=mask) > 5000
            assert count_near(view.image, bright, tol=8, mask=mask) == 0
    dark_look = drawer.look(e, 0.6)
    assert dark_look is None and drawer.look(e, 0.1) == "green"
    assert drawer.draw(e, 0.6).image.tobytes() != view.image.tobytes()


def test_drawing_is_deterministic() -> None:
    e = engine()
    assert_same_view(drawer.draw(e, 0.1), drawer.draw(e, 0.1))
