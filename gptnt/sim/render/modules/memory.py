"""Memory, zoomed in: the big display digit, four numbered buttons in a row and five stage
lights to the right. While the buttons emerge they show no numbers and the display is dark."""

from __future__ import annotations

from collections.abc import Hashable

from gptnt.sim.modules.memory import MemoryEngine
from gptnt.sim.render._view import ModuleView, font
from gptnt.sim.render.modules._plate import INK, Canvas, bevel, stage_lights

SCREEN = (104, 56, 340, 228)
SCREEN_BACK = (38, 72, 58)
SCREEN_TEXT = (232, 244, 236)
BUTTON = (216, 200, 160)
BUTTON_W, BUTTON_H, BUTTON_STEP = 78, 130, 88
BUTTONS_AT = (44, 286)  # left button's top-left corner
STAGE_PANEL = (404, 150, 468, 448)


def _box(index: int) -> tuple[int, int, int, int]:
    x = BUTTONS_AT[0] + index * BUTTON_STEP
    return (x, BUTTONS_AT[1], x + BUTTON_W, BUTTONS_AT[1] + BUTTON_H)


def look(engine: MemoryEngine, t: float) -> Hashable:
    numbers = None if engine.emerging(t) else (engine.display, engine.labels)
    return (numbers, engine.stages_done(), engine.stages)


def draw(engine: MemoryEngine, t: float) -> ModuleView:
    canvas = Canvas()
    d = canvas.draw
    emerging = engine.emerging(t)
    bevel(d, SCREEN, (120, 128, 136), depth=5)
    x0, y0, x1, y1 = SCREEN
    d.rectangle((x0 + 12, y0 + 12, x1 - 12, y1 - 12), fill=SCREEN_BACK)
    if not emerging:
        d.text(
            ((x0 + x1) // 2, (y0 + y1) // 2),
            str(engine.display),
            fill=SCREEN_TEXT,
            font=font(120, bold=True),
            anchor="mm",
        )
    first, last = _box(0), _box(3)
    d.rectangle((first[0] - 10, first[1] - 10, last[2] + 10, last[3] + 10), fill=(80, 82, 84))
    for index in range(4):
        box = _box(index)
        bevel(d, box, BUTTON, depth=2 if emerging else 5, sunk=emerging)
        canvas.id_draw.rectangle(box, fill=index + 1)
        if not emerging:
            d.text(
                ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2),
                str(engine.labels[index]),
                fill=INK,
                font=font(64, bold=True),
                anchor="mm",
            )
    stage_lights(d, STAGE_PANEL, engine.stages_done(), engine.stages)
    return canvas.view()
