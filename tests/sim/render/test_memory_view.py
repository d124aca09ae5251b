"""Memory view: four buttons left to right, the display digit, numbers hidden while emerging."""

from __future__ import annotations

import random

import numpy as np
from _support import FakeBomb, generated
from _views import assert_led_corner_free, assert_module_canvas, assert_same_view, count_near

from gptnt.rules.modules.memory import position_to_press
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.memory import MemoryEngine
from gptnt.sim.render.modules import memory as drawer
from gptnt.sim.render.modules._plate import INK, LED_GREEN


def new(seed: int) -> MemoryEngine:
    return generated(MemoryEngine, random.Random(seed), FakeBomb(), Slot(True, 0))


def test_shapes_ids_order_and_led_corner() -> None:
    view = drawer.draw(new(0), 0.0)
    assert_module_canvas(view)
    assert set(np.unique(view.ids)) == set(range(5))
    xs = [np.argwhere(view.ids == i + 1)[:, 1].mean() for i in range(4)]
    assert xs == sorted(xs)
    assert_led_corner_free(view)


def test_labels_and_display_differ_by_state_and_hide_while_emerging() -> None:
    e = new(1)
    view = drawer.draw(e, 0.0)
    for i in range(4):
        assert count_near(view.image, INK, tol=30, box=drawer._box(i)) > 200
    assert count_near(view.image, drawer.SCREEN_TEXT, tol=30, box=drawer.SCREEN) > 500
    e.display = e.display % 4 + 1
    assert drawer.draw(e, 0.0).image.tobytes() != view.image.tobytes()
    e.press("button-0", 1.0)  # right or wrong, new numbers emerge
    hidden = drawer.draw(e, 1.5)
    assert all(count_near(hidden.image, INK, tol=30, box=drawer._box(i)) == 0 for i in range(4))
    assert count_near(hidden.image, drawer.SCREEN_TEXT, tol=30, box=drawer.SCREEN) == 0


def test_stage_lights_follow_completed_stages() -> None:
    e = new(2)
    for done in range(3):
        view = drawer.draw(e, 100.0 * done)
        green = count_near(view.image, LED_GREEN, tol=10, box=drawer.STAGE_PANEL)
        assert (green > 0) == (done > 0)
        p = position_to_press(e.stage, e.display, e.labels, e.history, V1.memory)
        e.press(f"button-{p - 1}", 100.0 * done + 1)
    assert e.stages_done() == 3


def test_drawing_is_deterministic() -> None:
    e = new(3)
    assert_same_view(drawer.draw(e, 0.0), drawer.draw(e, 0.0))
