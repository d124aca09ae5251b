"""Memory view: four buttons left to right, the display digit, numbers hidden while emerging."""

from __future__ import annotations

import random

import numpy as np

from gptnt.rules._edgework import Edgework
from gptnt.rules.modules.memory import position_to_press
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.memory import MemoryEngine
from gptnt.sim.render._view import LED_CENTER, LED_RADIUS, MODULE_SIZE
from gptnt.sim.render.modules import memory as drawer
from gptnt.sim.render.modules._plate import INK, LED_GREEN


class Bomb:
    edgework = Edgework(serial="AB1CD2")
    strike_count = 0

    def timer_text(self) -> str:
        return "04:59"

    def strike(self, module: str) -> None:
        self.strike_count += 1


def new(seed: int) -> MemoryEngine:
    e = MemoryEngine.generate(random.Random(seed), rules=V1, bomb=Bomb(), slot=Slot(True, 0))
    assert isinstance(e, MemoryEngine)
    return e


def count(
    image: object, box: tuple[int, int, int, int], rgb: tuple[int, int, int], tol: int = 30
) -> int:
    x0, y0, x1, y1 = box
    pixels = np.asarray(image)[y0:y1, x0:x1].astype(int)
    return int((np.abs(pixels - rgb).max(axis=2) <= tol).sum())


def test_shapes_ids_order_and_led_corner() -> None:
    view = drawer.draw(new(0), 0.0)
    assert view.image.size == (MODULE_SIZE, MODULE_SIZE) and view.ids.shape == (
        MODULE_SIZE,
        MODULE_SIZE,
    )
    assert set(np.unique(view.ids)) == set(range(5))
    xs = [np.argwhere(view.ids == i + 1)[:, 1].mean() for i in range(4)]
    assert xs == sorted(xs)
    x, y = LED_CENTER
    assert not view.ids[y - LED_RADIUS : y + LED_RADIUS, x - LED_RADIUS : x + LED_RADIUS].any()


def test_labels_and_display_differ_by_state_and_hide_while_emerging() -> None:
    e = new(1)
    view = drawer.draw(e, 0.0)
    for i in range(4):
        assert count(view.image, drawer._box(i), INK) > 200
    assert count(view.image, drawer.SCREEN, drawer.SCREEN_TEXT) > 500
    e.display = e.display % 4 + 1
    assert drawer.draw(e, 0.0).image.tobytes() != view.image.tobytes()
    e.press("button-0", 1.0)  # right or wrong, new numbers emerge
    hidden = drawer.draw(e, 1.5)
    assert all(count(hidden.image, drawer._box(i), INK) == 0 for i in range(4))
    assert count(hidden.image, drawer.SCREEN, drawer.SCREEN_TEXT) == 0


def test_stage_lights_follow_completed_stages() -> None:
    e = new(2)
    for done in range(3):
        view = drawer.draw(e, 100.0 * done)
        green = count(view.image, drawer.STAGE_PANEL, LED_GREEN, tol=10)
        assert (green > 0) == (done > 0)
        p = position_to_press(e.stage, e.display, e.labels, e.history, V1.memory)
        e.press(f"button-{p - 1}", 100.0 * done + 1)
    assert e.stages_done() == 3


def test_drawing_is_deterministic() -> None:
    e = new(3)
    a, b = drawer.draw(e, 0.0), drawer.draw(e, 0.0)
    assert a.image.tobytes() == b.image.tobytes() and (a.ids == b.ids).all()
