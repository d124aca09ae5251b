"""Simon view: the diamond (blue top, yellow right, green bottom, red left), lit colours by time."""

from __future__ import annotations

import numpy as np

from gptnt.rules._edgework import Edgework
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.simon import SimonEngine
from gptnt.sim.render._view import LED_CENTER, LED_RADIUS, MODULE_SIZE
from gptnt.sim.render.modules import simon as drawer


class Bomb:
    edgework = Edgework(serial="AB1CD2")
    strike_count = 0

    def timer_text(self) -> str:
        return "04:59"

    def strike(self, module: str) -> None:
        self.strike_count += 1


def engine() -> SimonEngine:
    return SimonEngine(rules=V1, bomb=Bomb(), slot=Slot(True, 0), sequence=("green", "red", "blue"))


def count(image: object, mask: np.ndarray, rgb: tuple[int, int, int], tol: int = 8) -> int:
    pixels = np.asarray(image)[mask].astype(int)
    return int((np.abs(pixels - rgb).max(axis=1) <= tol).sum())


def test_shapes_ids_layout_and_led_corner() -> None:
    e = engine()
    view = drawer.draw(e, 10.0)
    assert view.image.size == (MODULE_SIZE, MODULE_SIZE) and view.ids.shape == (
        MODULE_SIZE,
        MODULE_SIZE,
    )
    assert set(np.unique(view.ids)) == {0, 1, 2, 3, 4}
    centre = {c: np.argwhere(view.ids == i + 1).mean(axis=0) for i, c in enumerate(e.elements())}
    assert centre["blue"][0] < centre["red"][0] < centre["green"][0]  # top … bottom
    assert centre["red"][1] < centre["blue"][1] < centre["yellow"][1]  # left … right
    x, y = LED_CENTER
    assert not view.ids[y - LED_RADIUS : y + LED_RADIUS, x - LED_RADIUS : x + LED_RADIUS].any()


def test_lit_button_is_bright_and_others_dark() -> None:
    e = engine()
    assert e.lit_color(0.1) == "green"
    view = drawer.draw(e, 0.1)
    for i, color in enumerate(e.elements()):
        _, dark, bright = drawer.BUTTONS[color]
        mask = view.ids == i + 1
        if color == "green":
            assert count(view.image, mask, bright) > 5000 and count(view.image, mask, dark) == 0
        else:
            assert count(view.image, mask, dark) > 5000 and count(view.image, mask, bright) == 0
    dark_look = drawer.look(e, 0.6)
    assert dark_look is None and drawer.look(e, 0.1) == "green"
    assert drawer.draw(e, 0.6).image.tobytes() != view.image.tobytes()


def test_drawing_is_deterministic() -> None:
    e = engine()
    a, b = drawer.draw(e, 0.1), drawer.draw(e, 0.1)
    assert a.image.tobytes() == b.image.tobytes() and (a.ids == b.ids).all()
