"""Painting marks onto a frame at native resolution, and resizing for a model.

Marks are drawn on the game's own pixel grid (thin outlines stay one pixel wide and labels
stay sharp), then the whole image is resized with Lanczos to the model's image size, as the
paper does (D.1, D.2). Outlines go *around* an element, never over it, so a wire's own colour
stays visible under its mark.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from gptnt.vision._regions import RGB, Region

_STRIPES = 4
"""Horizontal bands on a two-colour label or outline."""


@dataclass(frozen=True)
class MarkStyle:
    """How marks look. Sizes are in native frame pixels for a 480-pixel-high frame and scale
    with the frame height.
    """

    font_size: int = 18
    padding: int = 3
    fill_alpha: float = 0.12
    """How strongly an element is tinted with its mark colour."""
    outline: bool = True

    def scaled_font(self, frame_height: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
        return _font(max(10, round(self.font_size * frame_height / 480)))


@lru_cache(maxsize=16)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font (no font file of ours needed in this layer)."""
    return ImageFont.load_default(size=size)


def label_box_size(style: MarkStyle, frame_height: int, text: str = "W") -> tuple[int, int]:
    """Box ``(width, height)`` for a label of ``text`` (boxes for one- and two-letter labels)."""
    font = style.scaled_font(frame_height)
    left, _top, right, _bottom = font.getbbox(text)
    em = font.getbbox("W")
    height = (em[3] - em[1]) + 2 * style.padding
    width = max(right - left + 2 * style.padding, height)
    return int(width), int(height)


def paint(
    frame: np.ndarray,
    regions: list[Region],
    colours: list[tuple[RGB, ...]],
    labels: list[str],
    boxes: list[tuple[int, int, int, int]],
    style: MarkStyle,
) -> np.ndarray:
    """A copy of ``frame`` (H×W×3 uint8) with every region tinted and outlined and its label
    drawn in its box.
    """
    out = frame[..., :3].astype(np.float32).copy()
    height, width = out.shape[:2]
    taken = np.zeros((height, width), dtype=bool)
    for r in regions:
        taken[r.ys, r.xs] = True
    for region, colour in zip(regions, colours):
        _tint(out, region, colour, style.fill_alpha)
        if style.outline:
            _outline(out, region, colour, taken)
    image = Image.fromarray(np.clip(np.rint(out), 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(image)
    font = style.scaled_font(height)
    for text, colour, box in zip(labels, colours, boxes):
        _label(draw, text, colour, box, font)
    return np.asarray(image)


def resize(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` resized to ``size`` = (width, height) with Lanczos (a no-op at that size)."""
    if (image.shape[1], image.shape[0]) == tuple(size):
        return image
    return np.asarray(Image.fromarray(image[..., :3]).resize(size, Image.Resampling.LANCZOS))


def text_colour(background: RGB) -> RGB:
    """Black or white, whichever contrasts more with ``background`` (WCAG luminance)."""
    return (0, 0, 0) if _luminance(background) > 0.179 else (255, 255, 255)


def _band_colour(colours: tuple[RGB, ...], y: np.ndarray, top: int, span: int) -> np.ndarray:
    """Per-pixel colour for stripes: ``colours`` repeat down ``_STRIPES`` bands."""
    palette = np.array(colours, dtype=np.float32)
    band = np.clip((y - top) * _STRIPES // max(span, 1), 0, _STRIPES - 1)
    return palette[band % len(colours)]


def _tint(out: np.ndarray, region: Region, colour: tuple[RGB, ...], alpha: float) -> None:
    _, top, _, bottom = region.bbox
    paint_colour = _band_colour(colour, region.ys, top, bottom - top)
    pixels = out[region.ys, region.xs]
    out[region.ys, region.xs] = (1 - alpha) * pixels + alpha * paint_colour


def _outline(out: np.ndarray, region: Region, colour: tuple[RGB, ...], taken: np.ndarray) -> None:
    """A one-pixel ring just outside the region, skipping pixels of any element."""
    crop, left, top = region.bitmap()
    padded = np.pad(crop, 1, constant_values=False)
    grown = padded.copy()
    grown[1:, :] |= padded[:-1, :]
    grown[:-1, :] |= padded[1:, :]
    grown[:, 1:] |= padded[:, :-1]
    grown[:, :-1] |= padded[:, 1:]
    ring_y, ring_x = np.nonzero(grown & ~padded)
    ys = ring_y + top - 1
    xs = ring_x + left - 1
    height, width = out.shape[:2]
    inside = (ys >= 0) & (ys < height) & (xs >= 0) & (xs < width)
    ys, xs = ys[inside], xs[inside]
    free = ~taken[ys, xs]
    ys, xs = ys[free], xs[free]
    _, r_top, _, r_bottom = region.bbox
    out[ys, xs] = _band_colour(colour, ys, r_top, r_bottom - r_top)


def _label(
    draw: ImageDraw.ImageDraw,
    text: str,
    colour: tuple[RGB, ...],
    box: tuple[int, int, int, int],
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
) -> None:
    left, top, right, bottom = box
    if len(colour) == 1:
        draw.rectangle((left, top, right - 1, bottom - 1), fill=colour[0])
    else:
        band = max((bottom - top) / _STRIPES, 1)
        for i in range(_STRIPES):
            y0 = top + round(i * band)
            y1 = top + round((i + 1) * band) - 1
            draw.rectangle((left, y0, right - 1, y1), fill=colour[i % len(colour)])
    ink = text_colour(colour[0])
    stroke = (255, 255, 255) if ink == (0, 0, 0) else (0, 0, 0)
    centre = ((left + right) / 2, (top + bottom) / 2)
    # A contrasting stroke keeps the letter readable across stripes of different colours.
    stroke_width = 1 if len(colour) > 1 else 0
    draw.text(
        centre, text, fill=ink, font=font, anchor="mm", stroke_width=stroke_width,
        stroke_fill=stroke,
    )  # fmt: skip


def _luminance(rgb: RGB) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
