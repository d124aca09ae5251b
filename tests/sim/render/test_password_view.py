"""Password view: the displayed letters, ten arrow buttons and SUBMIT in the mask."""

from __future__ import annotations

import numpy as np
from _support import FakeBomb
from _views import assert_led_corner_free, assert_module_canvas

from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.password import PasswordEngine
from gptnt.sim.render.modules import password as drawer


def engine() -> PasswordEngine:
    columns = ["PQRSTU", "LABCDE", "AFGHIJ", "NKMOPQ", "TVWXYZ"]
    return PasswordEngine(
        rules=V1,
        bomb=FakeBomb(),
        slot=Slot(True, 0),
        goal="PLANT",
        columns=columns,
        shown=[1, 0, 0, 0, 0],
    )


def test_mask_layout_follows_elements() -> None:
    e = engine()
    view = drawer.draw(e, 0.0)
    assert_module_canvas(view)
    assert set(np.unique(view.ids)) == set(range(12))
    centre = {i: np.argwhere(view.ids == i).mean(axis=0) for i in range(1, 12)}
    for col in range(5):
        up, down = centre[1 + col], centre[6 + col]
        assert up[0] < drawer.LCD_BOX[1] < drawer.LCD_BOX[3] < down[0]
        assert abs(up[1] - (drawer.X0 + col * drawer.PITCH)) < 2
    assert centre[11][0] > centre[6][0]  # submit below the down arrows


def test_letters_change_with_the_columns() -> None:
    e = engine()
    before = drawer.draw(e, 0.0)
    cell = (drawer.X0 - 30, drawer.LCD_BOX[1], drawer.X0 + 30, drawer.LCD_BOX[3])
    e.press("down-1", 0.0)  # second column only
    assert drawer.look(e, 0.0) == "QAANT"
    after = drawer.draw(e, 0.0)
    assert before.image.crop(cell).tobytes() == after.image.crop(cell).tobytes()
    second = (cell[0] + drawer.PITCH, cell[1], cell[2] + drawer.PITCH, cell[3])
    assert before.image.crop(second).tobytes() != after.image.crop(second).tobytes()
    ink = np.asarray(after.image.crop(second))
    assert (ink == drawer.LETTER).all(axis=2).sum() > 100


def test_led_corner_is_left_free() -> None:
    view = drawer.draw(engine(), 0.0)
    assert_led_corner_free(view)
