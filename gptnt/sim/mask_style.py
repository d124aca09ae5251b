"""Segmentation masks as the real game sends them (``gptnt sim serve --mask-style game``).

Measured on the real masks (docs/mechanics-audit.md, "Edge statistics of the real masks"): the
shipped mod renders its mask with no anti-aliasing and point filtering, and 18 of the 20 real
masks in GPTNT's test data (all 13 of the shared fixtures) are flat: one colour per object,
no other value. Of the two that are not, one has its only off-colour pixels on edges that touch
the black background, each a colour scaled towards black (α between 0.25 and 0.75, never a mix
of two objects' colours); the other (an older capture) also mixes neighbours. The ``game`` style
reproduces the first kind of departure, the only one a shipped-build capture shows: every
element pixel that touches the background (4-neighbourhood) is scaled by an α in 0.25–0.75.
Touching elements never blend with each other. Every blended pixel keeps its hue, so GPTNT's
normalisation (min–max stretch per pixel) maps it back to its element's colour and the region
count equals the element count, as on the real masks.

Deterministic: the same ids give the same mask. Hit-testing uses the flat ids.
"""

from __future__ import annotations

from typing import Literal, get_args

import numpy as np

MaskStyle = Literal["flat", "game"]
MASK_STYLES: tuple[MaskStyle, ...] = get_args(MaskStyle)

ALPHA = (0.25, 0.75)  # how dark a background-edge pixel gets, as on the real blended mask


def game_mask(ids: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """The ``game``-style RGB mask of the hit canvas ``ids`` (0 = nothing, k = element k),
    ``colours[k]`` being element k's flat colour."""
    mask = colours[ids]
    edge = _touches_background(ids)
    ys, xs = np.nonzero(edge)
    # A fixed pattern of α per pixel position (no RNG state: the same ids, the same mask).
    phase = ((ys * 7 + xs * 13) % 11) / 10.0
    alpha = ALPHA[0] + (ALPHA[1] - ALPHA[0]) * phase
    flat = mask[ys, xs]
    blended = np.rint(flat * alpha[:, None]).astype(np.uint8)
    # Keep only blends whose hue survives the 8-bit rounding (the real blends all do).
    keep = (_stretch(blended) == _stretch(flat)).all(axis=1)
    mask[ys[keep], xs[keep]] = blended[keep]
    return mask


def _stretch(rgb: np.ndarray) -> np.ndarray:
    """Each colour with its channels stretched to 0…255 (its hue at full saturation and
    value), truncated to 8 bits: the key a set-of-marks reader groups pixels by."""
    values = rgb.astype(np.float32)
    low, high = values.min(axis=1, keepdims=True), values.max(axis=1, keepdims=True)
    span = np.where(high > low, high - low, np.maximum(high, 1.0))
    return np.where(high > 0, (values - low) / span * 255.0, 0.0).astype(np.uint8)


def _touches_background(ids: np.ndarray) -> np.ndarray:
    """Element pixels with a background pixel above, below, left or right (image borders do
    not count as background)."""
    padded = np.pad(ids, 1, mode="edge")
    background = np.zeros(ids.shape, bool)
    for neighbour in (padded[:-2, 1:-1], padded[2:, 1:-1], padded[1:-1, :-2], padded[1:-1, 2:]):
        background |= neighbour == 0
    return (ids != 0) & background
