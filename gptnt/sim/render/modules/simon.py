"""Simon Says, zoomed in: four coloured buttons in a diamond (blue top, yellow right, green
bottom, red left) set in a black frame. Unlit they are dark but saturated, as in the game (their
colours are the medians of the real frame's pixels under each button's mask region); lit by the
flash sequence or a press, one glows much brighter, almost white in its middle."""

from __future__ import annotations

from collections.abc import Hashable

from gptnt.sim.modules.simon import SimonEngine
from gptnt.sim.render._view import ModuleView
from gptnt.sim.render.modules._plate import Canvas, dim

CENTER = (228, 280)
HALF = 190  # half-diagonal of the whole diamond
GAP = 6
FRAME = (16, 18, 26)
# colour → (offset of its button's centre in half-diagonals, unlit rgb, lit rgb); the unlit
# colours are the real frame's medians under each button (red 111,5,16; blue 0,12,117;
# green 29,105,5; yellow 130,103,0) less the lighter inner diamond each button has
BUTTONS = {
    "red": ((-1, 0), (104, 4, 14), (255, 84, 70)),
    "blue": ((0, -1), (0, 10, 110), (96, 140, 255)),
    "green": ((0, 1), (27, 98, 4), (112, 255, 92)),
    "yellow": ((1, 0), (122, 96, 0), (255, 236, 80)),
}


def _diamond(cx: float, cy: float, half: float) -> list[tuple[float, float]]:
    return [(cx, cy - half), (cx + half, cy), (cx, cy + half), (cx - half, cy)]


def look(engine: SimonEngine, t: float) -> Hashable:
    return engine.lit_color(t)


def draw(engine: SimonEngine, t: float) -> ModuleView:
    canvas = Canvas()
    d = canvas.draw
    cx, cy = CENTER
    d.polygon(_diamond(cx + 7, cy + 9, HALF + 14), fill=(92, 100, 112))  # its shadow
    d.polygon(_diamond(cx, cy, HALF + 14), fill=FRAME)
    lit = engine.lit_color(t)
    quarter = HALF / 2
    for index, color in enumerate(engine.elements()):
        (dx, dy), dark, bright = BUTTONS[color]
        bx, by = cx + dx * quarter, cy + dy * quarter
        shape = _diamond(bx, by, quarter - GAP)
        fill = bright if color == lit else dark
        d.polygon(shape, fill=fill)
        d.polygon(_diamond(bx - 5, by - 5, quarter * 0.62), fill=dim(fill, 1.12))
        if color == lit:  # the glow of the lamp under the button
            glow = tuple((c + 255) // 2 for c in bright)
            d.polygon(_diamond(bx - 3, by - 3, quarter * 0.34), fill=glow)
        canvas.id_draw.polygon(shape, fill=index + 1)
    return canvas.view()
