"""The bare module plate every zoomed-in module is drawn on, and a canvas pairing face and ids.

KTANE's modules sit on a light, bluish-grey metal plate with a bevelled rim and white clips on
its edges (real frames: ``som/*-screen.png``). The plate is drawn once and copied per picture.
``Canvas`` draws each interactable twice with the same geometry, once in colour on the face and
once as its id on the ``ids`` canvas, so the mask and the picture cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw

from gptnt.sim.render._view import MODULE_SIZE, ModuleView

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]

GAP = (58, 66, 76)  # the slot well around the plate
PLATE = (172, 181, 189)
PLATE_LIGHT = (214, 221, 227)
PLATE_DARK = (112, 121, 132)
CLIP = (226, 232, 236)
INK = (24, 24, 24)
LED_OFF = (34, 38, 36)
LED_GREEN = (70, 230, 90)
LED_RED = (250, 40, 30)


@lru_cache(maxsize=1)
def _plate() -> Image.Image:
    s = MODULE_SIZE
    img = Image.new("RGB", (s, s), GAP)
    d = ImageDraw.Draw(img)
    m = 8
    d.rounded_rectangle((m, m, s - m - 1, s - m - 1), radius=18, fill=PLATE_DARK)
    d.rounded_rectangle((m, m, s - m - 5, s - m - 5), radius=18, fill=PLATE_LIGHT)
    d.rounded_rectangle((m + 5, m + 5, s - m - 6, s - m - 6), radius=14, fill=PLATE)
    for a in (120, s - 170):  # clips on the four edges
        d.rounded_rectangle((a, 2, a + 50, 14), radius=4, fill=CLIP)
        d.rounded_rectangle((a, s - 15, a + 50, s - 3), radius=4, fill=CLIP)
        d.rounded_rectangle((2, a, 14, a + 50), radius=4, fill=CLIP)
        d.rounded_rectangle((s - 15, a, s - 3, a + 50), radius=4, fill=CLIP)
    return img


def plate_image() -> Image.Image:
    """A fresh copy of the bare plate (for drawers that cache their own static background)."""
    return _plate().copy()


@dataclass
class Canvas:
    """A fresh plate and an empty ids canvas, with a drawer for each."""

    image: Image.Image = field(default_factory=lambda: _plate().copy())
    ids: Image.Image = field(default_factory=lambda: Image.new("L", (MODULE_SIZE, MODULE_SIZE)))

    def __post_init__(self) -> None:
        self.draw = ImageDraw.Draw(self.image)
        self.id_draw = ImageDraw.Draw(self.ids)

    def view(self) -> ModuleView:
        return ModuleView(image=self.image, ids=np.asarray(self.ids, dtype=np.uint8).copy())


def bevel(
    draw: ImageDraw.ImageDraw, box: Box, fill: RGB, *, depth: int = 4, sunk: bool = False
) -> None:
    """A raised (or sunken) rectangular part: light rim on the lit side, dark on the other."""
    x0, y0, x1, y1 = box
    light = tuple(min(255, c + 50) for c in fill)
    dark = tuple(max(0, c - 60) for c in fill)
    top, bottom = (dark, light) if sunk else (light, dark)
    draw.rectangle(box, fill=bottom)
    draw.rectangle((x0, y0, x1 - depth, y1 - depth), fill=top)
    draw.rectangle((x0 + depth, y0 + depth, x1 - depth, y1 - depth), fill=fill)


def dim(color: RGB, factor: float) -> RGB:
    """``color`` scaled towards black (unlit parts)."""
    return (int(color[0] * factor), int(color[1] * factor), int(color[2] * factor))


def stage_lights(draw: ImageDraw.ImageDraw, box: Box, lit: int, total: int) -> None:
    """A dark column of ``total`` stage lights, the lowest ``lit`` of them green."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=(30, 32, 34))
    step = (y1 - y0 - 16) // total
    for i in range(total):
        top = y1 - 8 - (i + 1) * step
        fill = LED_GREEN if i < lit else LED_OFF
        draw.rectangle((x0 + 10, top + 6, x1 - 10, top + step - 4), fill=fill)
