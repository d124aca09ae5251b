"""Wires, zoomed in: six slots between two connector strips; wavy coloured wires, cut ones split.

As in the game, the right strip is shorter and sits lower than the left one (it stays clear of the
status LED), so each wire runs down a little from its left plug to its right plug."""

from __future__ import annotations

import math
from collections.abc import Hashable
from functools import lru_cache

from PIL import Image, ImageDraw

from gptnt.sim.modules.wires import SLOTS, WiresEngine
from gptnt.sim.render._view import MODULE_SIZE, ModuleView
from gptnt.sim.render.modules._plate import Canvas, bevel, dim, plate_image

WIRE_COLORS = {
    "red": (208, 32, 22),
    "yellow": (236, 212, 34),
    "blue": (36, 62, 204),
    "black": (26, 26, 30),
    "white": (192, 184, 171),  # the real white wire is this grey (measured on a real frame)
}
STRIP = (66, 70, 96)
SOCKET = (118, 122, 128)
LEFT_X, RIGHT_X = 90, 414  # where the wires plug in
LEFT_Y, LEFT_STEP = 100, 66  # slot 0's plug height on the left strip, and the spacing
RIGHT_Y, RIGHT_STEP = 196, 47  # the same on the right strip
WIDTH = 16  # the real wires' regions are 3–4 px thick where a module is 108 px: 16–19 of 512
CUT_GAP = (236, 276)  # x range missing from a cut wire


def _ends(slot: int) -> tuple[int, int]:
    """The heights of a slot's left and right plugs."""
    return LEFT_Y + slot * LEFT_STEP, RIGHT_Y + slot * RIGHT_STEP


@lru_cache(maxsize=SLOTS)
def _path(slot: int) -> tuple[tuple[int, int], ...]:
    """A fixed wavy path for a slot (the game's wires are hand-bent, not straight)."""
    y0, y1 = _ends(slot)
    phase = slot * 1.7
    points = []
    for i in range(25):
        s = i / 24
        x = LEFT_X + (RIGHT_X - LEFT_X) * s
        wobble = 8 * math.sin(phase + i * 0.9) + 3 * math.sin(phase * 2 + i * 2.1)
        points.append((int(x), int(y0 + (y1 - y0) * s + wobble * math.sin(math.pi * s))))
    return tuple(points)


MARGIN = 24  # rows of plate above and below a wire's path its sprite covers


def _top(slot: int) -> int:
    """The first row of a slot's sprite."""
    return min(_ends(slot)) - MARGIN


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    """The plate with both connector strips and their sockets (the same for every module)."""
    image = plate_image()
    d = ImageDraw.Draw(image)
    for side, x in enumerate((LEFT_X - 28, RIGHT_X - 12)):
        first, last = _ends(0)[side], _ends(SLOTS - 1)[side]
        bevel(d, (x, first - 30, x + 40, last + 30), STRIP, depth=3, sunk=True)
        for slot in range(SLOTS):
            y = _ends(slot)[side]
            d.rectangle((x + 10, y - 10, x + 30, y + 10), fill=SOCKET, outline=(60, 60, 64))
    return image


@lru_cache(maxsize=2 * SLOTS * len(WIRE_COLORS))
def _sprite(slot: int, color: str, cut: bool) -> tuple[Image.Image, Image.Image]:
    """One wire drawn on a transparent band across the module: (RGBA picture, its L mask)."""
    top = _top(slot)
    path = tuple((x, y - top) for x, y in _path(slot))
    pieces = [path]
    if cut:
        pieces = [
            tuple(p for p in path if p[0] <= CUT_GAP[0]),
            tuple(p for p in path if p[0] >= CUT_GAP[1]),
        ]
    rgb = WIRE_COLORS[color]
    y0, y1 = _ends(slot)
    sprite = Image.new("RGBA", (MODULE_SIZE, abs(y1 - y0) + 2 * MARGIN))
    mask = Image.new("L", sprite.size)
    d, m = ImageDraw.Draw(sprite), ImageDraw.Draw(mask)
    for piece in pieces:
        d.line(piece, fill=dim(rgb, 0.55), width=WIDTH + 3, joint="curve")
        d.line(piece, fill=rgb, width=WIDTH, joint="curve")
        shine = tuple((x, y - 3) for x, y in piece)
        d.line(shine, fill=tuple(min(255, c + 60) for c in rgb), width=3)
        m.line(piece, fill=255, width=WIDTH + 3, joint="curve")
    if cut:  # copper ends where the wire was snipped
        for x, y in (pieces[0][-1], pieces[1][0]):
            d.ellipse((x - 4, y - 4, x + 4, y + 4), fill=(196, 124, 60))
    return sprite, mask


def look(engine: WiresEngine, t: float) -> Hashable:
    return tuple((s, c, s in engine.cut) for s, c in engine.colors.items())


def draw(engine: WiresEngine, t: float) -> ModuleView:
    canvas = Canvas(image=_background().copy())
    for index, (slot, color) in enumerate(engine.colors.items()):
        sprite, mask = _sprite(slot, color, slot in engine.cut)
        at = (0, _top(slot))
        canvas.image.paste(sprite, at, sprite)
        canvas.ids.paste(index + 1, (*at, MODULE_SIZE, at[1] + sprite.height), mask)
    return canvas.view()
