"""Regions from a segmentation mask: one region per flat colour, a click point inside each.

The game paints every interactable element in its own flat, fully saturated colour on black
(mod-protocol.md §3.4), but edges are blended with black, so a wire's border pixels are darker
shades of its colour. Stretching each pixel's RGB to span 0–255 undoes a blend with black (the
channel ratios survive), so every shade collapses back onto the flat colour. Rounding can still
leave a few off-by-a-little colours; those are folded into the nearest real colour or dropped.

A region is a colour, not a connected component: the mod gives one element one colour even when
its pixels are split (a wire passing behind a bracket).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from gptnt.errors import FrameBufferError

RGB = tuple[int, int, int]

MIN_AREA = 10
"""Regions of this many pixels or fewer are noise (GPTNT's threshold, players.md §4.1)."""

_FAINT = 24
"""A pixel whose brightest channel is below this is too dark for its hue to be trusted."""

_FOLD_DISTANCE = 12
"""A stray colour within this many levels (per channel) of a real one is folded into it."""


@dataclass(frozen=True, eq=False)
class Region:
    """The pixels of one element, in native mask coordinates (x right, y down)."""

    colour: RGB
    """The element's flat segmentation colour (after normalisation)."""
    ys: np.ndarray = field(repr=False)
    xs: np.ndarray = field(repr=False)

    @cached_property
    def bbox(self) -> tuple[int, int, int, int]:
        """``(left, top, right, bottom)``, right and bottom exclusive."""
        return (
            int(self.xs.min()),
            int(self.ys.min()),
            int(self.xs.max()) + 1,
            int(self.ys.max()) + 1,
        )

    @cached_property
    def centroid(self) -> tuple[float, float]:
        """Mean pixel ``(x, y)``; may lie outside a thin or curved element (use ``click``)."""
        return float(self.xs.mean()), float(self.ys.mean())

    @cached_property
    def click(self) -> tuple[int, int]:
        """A pixel ``(x, y)`` that is part of the region, as deep inside it as possible."""
        return _inner_point(self)

    def contains(self, x: int, y: int) -> bool:
        return bool(np.any((self.xs == x) & (self.ys == y)))

    def bitmap(self) -> tuple[np.ndarray, int, int]:
        """The region as a boolean crop of its bbox, plus the crop's ``(left, top)``."""
        left, top, right, bottom = self.bbox
        crop = np.zeros((bottom - top, right - left), dtype=bool)
        crop[self.ys - top, self.xs - left] = True
        return crop, left, top


def normalise_mask(mask: np.ndarray) -> np.ndarray:
    """Stretch every pixel's RGB to span 0–255 so shades blended with black regain the flat
    colour; faint pixels become black. Grey pixels (no hue) become white.
    """
    rgb = _as_rgb(mask)
    return _stretch(rgb.reshape(-1, 3)).reshape(rgb.shape)


def find_regions(mask: np.ndarray, *, min_area: int = MIN_AREA) -> list[Region]:
    """Every element's region, in no particular order (see ``reading_order``)."""
    rgb = _as_rgb(mask).reshape(-1, 3)
    lit = np.flatnonzero(rgb.max(axis=1) >= _FAINT)  # the mask is mostly black: skip it
    norm = _stretch(rgb[lit]).astype(np.uint32)
    packed = norm[:, 0] << 16 | norm[:, 1] << 8 | norm[:, 2]
    colours, inverse, counts = np.unique(packed, return_inverse=True, return_counts=True)
    keep = counts > min_area
    real = colours[keep]
    if real.size == 0:
        return []
    # Each unique colour is assigned to a real colour (itself, or the nearest within reach).
    target = np.full(colours.size, -1, dtype=np.int64)
    target[np.flatnonzero(keep)] = np.arange(real.size)
    real_rgb = _unpack(real)
    for i in np.flatnonzero(~keep):
        dist = np.abs(real_rgb - _unpack(colours[i : i + 1])).max(axis=1)
        nearest = int(dist.argmin())
        if dist[nearest] <= _FOLD_DISTANCE:
            target[i] = nearest
    owner = target[inverse.ravel()]
    width = mask.shape[1]
    order = np.argsort(owner, kind="stable")
    bounds = np.searchsorted(owner[order], np.arange(real.size + 1))
    regions = []
    for k in range(real.size):
        ys, xs = np.divmod(lit[order[bounds[k] : bounds[k + 1]]], width)
        regions.append(
            Region(
                colour=tuple(int(c) for c in real_rgb[k]),  # type: ignore[arg-type]
                ys=ys.astype(np.int32),
                xs=xs.astype(np.int32),
            )
        )
    return regions


def _stretch(pixels: np.ndarray) -> np.ndarray:
    """Min–max stretch of N×3 pixels to 0–255; faint ones to 0, hueless ones to 255."""
    px = pixels.astype(np.float32)
    hi = px.max(axis=1, keepdims=True)
    lo = px.min(axis=1, keepdims=True)
    span = hi - lo
    out = np.where(span > 0, (px - lo) / np.maximum(span, 1) * 255.0, 255.0)
    out[hi[:, 0] < _FAINT] = 0.0
    return np.rint(out).astype(np.uint8)


def depth_map(crop: np.ndarray) -> np.ndarray:
    """How many 4-neighbour erosions each pixel of a boolean crop survives (0 = on the edge).

    A cheap distance transform: the deepest pixels of a blob are its middle, and those of a thin
    wire are its centre line.
    """
    depth = np.zeros(crop.shape, dtype=np.int32)
    current = crop.copy()
    level = 0
    while current.any():
        padded = np.pad(current, 1, constant_values=False)
        inner = (
            padded[1:-1, 1:-1]
            & padded[:-2, 1:-1]
            & padded[2:, 1:-1]
            & padded[1:-1, :-2]
            & padded[1:-1, 2:]
        )
        depth[inner] = level + 1
        current = inner
        level += 1
    return depth


def _inner_point(region: Region) -> tuple[int, int]:
    """The deepest region pixel, ties broken by closeness to the centroid: always on the mask,
    on the centre line of a thin wire, near the middle of a button.
    """
    crop, left, top = region.bitmap()
    depth = depth_map(crop)
    local_ys = region.ys - top
    local_xs = region.xs - left
    d = depth[local_ys, local_xs]
    deepest = d == d.max()
    cx, cy = region.centroid
    dist = (region.xs[deepest] - cx) ** 2 + (region.ys[deepest] - cy) ** 2
    pick = int(np.argmin(dist))
    return int(region.xs[deepest][pick]), int(region.ys[deepest][pick])


def _as_rgb(image: np.ndarray) -> np.ndarray:
    if image.ndim != 3 or image.shape[2] not in (3, 4):
        raise FrameBufferError(
            f"segmentation mask has shape {image.shape}; expected H×W×3 (RGB) or H×W×4 (RGBA)"
        )
    return image[..., :3]


def _unpack(packed: np.ndarray) -> np.ndarray:
    return np.stack([(packed >> 16) & 255, (packed >> 8) & 255, packed & 255], axis=1).astype(
        np.int32
    )
