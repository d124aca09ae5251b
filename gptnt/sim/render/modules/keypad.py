"""Keypad, zoomed in: four cream keys in a 2×2 grid, each with its glyph and a small LED above
it (green once pressed right, red during a wrong press's flash). A key pressed right stays down."""

from __future__ import annotations

from collections.abc import Hashable

from gptnt.fonts import font
from gptnt.rules.modules.keypad import GLYPHS
from gptnt.sim.modules.keypad import KeypadEngine
from gptnt.sim.render._view import ModuleView
from gptnt.sim.render.modules._plate import INK, LED_GREEN, LED_OFF, LED_RED, Canvas, bevel, dim

KEY = (240, 228, 204)
WELL = (58, 60, 66)  # the dark recess the four keys sit in, showing between them
LEDS = {None: LED_OFF, "green": LED_GREEN, "red": LED_RED}
KEY_W, KEY_H = 172, 154
ORIGIN = (64, 152)  # top-left key's corner: the keys fill the plate below the status LED
SPACING = (178, 160)


def _box(index: int) -> tuple[int, int, int, int]:
    x = ORIGIN[0] + (index % 2) * SPACING[0]
    y = ORIGIN[1] + (index // 2) * SPACING[1]
    return (x, y, x + KEY_W, y + KEY_H)


def look(engine: KeypadEngine, t: float) -> Hashable:
    return (engine.symbols, tuple(engine.led(i, t) for i in range(len(engine.symbols))))


def draw(engine: KeypadEngine, t: float) -> ModuleView:
    canvas = Canvas()
    d = canvas.draw
    glyph_font = font(92)
    first, last = _box(0), _box(len(engine.symbols) - 1)
    d.rectangle((first[0] - 8, first[1] - 8, last[2] + 8, last[3] + 8), fill=WELL)
    for i, symbol in enumerate(engine.symbols):
        x0, y0, x1, y1 = box = _box(i)
        led = engine.led(i, t)
        down = led == "green"
        bevel(d, box, dim(KEY, 0.86) if down else KEY, depth=3 if down else 6, sunk=down)
        canvas.id_draw.rectangle(box, fill=i + 1)
        cx = (x0 + x1) // 2
        d.rectangle((cx - 30, y0 + 14, cx + 30, y0 + 30), fill=(20, 20, 20))
        d.rectangle((cx - 26, y0 + 18, cx + 26, y0 + 26), fill=LEDS[led])
        d.text((cx, (y0 + 32 + y1) // 2), GLYPHS[symbol], fill=INK, font=glyph_font, anchor="mm")
    return canvas.view()
