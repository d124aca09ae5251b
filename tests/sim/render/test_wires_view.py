"""Wires view: face and ids agree, cut wires change the picture, colours are the wires' own."""

from __future__ import annotations

import random

import numpy as np
from _support import FakeBomb, generated
from _views import assert_led_corner_free, assert_module_canvas, assert_same_view, count_near

from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.wires import WiresEngine
from gptnt.sim.render.modules import wires as drawer


def engine(colors: dict[int, str]) -> WiresEngine:
    return WiresEngine(rules=V1, bomb=FakeBomb(), slot=Slot(True, 0), colors=colors)


def test_shapes_ids_and_led_corner() -> None:
    for seed in range(20):
        e = generated(WiresEngine, random.Random(seed), FakeBomb(), Slot(True, 0))
        view = drawer.draw(e, 0.0)
        assert_module_canvas(view)
        assert set(np.unique(view.ids)) == {0, *range(1, len(e.elements()) + 1)}
        assert_led_corner_free(view)


def test_each_wire_is_painted_in_its_colour_on_its_own_id() -> None:
    colors = {0: "red", 1: "yellow", 2: "blue", 3: "black", 4: "white", 5: "red"}
    e = engine(colors)
    view = drawer.draw(e, 0.0)
    image = np.asarray(view.image)
    for index, slot in enumerate(colors):
        mask = view.ids == index + 1
        assert mask.sum() > 2000
        assert count_near(image, drawer.WIRE_COLORS[colors[slot]], tol=12, mask=mask) > 0
    ys = [np.nonzero(view.ids == i + 1)[0].mean() for i in range(6)]
    assert ys == sorted(ys)  # slot 0 at the top


def test_cut_wire_changes_look_and_leaves_a_gap() -> None:
    e = engine({1: "blue", 3: "red", 5: "white"})
    before = drawer.look(e, 0.0)
    whole = drawer.draw(e, 0.0)
    e.cut.add(3)
    assert drawer.look(e, 0.0) != before
    cut = drawer.draw(e, 0.0)
    gap = slice(drawer.CUT_GAP[0] + 8, drawer.CUT_GAP[1] - 8)
    assert (whole.ids[:, gap] == 2).any() and not (cut.ids[:, gap] == 2).any()
    assert (cut.ids == 2).sum() > 1000  # both halves are still there (and clickable)


def test_drawing_is_deterministic() -> None:
    e = generated(WiresEngine, random.Random(3), FakeBomb(), Slot(True, 0))
    assert_same_view(drawer.draw(e, 0.0), drawer.draw(e, 5.0))
    assert drawer.look(e, 0.0) == drawer.look(e, 5.0)
