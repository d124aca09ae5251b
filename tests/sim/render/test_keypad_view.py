"""Keypad view: four keys as elements 1–4 in TL, TR, BL, BR order, glyphs drawn, LEDs coloured."""

from __future__ import annotations

import random

import numpy as np

from gptnt.rules._edgework import Edgework
from gptnt.rules.modules.keypad import KEYS, press_order
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.keypad import KeypadEngine
from gptnt.sim.render._view import LED_CENTER, LED_RADIUS, MODULE_SIZE
from gptnt.sim.render.modules import keypad as drawer
from gptnt.sim.render.modules._plate import INK, LED_GREEN, LED_RED


class Bomb:
    edgework = Edgework(serial="AB1CD2")
    strike_count = 0

    def timer_text(self) -> str:
        return "04:59"

    def strike(self, module: str) -> None:
        self.strike_count += 1


def new(seed: int) -> KeypadEngine:
    e = KeypadEngine.generate(random.Random(seed), rules=V1, bomb=Bomb(), slot=Slot(True, 0))
    assert isinstance(e, KeypadEngine)
    return e


def count(image: np.ndarray, mask: np.ndarray, rgb: tuple[int, int, int], tol: int = 10) -> int:
    return int((np.abs(image[mask].astype(int) - rgb).max(axis=1) <= tol).sum())


def test_shapes_ids_order_and_led_corner() -> None:
    view = drawer.draw(new(0), 0.0)
    assert view.image.size == (MODULE_SIZE, MODULE_SIZE) and view.ids.shape == (
        MODULE_SIZE,
        MODULE_SIZE,
    )
    assert set(np.unique(view.ids)) == {0, 1, 2, 3, 4}
    centres = [np.argwhere(view.ids == i + 1).mean(axis=0) for i in range(4)]  # (y, x)
    assert (
        centres[0][1] < centres[1][1] and centres[0][0] < centres[2][0]
    )  # TL left of TR, above BL
    assert centres[3][0] > centres[1][0] and centres[3][1] > centres[2][1]
    x, y = LED_CENTER
    assert not view.ids[y - LED_RADIUS : y + LED_RADIUS, x - LED_RADIUS : x + LED_RADIUS].any()


def test_every_key_shows_its_glyph_and_different_symbols_differ() -> None:
    e = new(1)
    view = drawer.draw(e, 0.0)
    image = np.asarray(view.image)
    for i in range(4):
        assert count(image, view.ids == i + 1, INK, tol=40) > 300  # ink of the glyph
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
    assert count(image, view.ids == order[0] + 1, LED_GREEN) > 100
    assert count(image, view.ids == order[2] + 1, LED_RED) > 100
    assert count(image, view.ids == order[1] + 1, LED_GREEN) == 0
    assert drawer.look(e, 2.1) != drawer.look(e, 10.0)  # the red flash ends
    assert count(np.asarray(drawer.draw(e, 10.0).image), view.ids == order[2] + 1, LED_RED) == 0


def test_drawing_is_deterministic() -> None:
    e = new(4)
    a, b = drawer.draw(e, 0.0), drawer.draw(e, 0.0)
    assert a.image.tobytes() == b.image.tobytes() and (a.ids == b.ids).all()
