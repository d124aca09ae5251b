"""Complicated Wires view: LEDs, stars, striped and cut wires, one mask region per present wire."""

from __future__ import annotations

import numpy as np
from _support import FakeBomb
from _views import assert_led_corner_free, assert_module_canvas

from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.venn import ComplicatedWire, VennEngine
from gptnt.sim.render.modules import venn as drawer


def engine() -> VennEngine:
    wires = [
        ComplicatedWire("red, white", led=True, star=False),
        None,
        ComplicatedWire("blue", led=False, star=True),
        ComplicatedWire("white", led=False, star=False),
        None,
        ComplicatedWire("red", led=False, star=False),
    ]
    return VennEngine(rules=V1, bomb=FakeBomb(), slot=Slot(True, 0), wires=wires)


def x_of(slot: int) -> int:
    return drawer.X0 + slot * drawer.PITCH


def test_mask_has_one_region_per_wire_in_slot_order() -> None:
    e = engine()
    view = drawer.draw(e, 0.0)
    assert_module_canvas(view)
    assert set(np.unique(view.ids)) == {0, 1, 2, 3, 4}
    xs = [np.argwhere(view.ids == i)[:, 1].mean() for i in (1, 2, 3, 4)]
    assert xs == sorted(xs)
    assert abs(xs[1] - x_of(2)) < 12  # id 2 = wire-2


def test_leds_and_stars_follow_the_wires() -> None:
    view = drawer.draw(engine(), 0.0)
    assert view.image.getpixel((x_of(0), 91)) == drawer.LED_ON
    assert view.image.getpixel((x_of(2), 91)) == drawer.LED_OFF
    assert view.image.getpixel((x_of(2), 430)) == drawer.STAR
    assert view.image.getpixel((x_of(3), 430)) != drawer.STAR


def test_striped_wire_shows_both_colours_and_a_cut_opens_a_gap() -> None:
    e = engine()
    view = drawer.draw(e, 0.0)
    band = np.asarray(view.image)[drawer.TOP + 10 : drawer.BOTTOM - 10, x_of(0) - 14 : x_of(0) + 14]
    colours = {tuple(p) for p in band.reshape(-1, 3)}
    assert drawer.WIRE["red"] in colours and drawer.WIRE["white"] in colours
    mid = (drawer.CUT_GAP[0] + drawer.CUT_GAP[1]) // 2
    assert view.ids[mid, x_of(3) - 14 : x_of(3) + 14].any()
    before = drawer.look(e, 0.0)
    e.press("wire-3", 1.0)
    assert drawer.look(e, 1.0) != before
    cut = drawer.draw(e, 1.0)
    assert not cut.ids[mid, x_of(3) - 14 : x_of(3) + 14].any()


def test_led_corner_is_left_free() -> None:
    view = drawer.draw(engine(), 0.0)
    assert_led_corner_free(view)
