"""Complicated Wires drawings: the four-set Venn diagram and the same rules as a 4 × 4 grid.

The Venn diagram uses four congruent ellipses; each region's letter goes where the region is
deepest (found by eroding a raster of the region), so every letter sits inside its own region
for any layout of the ellipses.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw

from gptnt.fonts import font
from gptnt.manual._figures import centered
from gptnt.manual._layout import INK, Figure

# ---------------------------------------------------------------------------- complicated wires

_RED = (200, 30, 30)
_BLUE = (30, 70, 200)


def venn_grid(cells: Sequence[tuple[bool, bool, bool, bool, str]]) -> Figure:
    """The sixteen wire kinds as a 4×4 grid (an unfolded Venn diagram): rows say whether the
    wire has red and blue colouring, columns whether it has a star and a lit LED; each cell
    holds the letter of what to do. ``cells``: (red, blue, star, led, letter)."""
    letter = {(r, b, s, led): x for r, b, s, led, x in cells}
    rows = [(False, False), (True, False), (False, True), (True, True)]
    cols = [(False, False), (True, False), (False, True), (True, True)]
    head_w, head_h, cw, ch = 250, 64, 180, 62
    width, height = head_w + cw * 4, head_h + ch * 4

    def row_name(red: bool, blue: bool) -> str:
        return {
            (False, False): "no red, no blue",
            (True, False): "red only",
            (False, True): "blue only",
            (True, True): "red and blue",
        }[(red, blue)]

    def col_name(star: bool, led: bool) -> str:
        return ("star" if star else "no star") + "\n" + ("LED on" if led else "LED off")

    def paint(img: Image.Image, at: tuple[int, int]) -> None:
        draw = ImageDraw.Draw(img)
        x0, y0 = at
        for j, (star, led) in enumerate(cols):
            x = x0 + head_w + j * cw
            draw.rectangle((x, y0, x + cw, y0 + head_h), fill=(235, 235, 235), outline=INK)
            draw.multiline_text(
                (x + cw / 2, y0 + head_h / 2),
                col_name(star, led),
                font=font(20, bold=True),
                fill=INK,
                anchor="mm",
                align="center",
            )
        for i, (red, blue) in enumerate(rows):
            y = y0 + head_h + i * ch
            draw.rectangle((x0, y, x0 + head_w, y + ch), fill=(235, 235, 235), outline=INK)
            # a swatch of the wire's colouring
            sx = x0 + 14
            colours = [c for c, on in ((_RED, red), (_BLUE, blue)) if on] or [(245, 245, 245)]
            for k, colour in enumerate(colours):
                draw.rectangle(
                    (sx, y + 16 + k * 26, sx + 40, y + 34 + k * 26), fill=colour, outline=INK
                )
            draw.text(
                (x0 + 66, y + ch / 2),
                row_name(red, blue),
                font=font(20, bold=True),
                fill=INK,
                anchor="lm",
            )
            for j, (star, led) in enumerate(cols):
                x = x0 + head_w + j * cw
                draw.rectangle((x, y, x + cw, y + ch), outline=INK, width=2)
                centered(
                    draw, (x, y, x + cw, y + ch), letter[(red, blue, star, led)], 46, bold=True
                )

    lines = [" | ".join(["wire"] + [col_name(s, led).replace("\n", ", ") for s, led in cols])]
    for red, blue in rows:
        lines.append(
            " | ".join([row_name(red, blue)] + [letter[(red, blue, s, led)] for s, led in cols])
        )
    return Figure(width, height, paint, "\n".join(lines))


# ---------------------------------------------------------------------------- venn diagram

# Four congruent ellipses (centre x, centre y, tilt in degrees) in a unit square, y downwards:
# a layout in which all sixteen intersections exist with room for a letter (found by a small
# grid search over symmetric placements, maximising the smallest region).
_VENN_ELLIPSES = ((0.38, 0.66, 40.0), (0.47, 0.55, 40.0), (0.53, 0.55, -40.0), (0.62, 0.66, -40.0))
_VENN_AXES = (0.38, 0.20)  # semi-axes as fractions of the square
_VENN_STYLE = (  # (feature index in (red, blue, star, led), colour, label, labelled tip, anchor)
    (0, (200, 30, 30), "Red", 1, "lt"),
    (2, (20, 20, 20), "★ Star", -1, "rb"),
    (3, (200, 140, 0), "LED on", 1, "lb"),
    (1, (30, 70, 200), "Blue", -1, "rt"),
)


def _venn_masks(n: int) -> list[np.ndarray]:
    ys, xs = np.mgrid[0:n, 0:n] / n
    a, b = _VENN_AXES
    masks = []
    for cx, cy, tilt in _VENN_ELLIPSES:
        c, s = math.cos(math.radians(tilt)), math.sin(math.radians(tilt))
        u = (xs - cx) * c + (ys - cy) * s
        v = -(xs - cx) * s + (ys - cy) * c
        masks.append((u / a) ** 2 + (v / b) ** 2 <= 1)
    return masks


def _deepest_point(mask: np.ndarray) -> tuple[int, int]:
    """A pixel of ``mask`` as far as erosion can go from its edge (where a label fits best)."""
    core = mask
    while True:
        shrunk = core.copy()
        shrunk[1:, :] &= core[:-1, :]
        shrunk[:-1, :] &= core[1:, :]
        shrunk[:, 1:] &= core[:, :-1]
        shrunk[:, :-1] &= core[:, 1:]
        shrunk[0, :] = shrunk[-1, :] = shrunk[:, 0] = shrunk[:, -1] = False
        if not shrunk.any():
            break
        core = shrunk
    ys, xs = np.nonzero(core)
    k = int(np.argmin((ys - ys.mean()) ** 2 + (xs - xs.mean()) ** 2))
    return int(ys[k]), int(xs[k])


def venn_letter_spots(n: int = 180) -> dict[tuple[bool, ...], tuple[float, float]]:
    """Where each region's letter goes, in unit-square coordinates, keyed by the features
    (red, blue, star, led) of the wires that fall in the region; ``n``: mask resolution."""
    masks = _venn_masks(n)
    feature_of = [style[0] for style in _VENN_STYLE]
    spots: dict[tuple[bool, ...], tuple[float, float]] = {}
    for inside in itertools.product((False, True), repeat=4):
        region = np.ones((n, n), dtype=bool)
        for mask, flag in zip(masks, inside, strict=True):
            region &= mask if flag else ~mask
        features = [False] * 4
        for flag, feature in zip(inside, feature_of, strict=True):
            features[feature] = flag
        if not any(inside):
            spot = (0.5, 0.21)  # outside every ellipse: above them
        else:
            r, c = _deepest_point(region)
            spot = ((c + 0.5) / n, (r + 0.5) / n)
        spots[tuple(features)] = spot
    return spots


def venn_diagram(cells: Sequence[tuple[bool, bool, bool, bool, str]], text: str) -> Figure:
    """The four-set Venn diagram of Complicated Wires: red, blue, star and LED ellipses, each
    of the sixteen regions holding its letter. ``cells``: (red, blue, star, led, letter)."""
    inner, pad = 600, 100  # px per unit, side margin
    top, bottom = 0.15, 1.0  # the vertical band of the unit square that is drawn
    letter = {tuple(c[:4]): c[4] for c in cells}
    spots = venn_letter_spots()

    def paint(img: Image.Image, at: tuple[int, int]) -> None:
        def place(u: float, v: float) -> tuple[float, float]:
            return at[0] + pad + u * inner, at[1] + (v - top) * inner

        draw = ImageDraw.Draw(img)
        for (cx, cy, tilt), (_, colour, label, tip, anchor) in zip(
            _VENN_ELLIPSES, _VENN_STYLE, strict=True
        ):
            c, s = math.cos(math.radians(tilt)), math.sin(math.radians(tilt))
            a, b = _VENN_AXES
            ring = [
                place(
                    cx + a * math.cos(t) * c - b * math.sin(t) * s,
                    cy + a * math.cos(t) * s + b * math.sin(t) * c,
                )
                for t in (2 * math.pi * k / 180 for k in range(180))
            ]
            draw.line([*ring, ring[0]], fill=colour, width=5)
            end = place(cx + tip * (a + 0.02) * c, cy + tip * (a + 0.02) * s)
            draw.text(end, label, font=font(28, bold=True), fill=colour, anchor=anchor)
        for key, (fx, fy) in spots.items():
            x, y = place(fx, fy)
            centered(draw, (x - 20, y - 20, x + 20, y + 20), letter[key], 34, bold=True)

    return Figure(inner + 2 * pad, round((bottom - top) * inner), paint, text)
