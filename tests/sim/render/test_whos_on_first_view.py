"""Who's on First view: six buttons in reading order, words only when emerged, stage lights."""

from __future__ import annotations

import random

import numpy as np

from gptnt.rules._edgework import Edgework
from gptnt.rules.modules.whos_on_first import button_to_press
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.whos_on_first import WhosOnFirstEngine
from gptnt.sim.render._view import LED_CENTER, LED_RADIUS, MODULE_SIZE
from gptnt.sim.render.modules import whos_on_first as drawer
from gptnt.sim.render.modules._plate import INK, LED_GREEN


class Bomb:
    edgework = Edgework(serial="AB1CD2")
    strike_count = 0

    def timer_text(self) -> str:
        return "04:59"

    def strike(self, module: str) -> None:
        self.strike_count += 1


def new(seed: int) -> WhosOnFirstEngine:
    e = WhosOnFirstEngine.generate(random.Random(seed), rules=V1, bomb=Bomb(), slot=Slot(True, 0))
    assert isinstance(e, WhosOnFirstEngine)
    return e


def count(
    image: object, box: tuple[int, int, int, int], rgb: tuple[int, int, int], tol: int = 30
) -> int:
    x0, y0, x1, y1 = box
    pixels = np.asarray(image)[y0:y1, x0:x1].astype(int)
    return int((np.abs(pixels - rgb).max(axis=2) <= tol).sum())


def test_shapes_ids_reading_order_and_led_corner() -> None:
    view = drawer.draw(new(0), 0.0)
    assert view.image.size == (MODULE_SIZE, MODULE_SIZE) and view.ids.shape == (
        MODULE_SIZE,
        MODULE_SIZE,
    )
    assert set(np.unique(view.ids)) == set(range(7))
    centres = [np.argwhere(view.ids == i + 1).mean(axis=0) for i in range(6)]  # (y, x)
    for row in range(3):
        left, right = centres[2 * row], centres[2 * row + 1]
        assert left[1] < right[1] and abs(left[0] - right[0]) < 1
    assert centres[0][0] < centres[2][0] < centres[4][0]
    x, y = LED_CENTER
    assert not view.ids[y - LED_RADIUS : y + LED_RADIUS, x - LED_RADIUS : x + LED_RADIUS].any()


def test_words_appear_only_when_emerged_and_stage_lights_count() -> None:
    e = new(1)
    view = drawer.draw(e, 0.0)
    for i in range(6):
        assert count(view.image, drawer._box(i), INK) > 50  # a word's ink
    assert count(view.image, drawer.STAGE_PANEL, LED_GREEN, tol=10) == 0
    right = button_to_press(e.display, e.buttons, V1.whos_on_first)
    e.press(f"button-{right}", 1.0)
    hidden = drawer.draw(e, 1.5)
    assert all(count(hidden.image, drawer._box(i), INK) == 0 for i in range(6))
    assert (hidden.ids == view.ids).all()  # the buttons stay where they are
    assert drawer.look(e, 1.5) != drawer.look(e, 10.0)
    shown = drawer.draw(e, 10.0)
    assert count(shown.image, drawer.STAGE_PANEL, LED_GREEN, tol=10) > 500  # one stage done


def test_drawing_is_deterministic() -> None:
    e = new(2)
    a, b = drawer.draw(e, 0.0), drawer.draw(e, 0.0)
    assert a.image.tobytes() == b.image.tobytes() and (a.ids == b.ids).all()
