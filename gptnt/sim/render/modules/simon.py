"""Simon Says, zoomed in: four coloured buttons in a diamond (blue top, yellow right, green
bottom, red left), dim until lit by the flash sequence or a press."""

from __future__ import annotations

from collections.abc import Hashable

from gptnt.sim.modules.simon import SimonEngine
from gptnt.sim.render._view import ModuleView
from gptnt.sim.render.modules._plate import Canvas

CENTER = (250, 292)
HALF = 186  # half-diagonal of the whole diamond
GAP = 7
# colour → (offset of its button's centre in half-diagonals, unlit rgb, lit rgb)
BUTTONS = {
    "red": ((-1, 0), (118, 16, 16), (255, 92, 76)),
    "blue": ((0, -1), (14, 22, 108), (104, 154, 255)),
    "green": ((0, 1), (14, 80, 14), (110, 250, 104)),
    "yellow": ((1, 0), (118, 98, 6), (255, 244, 100)),
}


def _diamond(cx: float, cy: float, half: float) -> list[tuple[float, float]]:
    return [(cx, cy - half), (cx + half, cy), (cx, cy + half), (cx - half, cy)]


def look(engine: SimonEngine, t: float) -> Hashable:
    return engine.lit_color(t)


def draw(engine: SimonEngine, t: float) -> ModuleView:
    canvas = Canvas()
    d = canvas.draw
    cx, cy = CENTER
    d.polygon(_diamond(cx + 6, cy + 8, HALF + 12), fill=(84, 90, 98))
    d.polygon(_diamond(cx, cy, HALF + 12), fill=(26, 26, 30))
    lit = engine.lit_color(t)
    quarter = HALF / 2
    for index, color in enumerate(engine.elements()):
        (dx, dy), dark, bright = BUTTONS[color]
        bx, by = cx + dx * quarter, cy + dy * quarter
        shape = _diamond(bx, by, quarter - GAP)
        fill = bright if color == lit else dark
        d.polygon(shape, fill=fill)
        d.polygon(
            _diamond(bx - 6, by - 6, quarter * 0.55), fill=tuple(min(255, c + 24) for c in fill)
        )
        canvas.id_draw.polygon(shape, fill=index + 1)
    return canvas.view()
