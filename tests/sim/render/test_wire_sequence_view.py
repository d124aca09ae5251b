"""Wire Sequence view: numbers per panel, wires and buttons in the mask, hidden while sliding."""

from __future__ import annotations

import numpy as np
from _support import FakeBomb
from _views import assert_led_corner_free, assert_module_canvas

from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.wire_sequence import PlugWire, WireSequenceEngine
from gptnt.sim.render.modules import wire_sequence as drawer


def engine() -> WireSequenceEngine:
    # Panel 1: black→A (cut), blue→C (blue #1 needs B: keep). Panel 2: red→C (red #1: cut).
    wires: list[PlugWire | None] = [
        PlugWire("black", "A"),
        None,
        PlugWire("blue", "C"),
        PlugWire("red", "C"),
    ]
    return WireSequenceEngine(
        rules=V1, bomb=FakeBomb(), slot=Slot(True, 0), wires=wires + [None] * 8
    )


def test_mask_regions_in_element_order() -> None:
    e = engine()
    view = drawer.draw(e, 0.0)
    assert_module_canvas(view)
    assert e.elements() == ["wire-0", "wire-2", "down", "up"]
    assert set(np.unique(view.ids)) == {0, 1, 2, 3, 4}
    rows = {i: np.argwhere(view.ids == i)[:, 0].mean() for i in (1, 2, 3, 4)}
    assert rows[4] < rows[1] < rows[2] < rows[3]  # up button, wire 1, wire 3, down button
    # A wire from plug 1 to letter A starts beside plug 1 and ends beside plug A.
    assert view.ids[drawer.ROWS[0] + 10, drawer.LEFT_X + 16] == 1


def test_panel_change_hides_wires_then_shows_the_next_panel() -> None:
    e = engine()
    e.press("wire-0", 0.0)
    first = drawer.draw(e, 0.0)
    e.press("down", 1.0)
    assert e.panel == 2
    sliding = drawer.draw(e, 1.5)
    assert set(np.unique(sliding.ids)) == {0, 2, 3}  # wire-3 hidden; down = 2, up = 3
    settled = drawer.draw(e, 2.5)
    assert drawer.look(e, 1.5) != drawer.look(e, 2.5)
    assert set(np.unique(settled.ids)) == {0, 1, 2, 3}
    numbers = (60, 120, 120, 400)
    assert (
        first.image.crop(numbers).tobytes() != settled.image.crop(numbers).tobytes()
    )  # 1–3 vs 4–6
    lights = np.asarray(settled.image.crop((402, 164, 438, 210)))
    assert (lights == drawer.LIGHT_ON).all(axis=2).any()  # panel 1 passed


def test_led_corner_is_left_free() -> None:
    view = drawer.draw(engine(), 0.0)
    assert_led_corner_free(view)
