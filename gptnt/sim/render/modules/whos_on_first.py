"""Who's on First, zoomed in: the display on top, six word buttons (2 columns × 3 rows) and the
stage lights to the right. While the buttons emerge they show no words and the display is dark."""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache

from gptnt.sim.modules.whos_on_first import WhosOnFirstEngine
from gptnt.sim.render._view import ModuleView, font
from gptnt.sim.render.modules._plate import INK, Canvas, bevel, stage_lights

SCREEN = (94, 54, 384, 138)
SCREEN_BACK = (40, 56, 62)
SCREEN_TEXT = (196, 232, 236)
BUTTON = (200, 184, 146)
BUTTON_W, BUTTON_H = 136, 78
COLUMNS = (98, 248)
ROWS = (176, 272, 368)
STAGE_PANEL = (404, 168, 468, 448)


def _box(index: int) -> tuple[int, int, int, int]:
    x, y = COLUMNS[index % 2], ROWS[index // 2]
    return (x, y, x + BUTTON_W, y + BUTTON_H)


@lru_cache(maxsize=256)
def _fit(text: str, width: int, size: int) -> int:
    """The largest font size up to ``size`` at which ``text`` fits in ``width`` pixels."""
    while size > 12 and font(size, bold=True).getlength(text) > width:
        size -= 2
    return size


def look(engine: WhosOnFirstEngine, t: float) -> Hashable:
    emerging = engine.emerging(t)
    words = None if emerging else (engine.display, engine.buttons)
    return (words, engine.stages_done(), engine.stages)


def draw(engine: WhosOnFirstEngine, t: float) -> ModuleView:
    canvas = Canvas()
    d = canvas.draw
    emerging = engine.emerging(t)
    bevel(d, SCREEN, (120, 128, 136), depth=5)
    x0, y0, x1, y1 = SCREEN
    d.rectangle((x0 + 10, y0 + 10, x1 - 10, y1 - 10), fill=SCREEN_BACK)
    if not emerging and engine.display:
        size = _fit(engine.display, x1 - x0 - 40, 44)
        d.text(
            ((x0 + x1) // 2, (y0 + y1) // 2),
            engine.display,
            fill=SCREEN_TEXT,
            font=font(size, bold=True),
            anchor="mm",
        )
    d.rectangle(
        (COLUMNS[0] - 10, ROWS[0] - 10, COLUMNS[1] + BUTTON_W + 10, ROWS[2] + BUTTON_H + 10),
        fill=(92, 88, 80),
    )
    for index in range(6):
        box = _box(index)
        bevel(d, box, BUTTON, depth=2 if emerging else 5, sunk=emerging)
        canvas.id_draw.rectangle(box, fill=index + 1)
        if not emerging:
            word = engine.buttons[index]
            size = _fit(word, BUTTON_W - 20, 26)
            d.text(
                ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2),
                word,
                fill=INK,
                font=font(size, bold=True),
                anchor="mm",
            )
    stage_lights(canvas.draw, STAGE_PANEL, engine.stages_done(), engine.stages)
    return canvas.view()
