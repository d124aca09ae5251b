"""Who's on First view: six buttons in reading order, words only when emerged, stage lights."""

from __future__ import annotations

import random

import numpy as np
from _support import FakeBomb, generated
from _views import assert_led_corner_free, assert_module_canvas, assert_same_view, count_near

from gptnt.rules.modules.whos_on_first import button_to_press
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.whos_on_first import WhosOnFirstEngine
from gptnt.sim.render.modules import whos_on_first as drawer
from gptnt.sim.render.modules._plate import INK, LED_GREEN


def new(seed: int) -> WhosOnFirstEngine:
    return generated(WhosOnFirstEngine, random.Random(seed), FakeBomb(), Slot(True, 0))


def test_shapes_ids_reading_order_and_led_corner() -> None:
    view = drawer.draw(new(0), 0.0)
    assert_module_canvas(view)
    assert set(np.unique(view.ids)) == set(range(7))
    centres = [np.argwhere(view.ids == i + 1).mean(axis=0) for i in range(6)]  # (y, x)
    for row in range(3):
        left, right = centres[2 * row], centres[2 * row + 1]
        assert left[1] < right[1] and abs(left[0] - right[0]) < 1
    assert centres[0][0] < centres[2][0] < centres[4][0]
    assert_led_corner_free(view)


def test_words_appear_only_when_emerged_and_stage_lights_count() -> None:
    e = new(1)
    view = drawer.draw(e, 0.0)
    for i in range(6):
        assert count_near(view.image, INK, tol=30, box=drawer._box(i)) > 50  # a word's ink
    assert count_near(view.image, LED_GREEN, tol=10, box=drawer.STAGE_PANEL) == 0
    right = button_to_press(e.display, e.buttons, V1.whos_on_first)
    e.press(f"button-{right}", 1.0)
    hidden = drawer.draw(e, 1.5)
    assert all(count_near(hidden.image, INK, tol=30, box=drawer._box(i)) == 0 for i in range(6))
    assert (hidden.ids == view.ids).all()  # the buttons stay where they are
    assert drawer.look(e, 1.5) != drawer.look(e, 10.0)
    shown = drawer.draw(e, 10.0)
    green = count_near(shown.image, LED_GREEN, tol=10, box=drawer.STAGE_PANEL)
    assert green > 500  # one stage done


def test_drawing_is_deterministic() -> None:
    e = new(2)
    assert_same_view(drawer.draw(e, 0.0), drawer.draw(e, 0.0))
