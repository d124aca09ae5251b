"""What colour each mark is, per module kind (paper D.2).

Where colour carries meaning (the Button, Simon and the three wire modules), the mark takes
the colour the element is actually rendered in, sampled from the frame under its region, so
"cut the blue wire" and the blue mark agree. Complicated Wires can be two-coloured, so their
marks are striped with every colour found on the wire. Elsewhere the mask's own colour is used:
it is arbitrary, which the prompt says.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gptnt.protocol import KINDS, MarkColouring, ModuleKind
from gptnt.vision._regions import RGB, Region

Colouring = Callable[[list[Region], np.ndarray], list[tuple[RGB, ...]]]

_NEUTRAL: RGB = (200, 200, 200)
"""Wire Sequence's arrow buttons: grey, so they cannot be mistaken for a wire colour."""

_DARK = 40
_HUED = 0.5
"""Rendered colours whose brightest channel reaches ``_DARK`` and whose saturation reaches
``_HUED`` are brightened to full value for the mark."""

_VENN_SHARE = 0.2
"""A colour must cover this share of a wire's recognised pixels to count as one of its colours."""


def mask_colour(regions: list[Region], frame: np.ndarray) -> list[tuple[RGB, ...]]:
    """The segmentation colour (arbitrary; used where colour means nothing)."""
    return [(r.colour,) for r in regions]


def rendered_colour(regions: list[Region], frame: np.ndarray) -> list[tuple[RGB, ...]]:
    """The element's median colour in the frame, sampled away from its anti-aliased border;
    clearly hued colours are brightened (an unlit Simon button is a dark blue, its mark a
    plain blue), dark neutral ones (a black wire) are kept.
    """
    return [(_brighten(_median_colour(r, frame)),) for r in regions]


def venn_colours(regions: list[Region], frame: np.ndarray) -> list[tuple[RGB, ...]]:
    """White, red and blue found on each wire; two colours give a striped mark."""
    out: list[tuple[RGB, ...]] = []
    for r in regions:
        pixels = frame[r.ys, r.xs, :3].astype(np.int32)
        hits = [test(pixels) for _, test in _VENN_TESTS]  # each test once per wire
        enough = _VENN_SHARE * max(int(np.logical_or.reduce(hits).sum()), 1)
        found = [
            colour
            for (colour, _), hit in zip(_VENN_TESTS, hits, strict=True)
            if (n := int(hit.sum())) and n >= enough
        ]
        out.append(tuple(found) if found else (_median_colour(r, frame),))
    return out


def sequence_colours(regions: list[Region], frame: np.ndarray) -> list[tuple[RGB, ...]]:
    """Wire Sequence: wires in their rendered colour; the arrow buttons (first and last in
    reading order) neutral grey.
    """
    colours = rendered_colour(regions, frame)
    if len(regions) >= 3:
        colours[0] = colours[-1] = (_NEUTRAL,)
    return colours


COLOURING_BY_NAME: dict[MarkColouring, Colouring] = {
    "mask": mask_colour,
    "rendered": rendered_colour,
    "venn": venn_colours,
    "sequence": sequence_colours,
}
"""Each colouring the module-kind registry can name."""

COLOURINGS: dict[ModuleKind | None, Colouring] = {
    spec.name: COLOURING_BY_NAME[spec.colouring] for spec in KINDS if spec.colouring != "mask"
}
"""Per module kind, from the registry's ``colouring``. Kinds not listed (and the zoomed-out
face) use ``mask_colour``."""


def colours_for(
    kind: ModuleKind | None, regions: list[Region], frame: np.ndarray
) -> list[tuple[RGB, ...]]:
    return COLOURINGS.get(kind, mask_colour)(regions, frame)


def _median_colour(region: Region, frame: np.ndarray) -> RGB:
    inner = region.depths >= 1
    ys, xs = (region.ys[inner], region.xs[inner]) if inner.sum() >= 3 else (region.ys, region.xs)
    median = np.median(frame[ys, xs, :3].astype(np.float32), axis=0)
    return tuple(round(c) for c in median)


def _brighten(colour: RGB) -> RGB:
    hi, lo = max(colour), min(colour)
    if hi < _DARK or (hi - lo) / hi < _HUED:
        return colour
    r, g, b = colour
    return round(r * 255 / hi), round(g * 255 / hi), round(b * 255 / hi)


def _white(p: np.ndarray) -> np.ndarray:
    return (p.min(axis=1) > 150) & (p.max(axis=1) - p.min(axis=1) < 70)


def _red(p: np.ndarray) -> np.ndarray:
    return (p[:, 0] > 90) & (p[:, 0] > 1.6 * np.maximum(p[:, 1], p[:, 2]))


def _blue(p: np.ndarray) -> np.ndarray:
    return (p[:, 2] > 70) & (p[:, 2] > 1.3 * np.maximum(p[:, 0], p[:, 1]))


_VENN_TESTS: tuple[tuple[RGB, Callable[[np.ndarray], np.ndarray]], ...] = (
    ((240, 240, 240), _white),
    ((220, 30, 30), _red),
    ((40, 80, 230), _blue),
)
