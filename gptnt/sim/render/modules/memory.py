"""Memory, zoomed in: the big display digit, four numbered buttons in a row and five stage
lights to the right. While the buttons emerge they show no numbers and the display is dark."""

from __future__ import annotations

from collections.abc import Hashable

from gptnt.sim.modules.memory import MemoryEngine
from gptnt.sim.render._view import ModuleView
from gptnt.sim.render.modules._plate import INK, Canvas, bevel, label, put_label, stage_lights

SCREEN = (96, 48, 352, 236)
SCREEN_BACK = (38, 72, 58)
SCREEN_TEXT = (236, 246, 240)
SCREEN_GRID = (62, 128, 120)
BUTTON = (216, 200, 160)
BUTTON_W, BUTTON_H, BUTTON_STEP = 78, 130, 88
BUTTONS_AT = (44, 286)  # left button's top-left corner
STAGE_PANEL = (404, 150, 468, 448)
NUMBER_SIZE = 124  # the real buttons' digits are 0.7 of the button's height (18 of 25 px)


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
    bevel(d, SCREEN, (100, 106, 114), depth=5)
    x0, y0, x1, y1 = SCREEN
    d.rectangle((x0 + 22, y0 + 20, x1 - 22, y1 - 20), fill=SCREEN_BACK)
    mx, my = (x0 + x1) // 2, (y0 + y1) // 2
    d.line([(x0 + 24, my), (x1 - 24, my)], fill=SCREEN_GRID, width=2)  # the scope's cross-hair
    d.line([(mx, y0 + 22), (mx, y1 - 22)], fill=SCREEN_GRID, width=2)
    for x, y in ((x0 + 11, y0 + 11), (x1 - 11, y0 + 11), (x0 + 11, y1 - 11), (x1 - 11, y1 - 11)):
        d.ellipse((x - 3, y - 3, x + 3, y + 3), fill=(176, 120, 96))  # the bezel's screws
    if not emerging:
        put_label(canvas.image, label(str(engine.display), 136, squeeze=0.9), (mx, my), SCREEN_TEXT)
    first, last = _box(0), _box(3)
    d.rectangle((first[0] - 10, first[1] - 10, last[2] + 10, last[3] + 10), fill=(80, 82, 84))
    for index in range(4):
        box = _box(index)
        bevel(d, box, BUTTON, depth=2 if emerging else 5, sunk=emerging)
        canvas.id_draw.rectangle(box, fill=index + 1)
        if not emerging:
            number = label(str(engine.labels[index]), NUMBER_SIZE, BUTTON_W - 12)
            put_label(canvas.image, number, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), INK)
    stage_lights(d, STAGE_PANEL, engine.stages_done(), engine.stages)
    return canvas.view()
