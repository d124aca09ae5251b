"""Who's on First, zoomed in: the display on top, six word buttons (2 columns × 3 rows) and the
stage lights to the right. While the buttons emerge they show no words and the display is dark."""

from __future__ import annotations

from collections.abc import Hashable

from gptnt.sim.modules.whos_on_first import WhosOnFirstEngine
from gptnt.sim.render._view import ModuleView
from gptnt.sim.render.modules._plate import INK, Canvas, bevel, label, put_label, stage_lights

SCREEN = (94, 54, 384, 138)
SCREEN_BACK = (56, 72, 84)
SCREEN_TEXT = (230, 236, 240)
BUTTON = (214, 196, 156)
BUTTON_FRAME = (70, 74, 78)
BUTTON_W, BUTTON_H = 136, 78
COLUMNS = (98, 248)
ROWS = (176, 272, 368)
STAGE_PANEL = (404, 168, 468, 448)
WORD_SIZE = 40  # the real buttons' words are 0.4 of the button's height (6 of 15 px)


def _box(index: int) -> tuple[int, int, int, int]:
    x, y = COLUMNS[index % 2], ROWS[index // 2]
    return (x, y, x + BUTTON_W, y + BUTTON_H)


def look(engine: WhosOnFirstEngine, t: float) -> Hashable:
    emerging = engine.emerging(t)
    words = None if emerging else (engine.display, engine.buttons)
    return (words, engine.stages_done(), engine.stages)


def draw(engine: WhosOnFirstEngine, t: float) -> ModuleView:
    canvas = Canvas()
    d = canvas.draw
    emerging = engine.emerging(t)
    bevel(d, SCREEN, (96, 104, 112), depth=5)
    x0, y0, x1, y1 = SCREEN
    d.rectangle((x0 + 10, y0 + 10, x1 - 10, y1 - 10), fill=SCREEN_BACK)
    if not emerging and engine.display:
        text = label(engine.display, 42, x1 - x0 - 40, squeeze=0.86)
        put_label(canvas.image, text, ((x0 + x1) // 2, (y0 + y1) // 2), SCREEN_TEXT)
    d.rectangle(
        (COLUMNS[0] - 10, ROWS[0] - 10, COLUMNS[1] + BUTTON_W + 10, ROWS[2] + BUTTON_H + 10),
        fill=BUTTON_FRAME,
    )
    for index in range(6):
        box = _box(index)
        bevel(d, box, BUTTON, depth=2 if emerging else 5, sunk=emerging)
        canvas.id_draw.rectangle(box, fill=index + 1)
        if not emerging:
            word = label(engine.buttons[index], WORD_SIZE, BUTTON_W - 22)
            put_label(canvas.image, word, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), INK)
    stage_lights(canvas.draw, STAGE_PANEL, engine.stages_done(), engine.stages)
    return canvas.view()
