"""Regions from a segmentation mask: one region per element, a click point inside each.

The game paints every interactable element in its own flat, fully saturated colour on black,
HSV(i/N, 1, 1) (docs/protocol.md §3.4), so an element *is* a hue. Real masks are not always
flat, and each departure is handled here:

- **edges blended with black** (a pixel = α × colour): stretching each pixel's RGB to span
  0–255 undoes the blend (the channel ratios survive), so every shade collapses onto its hue;
- **rounding variants** (127 next to 128; patches of 30–60 px): colours are grouped by *hue*,
  most common first, and a colour within ``HUE_TOLERANCE`` of a group's hue joins it, whatever
  its size (the mod's hues are at least 360°/N apart; rounding moves a hue by well under 1°);
- **seams between touching elements** (a 1–2 px line blended from both colours, whose hue lies
  between theirs): a group that is thin (nothing survives two erosions) and lies mostly against
  other lit groups is a seam, not an element; its pixels go to the neighbouring element of the
  nearest hue, or are dropped; the same for small leftovers that match no element;
- **hueless pixels** (grey blends of opposite hues) are never an element of their own.

A region is a hue, not a connected component: the mod gives one element one colour even when
its pixels are split (a wire passing behind a bracket). Click points are the deepest pixel of
a region, so they never lie on a seam or an edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from gptnt.errors import FrameBufferError

RGB = tuple[int, int, int]

MIN_AREA = 10
"""Regions of this many pixels or fewer are noise (GPTNT's threshold)."""

HUE_TOLERANCE = 3.0
"""Degrees: colours whose hues differ by less are one element (rounding and blend-with-black
errors stay under about 1.5°; 60 elements would still be 6° apart)."""

SEAM_CONTACT = 0.5
"""A thin group with at least this share of its pixels touching other lit groups is a seam."""

_FAINT = 24
"""A pixel whose brightest channel is below this is too dark for its hue to be trusted."""

_HUELESS = -1.0


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

    @cached_property
    def depths(self) -> np.ndarray:
        """Each pixel's ``depth_map`` value within the region (aligned with ``ys``, ``xs``)."""
        crop, left, top = self.bitmap()
        return depth_map(crop)[self.ys - top, self.xs - left]

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
    rgb = _as_rgb(mask)
    height, width = rgb.shape[:2]
    flat = rgb.reshape(-1, 3)
    lit = np.flatnonzero(_channel_max(flat) >= _FAINT)  # the mask is mostly black: skip it
    if lit.size == 0:
        return []
    norm = _stretch(flat[lit]).astype(np.uint32)
    packed = norm[:, 0] << 16 | norm[:, 1] << 8 | norm[:, 2]
    colours, inverse, counts = np.unique(packed, return_inverse=True, return_counts=True)
    group_of_colour, centres = _group_by_hue(_unpack(colours), counts, min_area)
    if not centres:
        return []
    labels = np.full(height * width, -1, dtype=np.int32)  # -1 black
    labels[lit] = group_of_colour[inverse.ravel()]  # -2: a colour that matched no element
    labels = labels.reshape(height, width)
    hues = np.array([c[1] for c in centres])
    # Work on the lit part only (zoomed in, most of the mask is black).
    ys, xs = np.divmod(lit, width)
    top, left = max(int(ys.min()) - 1, 0), max(int(xs.min()) - 1, 0)
    crop = _resolve_seams(labels[top : int(ys.max()) + 2, left : int(xs.max()) + 2], hues)
    regions = []
    for k, (colour, _) in enumerate(centres):
        ys, xs = np.nonzero(crop == k)
        ys, xs = ys + top, xs + left
        if ys.size > min_area:
            regions.append(Region(colour=colour, ys=ys.astype(np.int32), xs=xs.astype(np.int32)))
    return regions


def _hue(rgb: np.ndarray) -> np.ndarray:
    """Hue in degrees of N×3 stretched colours; ``_HUELESS`` for greys."""
    r, g, b = (rgb[:, i].astype(np.float64) for i in range(3))
    hi = rgb.max(axis=1).astype(np.float64)
    lo = rgb.min(axis=1).astype(np.float64)
    span = np.maximum(hi - lo, 1.0)
    hue = np.where(
        hi == r,
        ((g - b) / span) % 6.0,
        np.where(hi == g, (b - r) / span + 2.0, (r - g) / span + 4.0),
    )
    return np.where(hi > lo, hue * 60.0, _HUELESS)


def _hue_distance(a: float, b: np.ndarray) -> np.ndarray:
    d = np.abs(b - a) % 360.0
    return np.minimum(d, 360.0 - d)


def _group_by_hue(
    colours: np.ndarray, counts: np.ndarray, min_area: int
) -> tuple[np.ndarray, list[tuple[RGB, float]]]:
    """Each colour's group (-2: none), and each group's (colour, hue): groups are started by
    the most common colours; a colour within ``HUE_TOLERANCE`` of a group joins it."""
    hues = _hue(colours)
    group = np.full(colours.shape[0], -2, dtype=np.int32)
    centres: list[tuple[RGB, float]] = []
    centre_hues = np.empty(0)
    for i in np.argsort(-counts, kind="stable"):
        hue = float(hues[i])
        if hue == _HUELESS:
            continue
        if centre_hues.size:
            near = _hue_distance(hue, centre_hues)
            nearest = int(near.argmin())
            if near[nearest] < HUE_TOLERANCE:
                group[i] = nearest
                continue
        if counts[i] > min_area:
            group[i] = len(centres)
            r, g, b = (int(c) for c in colours[i])
            centres.append(((r, g, b), hue))
            centre_hues = np.append(centre_hues, hue)
    return group, centres


def _resolve_seams(labels: np.ndarray, hues: np.ndarray) -> np.ndarray:
    """Thin groups lying against other groups, and leftovers (-2), handed to the neighbouring
    element of the nearest hue (a few passes, seams are 1–3 px wide); the rest become black."""
    n = hues.size
    seam = np.zeros(n, dtype=bool)
    lit = labels != -1
    contact = np.zeros(labels.shape, dtype=bool)
    for neighbour in _shifts(labels, fill=-1):
        contact |= lit & (neighbour != -1) & (neighbour != labels)
    sizes = np.bincount(labels[labels >= 0], minlength=n)
    touching = np.bincount(labels[contact & (labels >= 0)], minlength=n)
    for k in np.flatnonzero(touching >= SEAM_CONTACT * np.maximum(sizes, 1)):
        seam[k] = _thin(labels == k)
    pending = (labels == -2) | ((labels >= 0) & seam[np.maximum(labels, 0)])
    if not pending.any():
        return labels
    own_hue = np.full(labels.shape, np.nan)
    for k in np.flatnonzero(seam):
        own_hue[labels == k] = hues[k]
    labels = labels.copy()
    labels[pending] = -2
    for _ in range(3):
        if not pending.any():
            break
        best = np.full(labels.shape, -1, dtype=np.int32)
        best_d = np.full(labels.shape, np.inf)
        for neighbour in _shifts(labels, fill=-1):
            ok = pending & (neighbour >= 0)
            if not ok.any():
                continue
            cand_hue = hues[np.maximum(neighbour, 0)]
            with np.errstate(invalid="ignore"):
                d = np.abs(cand_hue - own_hue) % 360.0
                d = np.minimum(d, 360.0 - d)
            d = np.where(np.isnan(d), 180.0, d)  # a leftover: any neighbour will do
            better = ok & (d < best_d)
            best[better] = neighbour[better]
            best_d[better] = d[better]
        taken = pending & (best >= 0)
        labels[taken] = best[taken]
        pending &= ~taken
    labels[pending] = -1
    return labels


def _shifts(labels: np.ndarray, *, fill: int) -> list[np.ndarray]:
    """The 4-neighbour of every pixel (``fill`` beyond the border)."""
    padded = np.pad(labels, 1, constant_values=fill)
    return [padded[:-2, 1:-1], padded[2:, 1:-1], padded[1:-1, :-2], padded[1:-1, 2:]]


def _thin(member: np.ndarray) -> bool:
    """Nothing of the group survives two 4-neighbour erosions (at most about 2 px wide)."""
    ys, xs = np.nonzero(member)
    crop = member[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    for _ in range(2):
        padded = np.pad(crop, 1, constant_values=False)
        crop = (
            padded[1:-1, 1:-1] & padded[:-2, 1:-1] & padded[2:, 1:-1]
            & padded[1:-1, :-2] & padded[1:-1, 2:]
        )  # fmt: skip
        if not crop.any():
            return True
    return False


def _stretch(pixels: np.ndarray) -> np.ndarray:
    """Min–max stretch of N×3 pixels to 0–255; faint ones to 0, hueless ones to 255."""
    px = pixels.astype(np.float32)
    hi = _channel_max(px)[:, None]
    lo = np.minimum(np.minimum(px[:, 0], px[:, 1]), px[:, 2])[:, None]
    span = hi - lo
    out = np.where(span > 0, (px - lo) / np.maximum(span, 1) * 255.0, 255.0)
    out[hi[:, 0] < _FAINT] = 0.0
    return np.rint(out).astype(np.uint8)


def _channel_max(pixels: np.ndarray) -> np.ndarray:
    """Each N×3 pixel's brightest channel (``max(axis=1)``, without numpy's slow reduction
    over an axis of three)."""
    return np.maximum(np.maximum(pixels[:, 0], pixels[:, 1]), pixels[:, 2])


def depth_map(crop: np.ndarray) -> np.ndarray:
    """How many 4-neighbour erosions each pixel of a boolean crop survives (0 = on the edge).

    A cheap distance transform: the deepest pixels of a blob are its middle, and those of a thin
    wire are its centre line.
    """
    depth = np.zeros(crop.shape, dtype=np.int32)
    padded = np.zeros((crop.shape[0] + 2, crop.shape[1] + 2), dtype=bool)
    current = padded[1:-1, 1:-1]  # a view: eroded in place, inside a frame of False
    current[...] = crop
    while current.any():
        inner = (
            current & padded[:-2, 1:-1] & padded[2:, 1:-1] & padded[1:-1, :-2] & padded[1:-1, 2:]
        )
        depth += inner  # erosions only shrink: a pixel's depth is how many it survives
        current[...] = inner
    return depth


def _inner_point(region: Region) -> tuple[int, int]:
    """The deepest region pixel, ties broken by closeness to the centroid: always on the mask,
    on the centre line of a thin wire, near the middle of a button.
    """
    d = region.depths
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
