"""The Button view: the cap is the only element; cap colour and strip light follow the state."""

from __future__ import annotations

import random

import numpy as np

from gptnt.rules._edgework import Edgework
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.big_button import GENERATION, ButtonEngine
from gptnt.sim.render._view import LED_CENTER, LED_RADIUS, MODULE_SIZE
from gptnt.sim.render.modules import big_button as drawer


class Bomb:
    edgework = Edgework(serial="AB1CD2")
    strike_count = 0

    def timer_text(self) -> str:
        return "04:59"

    def strike(self, module: str) -> None:
        self.strike_count += 1


def engine(color: str = "blue", word: str = "Abort", strip: str = "yellow") -> ButtonEngine:
    return ButtonEngine(
        rules=V1,
        bomb=Bomb(),
        slot=Slot(True, 0),
        color=color,
        word=word,
        strip=strip,
        rng=random.Random(0),
    )


def count(
    view_image: object,
    rgb: tuple[int, int, int],
    box: tuple[int, int, int, int] | None = None,
    tol: int = 10,
) -> int:
    image = np.asarray(view_image).astype(int)
    if box is not None:
        x0, y0, x1, y1 = box
        image = image[y0:y1, x0:x1]
    return int((np.abs(image - rgb).max(axis=2) <= tol).sum())


def test_shapes_ids_and_led_corner() -> None:
    view = drawer.draw(engine(), 0.0)
    assert view.image.size == (MODULE_SIZE, MODULE_SIZE) and view.ids.shape == (
        MODULE_SIZE,
        MODULE_SIZE,
    )
    assert set(np.unique(view.ids)) == {0, 1}
    assert (view.ids == 1).sum() > 40000  # the big cap
    x, y = LED_CENTER
    assert not view.ids[y - LED_RADIUS : y + LED_RADIUS, x - LED_RADIUS : x + LED_RADIUS].any()


def test_cap_colour_for_every_colour() -> None:
    for color, rgb in drawer.CAP_COLORS.items():
        view = drawer.draw(engine(color=color), 0.0)
        assert count(view.image, rgb) > 20000, color


def test_strip_lights_only_while_held_after_the_delay() -> None:
    e = engine(strip="yellow")
    lit = drawer.STRIP_COLORS["yellow"]
    assert count(drawer.draw(e, 0.0).image, lit, drawer.STRIP) == 0
    looks = {drawer.look(e, 0.0)}
    e.press("button", 1.0)
    assert count(drawer.draw(e, 1.1).image, lit, drawer.STRIP) == 0
    looks.add(drawer.look(e, 1.1))
    view = drawer.draw(e, 1.0 + GENERATION.strip_delay)
    assert count(view.image, lit, drawer.STRIP) > 3000
    looks.add(drawer.look(e, 1.0 + GENERATION.strip_delay))
    assert len(looks) == 3  # up, held dark, held lit
    e.release("button", 5.0)
    assert count(drawer.draw(e, 5.0).image, lit, drawer.STRIP) == 0


def test_drawing_is_deterministic() -> None:
    e = engine()
    a, b = drawer.draw(e, 0.0), drawer.draw(e, 0.0)
    assert a.image.tobytes() == b.image.tobytes() and (a.ids == b.ids).all()
