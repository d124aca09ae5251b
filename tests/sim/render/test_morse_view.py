"""Morse view: the lamp follows the blink signal, the read-out and needle follow the dial."""

from __future__ import annotations

import numpy as np
from _support import FakeBomb
from _views import assert_led_corner_free, assert_module_canvas

from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.morse import MorseEngine
from gptnt.sim.render.modules import morse as drawer


def engine(word: str = "trick") -> MorseEngine:
    return MorseEngine(rules=V1, bomb=FakeBomb(), slot=Slot(True, 0), word=word)


def test_shape_and_mask_in_element_order() -> None:
    e = engine()
    view = drawer.draw(e, 0.0)
    assert_module_canvas(view)
    assert set(np.unique(view.ids)) == {0, 1, 2, 3}
    cols = {i: np.argwhere(view.ids == i).mean(axis=0) for i in (1, 2, 3)}
    assert cols[1][1] < cols[3][1] < cols[2][1]  # left arrow, TX in the middle, right arrow
    assert cols[3][0] > cols[1][0]  # TX below the arrows


def test_lamp_is_lit_only_while_the_signal_is_on() -> None:
    e = engine("trick")  # T: lit units 0–2, dark at unit 3
    on, off = drawer.draw(e, 0.1), drawer.draw(e, 0.8)
    assert drawer.look(e, 0.1) != drawer.look(e, 0.8)
    assert on.image.getpixel((230, 120)) == drawer.LAMP_ON
    assert off.image.getpixel((230, 120)) == drawer.LAMP_OFF


def test_readout_and_needle_follow_the_dial() -> None:
    e = engine()
    first = drawer.draw(e, 0.8)
    e.press("right", 1.0)
    moved = drawer.draw(e, 0.8)
    display = (120, 262, 392, 318)
    assert first.image.crop(display).tobytes() != moved.image.crop(display).tobytes()
    scale = np.asarray(moved.image.crop(drawer.SCALE_BOX))
    needle_x = np.argwhere((scale == drawer.NEEDLE).all(axis=2))[:, 1].mean()
    first_x = np.argwhere(
        (np.asarray(first.image.crop(drawer.SCALE_BOX)) == drawer.NEEDLE).all(axis=2)
    )[:, 1].mean()
    assert needle_x > first_x


def test_led_corner_is_left_free() -> None:
    view = drawer.draw(engine(), 0.1)
    assert_led_corner_free(view)
