"""Wire Sequence, zoomed in: the current panel with plug numbers on the left and letters A–C on the
right, coloured wires between them (split when cut), up/down buttons and the four stage lights.
While a panel slides in, the wires are hidden and cannot be hit."""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache

from gptnt.fonts import font
from gptnt.rules.modules.wire_sequence import PANELS, SLOTS_PER_PANEL
from gptnt.sim.modules.wire_sequence import LETTERS, WireSequenceEngine
from gptnt.sim.render._view import ModuleView
from gptnt.sim.render.modules._plate import Canvas, bevel, dim

WIRE = {"red": (206, 30, 28), "blue": (38, 64, 210), "black": (28, 28, 32)}
PANEL = (206, 182, 150)
PANEL_STRIPE = (188, 162, 128)
PLUG = (64, 66, 70)
BUTTON = (222, 176, 120)
ARROW = (72, 56, 40)
LIGHTS = (36, 30, 44)
LIGHT_ON = (80, 220, 90)
LIGHT_OFF = (60, 44, 56)
INK = (20, 20, 20)

LEFT_X, RIGHT_X = 132, 300  # plug centres
ROWS = (150, 257, 364)  # plug rows, top to bottom
UP_BOX = (186, 26, 298, 68)
DOWN_BOX = (186, 446, 298, 488)
WIDTH = 12
SAMPLES = 16


@lru_cache(maxsize=SLOTS_PER_PANEL * 3)
def _path(row: int, letter: int) -> tuple[tuple[int, int], ...]:
    """An S-shaped cubic from a numbered plug to a lettered plug."""
    (x0, y0), (x1, y1) = (LEFT_X + 14, ROWS[row]), (RIGHT_X - 14, ROWS[letter])
    c0, c1 = (x0 + 80, y0 + 22), (x1 - 80, y1 + 22)  # a little sag
    points = []
    for i in range(SAMPLES + 1):
        s = i / SAMPLES
        a, b, c, d = (1 - s) ** 3, 3 * (1 - s) ** 2 * s, 3 * (1 - s) * s**2, s**3
        points.append(
            (
                int(a * x0 + b * c0[0] + c * c1[0] + d * x1),
                int(a * y0 + b * c0[1] + c * c1[1] + d * y1),
            )
        )
    return tuple(points)


def look(engine: WireSequenceEngine, t: float) -> Hashable:
    moving = engine.emerging(t)
    wires = () if moving else tuple((i, w.color, w.letter, w.cut) for i, w in engine.panel_wires())
    return (engine.panel, moving, wires)


def _button(canvas: Canvas, box: tuple[int, int, int, int], up: bool, index: int) -> None:
    bevel(canvas.draw, box, BUTTON, depth=4)
    cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
    tip, base = (cy - 9, cy + 9) if up else (cy + 9, cy - 9)
    canvas.draw.polygon([(cx, tip), (cx - 13, base), (cx + 13, base)], fill=ARROW)
    canvas.id_draw.rectangle(box, fill=index)


def draw(engine: WireSequenceEngine, t: float) -> ModuleView:
    canvas = Canvas()
    d = canvas.draw
    bevel(d, (64, 90, 368, 424), dim(PANEL, 0.45), depth=5, sunk=True)
    d.rectangle((74, 100, 358, 414), fill=PANEL)
    d.rectangle((170, 100, 262, 414), fill=PANEL_STRIPE)
    ids = {name: i + 1 for i, name in enumerate(engine.elements())}
    shown = engine.panel <= PANELS
    for row, y in enumerate(ROWS):
        for x in (LEFT_X, RIGHT_X):
            d.rectangle((x - 16, y - 16, x + 16, y + 16), fill=dim(PLUG, 0.6))
            d.rectangle((x - 11, y - 11, x + 11, y + 11), fill=PLUG)
        if shown:
            number = (engine.panel - 1) * SLOTS_PER_PANEL + row + 1
            d.text((LEFT_X - 30, y), str(number), font=font(34, bold=True), fill=INK, anchor="rm")
        d.text((RIGHT_X + 30, y), LETTERS[row], font=font(34, bold=True), fill=INK, anchor="lm")
    if not engine.emerging(t):
        for slot, wire in engine.panel_wires():
            path = _path(slot % SLOTS_PER_PANEL, LETTERS.index(wire.letter))
            pieces = [path[: SAMPLES // 2 - 1], path[SAMPLES // 2 + 2 :]] if wire.cut else [path]
            rgb = WIRE[wire.color]
            for piece in pieces:
                d.line(
                    piece,
                    fill=dim(rgb, 0.5) if wire.color != "black" else (70, 70, 76),
                    width=WIDTH + 4,
                    joint="curve",
                )
                d.line(piece, fill=rgb, width=WIDTH, joint="curve")
                canvas.id_draw.line(piece, fill=ids[f"wire-{slot}"], width=WIDTH + 8, joint="curve")
    _button(canvas, DOWN_BOX, False, ids["down"])
    _button(canvas, UP_BOX, True, ids["up"])
    bevel(d, (390, 150, 450, 410), LIGHTS, depth=3, sunk=True)
    for k in range(PANELS):
        y = 164 + k * 61
        lit = k + 1 < engine.panel  # panels passed
        d.rectangle(
            (402, y, 438, y + 46),
            fill=LIGHT_ON if lit else LIGHT_OFF,
            outline=(110, 84, 80),
            width=2,
        )
    return canvas.view()
