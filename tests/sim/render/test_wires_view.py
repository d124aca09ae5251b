"""Wires view: face and ids agree, cut wires change the picture, colours are the wires' own."""

from __future__ import annotations

import random

import numpy as np

from gptnt.rules._edgework import Edgework
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.wires import WiresEngine
from gptnt.sim.render._view import LED_CENTER, LED_RADIUS, MODULE_SIZE
from gptnt.sim.render.modules import wires as drawer


class Bomb:
    edgework = Edgework(serial="AB1CD2")
    strike_count = 0

    def timer_text(self) -> str:
        return "04:59"

    def strike(self, module: str) -> None:
        self.strike_count += 1


def engine(colors: dict[int, str]) -> WiresEngine:
    return WiresEngine(rules=V1, bomb=Bomb(), slot=Slot(True, 0), colors=colors)


def has_color(
    image: np.ndarray, mask: np.ndarray, rgb: tuple[int, int, int], tol: int = 12
) -> bool:
    return bool((np.abs(image[mask].astype(int) - rgb).max(axis=1) <= tol).any())


def test_shapes_ids_and_led_corner() -> None:
    for seed in range(20):
        e = WiresEngine.generate(random.Random(seed), rules=V1, bomb=Bomb(), slot=Slot(True, 0))
        view = drawer.draw(e, 0.0)
        assert view.image.size == (MODULE_SIZE, MODULE_SIZE) and view.image.mode == "RGB"
        assert view.ids.shape == (MODULE_SIZE, MODULE_SIZE) and view.ids.dtype == np.uint8
        assert set(np.unique(view.ids)) == {0, *range(1, len(e.elements()) + 1)}
        x, y = LED_CENTER
        assert not view.ids[y - LED_RADIUS : y + LED_RADIUS, x - LED_RADIUS : x + LED_RADIUS].any()


def test_each_wire_is_painted_in_its_colour_on_its_own_id() -> None:
    colors = {0: "red", 1: "yellow", 2: "blue", 3: "black", 4: "white", 5: "red"}
    e = engine(colors)
    view = drawer.draw(e, 0.0)
    image = np.asarray(view.image)
    for index, slot in enumerate(colors):
        mask = view.ids == index + 1
        assert mask.sum() > 2000
        assert has_color(image, mask, drawer.WIRE_COLORS[colors[slot]])
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
    e = WiresEngine.generate(random.Random(3), rules=V1, bomb=Bomb(), slot=Slot(True, 0))
    a, b = drawer.draw(e, 0.0), drawer.draw(e, 5.0)
    assert a.image.tobytes() == b.image.tobytes() and (a.ids == b.ids).all()
    assert drawer.look(e, 0.0) == drawer.look(e, 5.0)
