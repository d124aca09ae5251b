"""The Button, zoomed in: a big round coloured cap with its word in a tall, condensed face, under
the hinge of its (open) cover with its two blue clips; the narrow strip to its right lights in its
colour only while the button is held (after the engine's strip delay). Not zoomed into, the cap
sits under a translucent closed cover that sticks out a little to the left (``overlay``)."""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw

from gptnt.sim.modules.big_button import ButtonEngine
from gptnt.sim.render._view import ModuleView
from gptnt.sim.render.modules._plate import INK, Canvas, bevel, dim, label, put_label

CAP_COLORS = {
    "red": (204, 34, 30),
    "blue": (34, 74, 204),
    "yellow": (238, 192, 30),
    "white": (232, 232, 226),
    "black": (34, 34, 36),
}
DARK_TEXT = {"yellow", "white"}  # black words on light caps, white words on dark ones
STRIP_COLORS = {
    "red": (255, 58, 46),
    "blue": (72, 124, 255),
    "yellow": (255, 226, 64),
    "white": (246, 246, 246),
}
CENTER = (206, 300)
RADIUS = 144
STRIP = (398, 176, 446, 452)
HINGE = (92, 98, 320, 136)
HINGE_CLIP = (40, 70, 190)
# The closed cover, in fractions of the module's side (measured on a real zoomed-out frame: it
# spans from the casing's edge, 0.1 left of the plate, to near the plate's right edge).
COVER = (-0.1, 0.07, 0.93, 0.97)
COVER_FILL = (214, 226, 236, 96)
COVER_EDGE = (236, 244, 250, 170)


def look(engine: ButtonEngine, t: float) -> Hashable:
    return (engine.color, engine.word, engine.held_since is not None, engine.strip_lit(t))


def draw(engine: ButtonEngine, t: float) -> ModuleView:
    canvas = Canvas()
    d = canvas.draw
    cx, cy = CENTER
    held = engine.held_since is not None
    bevel(d, HINGE, (176, 184, 200), depth=5)
    x0, y0, x1, y1 = HINGE
    for x in (x0 + 6, x1 - 40):  # the cover's clips
        bevel(d, (x, y0 - 8, x + 34, y1 + 4), HINGE_CLIP, depth=4)
    # the cap's well, its shadow and the cap itself (a pressed cap sinks a little)
    d.ellipse(
        (cx - RADIUS - 14, cy - RADIUS - 14, cx + RADIUS + 14, cy + RADIUS + 14),
        fill=(132, 140, 150),
    )
    cap = CAP_COLORS[engine.color]
    r = RADIUS - (6 if held else 0)
    if not held:
        d.ellipse((cx - r + 8, cy - r + 10, cx + r + 8, cy + r + 10), fill=(70, 76, 84))
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=dim(cap, 0.72))
    d.ellipse(
        (cx - r + 8, cy - r + 6, cx + r - 8, cy + r - 10), fill=cap if not held else dim(cap, 0.9)
    )
    canvas.id_draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=1)
    text = INK if engine.color in DARK_TEXT else (240, 240, 240)
    put_label(canvas.image, label(engine.word.upper(), 66, 2 * RADIUS - 60), CENTER, text)
    # the strip: a dark slot, lit in the strip's colour while held
    bevel(d, STRIP, (150, 156, 164), depth=5)
    x0, y0, x1, y1 = STRIP
    lit = engine.strip_lit(t)
    d.rectangle((x0 + 10, y0 + 10, x1 - 10, y1 - 10), fill=(14, 14, 16))
    if lit is not None:
        glow = STRIP_COLORS[lit]
        d.rectangle((x0 + 12, y0 + 12, x1 - 12, y1 - 12), fill=glow)
        d.rectangle((x0 + 18, y0 + 14, x0 + 22, y1 - 14), fill=(255, 255, 255))
    return canvas.view()


@lru_cache(maxsize=16)
def overlay(size: int) -> tuple[np.ndarray, tuple[int, int]]:
    """The closed translucent cover over a module of ``size`` pixels: an RGBA picture and its
    offset (x, y) from the module's top-left corner."""
    x0, y0, x1, y1 = (round(v * size) for v in COVER)
    w, h = x1 - x0, y1 - y0
    img = Image.new("RGBA", (w, h))
    d = ImageDraw.Draw(img)
    edge = max(1, size // 40)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=max(1, size // 16), fill=COVER_EDGE)
    d.rounded_rectangle(
        (edge, edge, w - 1 - edge, h - 1 - edge), radius=max(1, size // 18), fill=COVER_FILL
    )
    picture = np.asarray(img).copy()
    picture.setflags(write=False)
    return picture, (x0, y0)
