"""The Button view: the cap is the only element; cap colour and strip light follow the state."""

from __future__ import annotations

import random

import numpy as np
from _support import FakeBomb
from _views import assert_led_corner_free, assert_module_canvas, assert_same_view, count_near

from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.big_button import GENERATION, ButtonEngine
from gptnt.sim.render.modules import big_button as drawer


def engine(color: str = "blue", word: str = "Abort", strip: str = "yellow") -> ButtonEngine:
    return ButtonEngine(
        rules=V1,
        bomb=FakeBomb(),
        slot=Slot(True, 0),
        color=color,
        word=word,
        strip=strip,
        rng=random.Random(0),
    )


def test_shapes_ids_and_led_corner() -> None:
    view = drawer.draw(engine(), 0.0)
    assert_module_canvas(view)
    assert set(np.unique(view.ids)) == {0, 1}
    assert (view.ids == 1).sum() > 40000  # the big cap
    assert_led_corner_free(view)


def test_cap_colour_for_every_colour() -> None:
    for color, rgb in drawer.CAP_COLORS.items():
        view = drawer.draw(engine(color=color), 0.0)
        assert count_near(view.image, rgb, tol=10) > 20000, color


def test_strip_lights_only_while_held_after_the_delay() -> None:
    e = engine(strip="yellow")
    lit = drawer.STRIP_COLORS["yellow"]
    assert count_near(drawer.draw(e, 0.0).image, lit, tol=10, box=drawer.STRIP) == 0
    looks = {drawer.look(e, 0.0)}
    e.press("button", 1.0)
    assert count_near(drawer.draw(e, 1.1).image, lit, tol=10, box=drawer.STRIP) == 0
    looks.add(drawer.look(e, 1.1))
    view = drawer.draw(e, 1.0 + GENERATION.strip_delay)
    assert count_near(view.image, lit, tol=10, box=drawer.STRIP) > 3000
    looks.add(drawer.look(e, 1.0 + GENERATION.strip_delay))
    assert len(looks) == 3  # up, held dark, held lit
    e.release("button", 5.0)
    assert count_near(drawer.draw(e, 5.0).image, lit, tol=10, box=drawer.STRIP) == 0


def test_drawing_is_deterministic() -> None:
    e = engine()
    assert_same_view(drawer.draw(e, 0.0), drawer.draw(e, 0.0))
