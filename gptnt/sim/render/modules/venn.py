"""Complicated Wires, zoomed in: a row of LEDs on the top strip, up to six vertical wires (striped
when two-coloured, split when cut) down to the bottom strip, and a panel under each slot that may
carry a star."""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable
from functools import lru_cache

from gptnt.sim.modules.venn import SLOTS, VennEngine
from gptnt.sim.render._view import ModuleView
from gptnt.sim.render.modules._plate import RGB, Canvas, bevel, dim

WIRE = {
    "red": (206, 30, 28),
    "blue": (34, 64, 206),
    "white": (192, 184, 171),
}  # the real white wire is this grey
STRIP = (40, 42, 56)
SOCKET = (92, 96, 108)
LED_ON = (255, 244, 190)
LED_OFF = (22, 22, 26)
PANEL = (176, 140, 96)
STAR = (44, 34, 28)

X0, PITCH = 86, 56  # x of slot 0 and the spacing
TOP, BOTTOM = 136, 372  # where the wires plug in
WIDTH = 10
CUT_GAP = (236, 266)  # y range missing from a cut wire


@lru_cache(maxsize=SLOTS)
def _path(slot: int) -> tuple[tuple[int, int], ...]:
    """A fixed, gently bent path per slot (the game's wires are hand-bent)."""
    x = X0 + slot * PITCH
    points = []
    for i in range(17):
        y = TOP + (BOTTOM - TOP) * i / 16
        wobble = 8 * math.sin(slot * 1.3 + i * 0.85) * math.sin(math.pi * i / 16)
        points.append((int(x + wobble), int(y)))
    return tuple(points)


def _star(cx: int, cy: int, r: int) -> list[tuple[float, float]]:
    return [
        (cx + (r if k % 2 == 0 else r * 0.42) * math.sin(math.pi * k / 5),
         cy - (r if k % 2 == 0 else r * 0.42) * math.cos(math.pi * k / 5))
        for k in range(10)
    ]  # fmt: skip


def _colours(color: str) -> tuple[RGB, RGB]:
    """Base and stripe colour of a protocol colour (``"red, white"`` = red with white stripes)."""
    parts = [WIRE[p.strip()] for p in color.split(",")]
    return parts[0], parts[-1]


def look(engine: VennEngine, t: float) -> Hashable:
    return tuple(None if w is None else (w.color, w.led, w.star, w.cut) for w in engine.wires)


def draw(engine: VennEngine, t: float) -> ModuleView:
    canvas = Canvas()
    d = canvas.draw
    left, right = X0 - 38, X0 + (SLOTS - 1) * PITCH + 38  # clear of the status LED's notch
    bevel(d, (left, 64, right, 118), STRIP, depth=3)  # the LED strip
    bevel(d, (left, 118, right, 150), dim(STRIP, 1.4), depth=3)
    bevel(d, (left, 358, right, 392), dim(STRIP, 1.4), depth=3)
    for slot in range(SLOTS):
        x = X0 + slot * PITCH
        wire = engine.wires[slot]
        lit = wire is not None and wire.led
        if lit:
            d.ellipse((x - 17, 74, x + 17, 108), fill=dim(LED_ON, 0.7))
        d.ellipse((x - 11, 80, x + 11, 102), fill=LED_ON if lit else LED_OFF)
        for y in (TOP, BOTTOM):
            d.rectangle((x - 9, y - 7, x + 9, y + 7), fill=SOCKET)
        bevel(d, (x - 24, 404, x + 24, 456), PANEL, depth=3)
        if wire is not None and wire.star:
            d.polygon(_star(x, 430, 19), fill=STAR)
    ids = {name: i + 1 for i, name in enumerate(engine.elements())}
    for slot, wire in enumerate(engine.wires):
        if wire is None:
            continue
        path = _path(slot)
        pieces = [path]
        if wire.cut:
            pieces = [
                tuple(p for p in path if p[1] <= CUT_GAP[0]),
                tuple(p for p in path if p[1] >= CUT_GAP[1]),
            ]
        base, stripe = _colours(wire.color)
        for piece in pieces:
            d.line(piece, fill=dim(base, 0.55), width=WIDTH + 4, joint="curve")
            d.line(piece, fill=base, width=WIDTH, joint="curve")
            if stripe != base:  # short diagonal bands every few pixels
                for (xa, ya), (xb, yb) in itertools.pairwise(piece):
                    mx, my = (xa + xb) / 2, (ya + yb) / 2
                    d.line([(mx - 6, my + 4), (mx + 6, my - 4)], fill=stripe, width=6)
            canvas.id_draw.line(piece, fill=ids[f"wire-{slot}"], width=WIDTH + 8, joint="curve")
    return canvas.view()
