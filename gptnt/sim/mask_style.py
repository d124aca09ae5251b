"""Segmentation masks as the real game can send them (``gptnt sim serve --mask-style game``).

The simulator's own masks are flat: one exact colour per element on black. The mod's masks
are not always (docs/protocol.md §3.4: "edges are still blended with black, so the mask has
extra darker shades of each colour"), and where two elements touch their shared edge blends
both colours; rounding also leaves patches of a neighbouring value (127 next to 128). A mask
in the ``game`` style has all of that, so the set-of-marks path that real masks take runs
against the simulator too:

- every element grows by ``GROW`` pixels into the background, so neighbours that close
  touch (shared edges, split halfway), as keys and buttons can in the real frames;
- the mask is filtered with a 2×2 box (a half-pixel shift): each edge pixel blends with black
  or, on a shared edge, with the neighbour's colour;
- inside each element a patch of 30–60 px is one level off in one channel.

Deterministic: the same ids give the same mask. Hit-testing still uses the flat ids, so a
click on the grown rim of an element can miss it, as a click on an anti-aliased rim can.
"""

from __future__ import annotations

from typing import Literal, get_args

import numpy as np

from gptnt.sim.render.compositor import hsv_palette

MaskStyle = Literal["flat", "game"]
MASK_STYLES: tuple[MaskStyle, ...] = get_args(MaskStyle)

GROW = 4  # pixels each element grows into the background
_PATCH = (30, 60)  # pixels of an element's rounding variant
_MIN_FOR_PATCH = 200  # elements smaller than this get no patch (it would swamp them)


def game_mask(ids: np.ndarray, count: int) -> np.ndarray:
    """The ``game``-style RGB mask of the hit canvas ``ids`` (0 = nothing, k = element k)."""
    grown = _grow(ids)
    colours = hsv_palette(count).astype(np.float32)[grown]
    padded = np.pad(colours, ((0, 1), (0, 1), (0, 0)))
    blended = (padded[:-1, :-1] + padded[1:, :-1] + padded[:-1, 1:] + padded[1:, 1:]) / 4.0
    mask = np.rint(blended).astype(np.uint8)
    for k in range(1, count + 1):
        _rounding_patch(mask, ids == k, k)
    return mask


def _grow(ids: np.ndarray) -> np.ndarray:
    """Each element ``GROW`` pixels wider into the background, one pixel per pass (where two
    grow into the same pixel, the first neighbour found wins)."""
    grown = ids.copy()
    for _ in range(GROW):
        padded = np.pad(grown, 1)
        before = grown.copy()
        for neighbour in (padded[:-2, 1:-1], padded[2:, 1:-1], padded[1:-1, :-2], padded[1:-1, 2:]):
            empty = (grown == 0) & (neighbour != 0) & (before == 0)
            grown[empty] = neighbour[empty]
    return grown


def _rounding_patch(mask: np.ndarray, member: np.ndarray, k: int) -> None:
    """A 30–60 px run of ``member``'s deepest rows one level off (deterministic in ``k``)."""
    ys, xs = np.nonzero(member)
    if ys.size < _MIN_FOR_PATCH:
        return
    size = _PATCH[0] + (k * 7) % (_PATCH[1] - _PATCH[0] + 1)
    order = np.argsort(np.abs(ys - np.median(ys)) + np.abs(xs - np.median(xs)), kind="stable")
    pick = order[:size]
    pixels = mask[ys[pick], xs[pick]].astype(np.int16)
    middle = (pixels > 0) & (pixels < 255)
    pixels[middle] -= 1  # 128 → 127
    pure = np.flatnonzero(~middle.any(axis=1))
    pixels[pure, np.argmin(pixels[pure], axis=1)] += 1  # a stray level in a zero channel
    mask[ys[pick], xs[pick]] = np.clip(pixels, 0, 255).astype(np.uint8)
