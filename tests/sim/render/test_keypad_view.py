"""Keypad view: four keys as elements 1–4 in TL, TR, BL, BR order, glyphs drawn, LEDs coloured."""

from __future__ import annotations

import random

import numpy as np
from _support import FakeBomb, generated
from _views import assert_led_corner_free, assert_module_canvas, assert_same_view, count_near

from gptnt.rules.modules.keypad import KEYS, press_order
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.keypad import KeypadEngine
from gptnt.sim.render.modules import keypad as drawer
from gptnt.sim.render.modules._plate import INK, LED_GREEN, LED_RED


def new(seed: int) -> KeypadEngine:
    return generated(KeypadEngine, random.Random(seed), FakeBomb(), Slot(True, 0))


def test_shapes_ids_order_and_led_corner() -> None:
    view = drawer.draw(new(0), 0.0)
    assert_module_canvas(view)
    assert set(np.unique(view.ids)) == {0, 1, 2, 3, 4}
    centres = [np.argwhere(view.ids == i + 1).mean(axis=0) for i in range(4)]  # (y, x)
    assert (
        centres[0][1] < centres[1][1] and centres[0][0] < centres[2][0]
    )  # TL left of TR, above BL
    assert centres[3][0] > centres[1][0] and centres[3][1] > centres[2][1]
    assert_led_corner_free(view)


def test_every_key_shows_its_glyph_and_different_symbols_differ() -> None:
    e = new(1)
    view = drawer.draw(e, 0.0)
    image = np.asarray(view.image)
    for i in range(4):
        assert count_near(image, INK, tol=40, mask=view.ids == i + 1) > 300  # ink of the glyph
    other = new(2)
    assert other.symbols != e.symbols
    assert drawer.draw(other, 0.0).image.tobytes() != view.image.tobytes()


def test_leds_green_and_red() -> None:
    e = new(3)
    order = press_order(e.symbols, V1.keypad)
    e.press(KEYS[order[0]], 1.0)
    e.press(KEYS[order[2]], 2.0)  # out of order: red flash
    view = drawer.draw(e, 2.1)
    image = np.asarray(view.image)
    assert count_near(image, LED_GREEN, tol=10, mask=view.ids == order[0] + 1) > 100
    assert count_near(image, LED_RED, tol=10, mask=view.ids == order[2] + 1) > 100
    assert count_near(image, LED_GREEN, tol=10, mask=view.ids == order[1] + 1) == 0
    assert drawer.look(e, 2.1) != drawer.look(e, 10.0)  # the red flash ends
    later = drawer.draw(e, 10.0).image
    assert count_near(later, LED_RED, tol=10, mask=view.ids == order[2] + 1) == 0


def test_drawing_is_deterministic() -> None:
    e = new(4)
    assert_same_view(drawer.draw(e, 0.0), drawer.draw(e, 0.0))
