"""The bare module plate every zoomed-in module is drawn on, and a canvas pairing face and ids.

KTANE's modules sit on a light, bluish-grey metal panel raised inside a darker bluish frame,
the panel's top-right corner cut away around the pale blue housing of the status LED, with
white clips on the edges (real frames: ``som/*-screen.png``). The plate is drawn once and
copied per picture. ``label`` gives the game's tall, condensed lettering (DejaVu Bold squeezed).
``Canvas`` draws each interactable twice with the same geometry, once in colour on the face and
once as its id on the ``ids`` canvas, so the mask and the picture cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw

from gptnt.fonts import font
from gptnt.sim.render._view import LED_CENTER, LED_RADIUS, MODULE_SIZE, ModuleView

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]

# The game lights the bomb dimly: under the real zoomed-out face's module regions the median
# luminance is 137, where these plate colours at full light gave 172. The plate's own colours
# are therefore drawn at ``LIGHTING`` of their full-light values (the parts drawers add on top
# carry colours measured on real frames, already lit).
LIGHTING = 0.8


def _lit(rgb: RGB) -> RGB:
    return (round(rgb[0] * LIGHTING), round(rgb[1] * LIGHTING), round(rgb[2] * LIGHTING))


GAP = _lit((40, 46, 54))  # the slot well around the plate
RIM = _lit((112, 126, 142))  # the bluish frame the inner panel sits in
RIM_LIGHT = _lit((176, 190, 204))
RIM_DARK = _lit((70, 80, 94))
PLATE = _lit((176, 184, 194))
PLATE_LIGHT = _lit((222, 228, 234))
PLATE_DARK = _lit((112, 121, 132))
CLIP = _lit((226, 232, 238))
SOCKET = _lit((150, 196, 214))  # the pale blue housing the status LED sits in
INK = (24, 24, 24)
LED_OFF = (34, 38, 36)
LED_GREEN = (70, 230, 90)
LED_RED = (250, 40, 30)
STAGE_BACK = (40, 36, 44)
STAGE_OFF = (30, 26, 32)
STAGE_RIM = (98, 70, 80)

INSET = 30  # from the plate's edge to the inner panel
NOTCH = (360, 152)  # the inner panel's top-right corner is cut from (x, INSET) to (edge, y)


def _panel(dx: int, dy: int) -> list[tuple[int, int]]:
    """The inner panel's outline (its top-right corner cut away around the LED), shifted."""
    s, p = MODULE_SIZE, INSET
    corners = [(p, p), (NOTCH[0], p), (s - p, NOTCH[1]), (s - p, s - p), (p, s - p)]
    return [(x + dx, y + dy) for x, y in corners]


@lru_cache(maxsize=1)
def _plate() -> Image.Image:
    s = MODULE_SIZE
    img = Image.new("RGB", (s, s), GAP)
    d = ImageDraw.Draw(img)
    m = 6
    d.rounded_rectangle((m, m, s - m - 1, s - m - 1), radius=18, fill=RIM_DARK)
    d.rounded_rectangle((m, m, s - m - 5, s - m - 5), radius=18, fill=RIM_LIGHT)
    d.rounded_rectangle((m + 4, m + 4, s - m - 5, s - m - 5), radius=15, fill=RIM)
    # the raised inner panel: lit rim up-left, shadow down-right
    d.polygon(_panel(4, 4), fill=PLATE_DARK)
    d.polygon(_panel(-3, -3), fill=PLATE_LIGHT)
    # brushed metal lit from above: a little lighter at the top, darker at the bottom
    shade = np.linspace(1.07, 0.95, s)[:, None, None] * np.array(PLATE)[None, None, :]
    metal = Image.fromarray(np.broadcast_to(shade, (s, s, 3)).clip(0, 255).astype(np.uint8))
    panel = Image.new("L", (s, s))
    ImageDraw.Draw(panel).polygon(_panel(0, 0), fill=255)
    img.paste(metal, (0, 0), panel)
    # the status LED's housing (the compositor paints the LED itself inside it)
    cx, cy = LED_CENTER
    r = LED_RADIUS + 9
    d.ellipse((cx - r + 3, cy - r + 4, cx + r + 3, cy + r + 4), fill=RIM_DARK)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=SOCKET)
    d.ellipse((cx - r + 5, cy - r + 4, cx + r - 9, cy + r - 12), fill=dim(SOCKET, 1.18))
    for a in (104, s - 164):  # clips on the four edges, straddling rim and panel
        for box in (
            (a, 2, a + 60, 20),
            (a, s - 21, a + 60, s - 3),
            (2, a, 20, a + 60),
            (s - 21, a, s - 3, a + 60),
        ):
            d.rounded_rectangle(box, radius=4, fill=CLIP, outline=RIM_DARK)
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
    """``color`` scaled towards black (unlit parts), or brighter for ``factor`` > 1."""
    return (
        min(255, int(color[0] * factor)),
        min(255, int(color[1] * factor)),
        min(255, int(color[2] * factor)),
    )


def stage_lights(draw: ImageDraw.ImageDraw, box: Box, lit: int, total: int) -> None:
    """A dark column of ``total`` stage lights, the lowest ``lit`` of them green; unlit ones are
    dark cells with a dull reddish rim, as in the game."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=STAGE_BACK, outline=RIM_DARK, width=3)
    step = (y1 - y0 - 16) // total
    for i in range(total):
        top = y1 - 8 - (i + 1) * step
        cell = (x0 + 10, top + 6, x1 - 10, top + step - 4)
        if i < lit:
            draw.rectangle(cell, fill=LED_GREEN)
        else:
            draw.rectangle(cell, fill=STAGE_OFF, outline=STAGE_RIM, width=3)


CONDENSED = 0.74  # the game's labels use a tall, narrow face: DejaVu Bold squeezed to this width


@lru_cache(maxsize=1024)
def label(
    text: str, size: int, width: int = MODULE_SIZE, squeeze: float = CONDENSED
) -> Image.Image:
    """``text`` as an ``L`` coverage mask in a condensed bold face, at ``size`` or smaller so that
    it fits ``width`` pixels (cached, so callers must not draw on it: labels repeat from frame
    to frame)."""
    while size > 12 and font(size, bold=True).getlength(text) * squeeze > width:
        size -= 2
    face = font(size, bold=True)
    left, top, right, bottom = face.getbbox(text)
    mask = Image.new("L", (max(1, int(right - left) + 2), max(1, int(bottom - top) + 2)))
    ImageDraw.Draw(mask).text((1 - left, 1 - top), text, fill=255, font=face)
    return mask.resize(
        (max(1, round(mask.width * squeeze)), mask.height), Image.Resampling.BILINEAR
    )


def put_label(image: Image.Image, mask: Image.Image, centre: tuple[int, int], color: RGB) -> None:
    """Paint a ``label`` mask in ``color`` centred on ``centre``."""
    at = (centre[0] - mask.width // 2, centre[1] - mask.height // 2)
    image.paste(color, (*at, at[0] + mask.width, at[1] + mask.height), mask)
