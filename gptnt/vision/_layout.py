"""Where each label goes, per module kind (paper D.2: same place relative to the module every
time, whatever the number of elements).

A placement takes the regions in reading order and the label box size and returns one box
centre per region, plus the axis along which labels that collide are spread apart. The module-kind
registry names one placement per kind (``PLACEMENTS``, derived from it); ``None`` is the zoomed-out bomb face.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from gptnt.protocol import KINDS, LabelPlacement, ModuleKind
from gptnt.vision._regions import Region

Point = tuple[float, float]
Axis = Literal["x", "y"] | None
_GAP = 4
"""Pixels between an element and its label at native resolution."""


@dataclass(frozen=True)
class Layout:
    """Box centres (native pixels) and the axis along which colliding labels are spread."""

    centres: list[Point]
    spread: Axis


Placement = Callable[[list[Region], tuple[int, int]], Layout]


def corner(regions: list[Region], box: tuple[int, int]) -> Layout:
    """Upper regions: label above the top-left corner; lower ones: below the bottom-left corner
    (the bomb face's two rows of modules, and the big button's cap).
    """
    w, h = box
    mid = _mean_y(regions)
    centres = []
    for r in regions:
        left, top, _, bottom = r.bbox
        if r.centroid[1] <= mid:
            centres.append((left + w / 2, top - _GAP - h / 2))
        else:
            centres.append((left + w / 2, bottom + _GAP + h / 2))
    return Layout(centres, "x")


def left_end(regions: list[Region], box: tuple[int, int]) -> Layout:
    """Left of each wire's left end, at the height the wire has there (Wires: all labels on the
    left, read top to bottom).
    """
    w, _ = box
    centres = []
    for r in regions:
        left = int(r.xs.min())
        y = float(np.median(r.ys[r.xs <= left + 2]))
        centres.append((left - _GAP - w / 2, y))
    return Layout(centres, "y")


def bottom_end(regions: list[Region], box: tuple[int, int]) -> Layout:
    """Below each wire's lower end (Complicated Wires hang vertically)."""
    _, h = box
    centres = []
    for r in regions:
        bottom = int(r.ys.max())
        x = float(np.median(r.xs[r.ys >= bottom - 2]))
        centres.append((x, bottom + 1 + _GAP + h / 2))
    return Layout(centres, "x")


def radial(regions: list[Region], box: tuple[int, int]) -> Layout:
    """Pushed outward from the middle of the group (Simon's diamond, the maze's arrows)."""
    w, h = box
    cx, cy = _group_centre(regions)
    centres = []
    for r in regions:
        left, top, right, bottom = r.bbox
        rx, ry = (left + right) / 2, (top + bottom) / 2
        dx, dy = rx - cx, ry - cy
        norm = max(float(np.hypot(dx, dy)), 1e-6)
        dx, dy = dx / norm, dy / norm
        if len(regions) == 1:
            dx, dy = -1.0, 0.0
        # Distance from the region's box centre to its edge, then to the label's edge.
        reach = min(
            (right - left) / 2 / max(abs(dx), 1e-6), (bottom - top) / 2 / max(abs(dy), 1e-6)
        )
        label_reach = min(w / 2 / max(abs(dx), 1e-6), h / 2 / max(abs(dy), 1e-6))
        step = reach + _GAP + label_reach
        centres.append((rx + dx * step, ry + dy * step))
    return Layout(centres, None)


def sideways(regions: list[Region], box: tuple[int, int]) -> Layout:
    """Left column labelled on the left, right column on the right (Keypad, Who's on First)."""
    w, _ = box
    cx, _ = _group_centre(regions)
    centres = []
    for r in regions:
        left, top, right, bottom = r.bbox
        y = (top + bottom) / 2
        if (left + right) / 2 < cx:
            centres.append((left - _GAP - w / 2, y))
        else:
            centres.append((right + _GAP + w / 2, y))
    return Layout(centres, "y")


def above_below(regions: list[Region], box: tuple[int, int]) -> Layout:
    """Upper row labelled above, the rest below (Password's arrows and submit)."""
    _, h = box
    mid = _mean_y(regions)
    centres = []
    for r in regions:
        left, top, right, bottom = r.bbox
        x = (left + right) / 2
        if r.centroid[1] < mid:
            centres.append((x, top - _GAP - h / 2))
        else:
            centres.append((x, bottom + _GAP + h / 2))
    return Layout(centres, "x")


def below(regions: list[Region], box: tuple[int, int]) -> Layout:
    """Under each element (Memory's buttons, Morse's arrows and TX)."""
    _, h = box
    centres = []
    for r in regions:
        left, _, right, bottom = r.bbox
        centres.append(((left + right) / 2, bottom + _GAP + h / 2))
    return Layout(centres, "x")


def sequence(regions: list[Region], box: tuple[int, int]) -> Layout:
    """Wire Sequence: the first region read (up button) above, the last (down button) below,
    the wires between at their left ends.
    """
    if len(regions) < 3:
        return left_end(regions, box)
    _, h = box
    wires = left_end(regions[1:-1], box).centres
    first, last = regions[0].bbox, regions[-1].bbox
    up = ((first[0] + first[2]) / 2, first[1] - _GAP - h / 2)
    down = ((last[0] + last[2]) / 2, last[3] + _GAP + h / 2)
    return Layout([up, *wires, down], "y")


PLACEMENT_BY_NAME: dict[LabelPlacement, Placement] = {
    "corner": corner,
    "left_end": left_end,
    "bottom_end": bottom_end,
    "sequence": sequence,
    "radial": radial,
    "sideways": sideways,
    "below": below,
    "above_below": above_below,
}
"""Each placement the module-kind registry can name."""

PLACEMENTS: dict[ModuleKind | None, Placement] = {
    None: corner,
    **{spec.name: PLACEMENT_BY_NAME[spec.placement] for spec in KINDS},
}
"""Per module kind, from the registry's ``placement``; ``None`` is the zoomed-out face."""


def place(
    kind: ModuleKind | None,
    regions: list[Region],
    box: tuple[int, int],
    frame_size: tuple[int, int],
) -> list[tuple[int, int, int, int]]:
    """Label boxes ``(left, top, right, bottom)`` for ``regions`` (in reading order), spread
    so that they do not overlap along the placement's axis and clamped inside the frame.
    """
    if not regions:
        return []
    layout = PLACEMENTS.get(kind, corner)(regions, box)
    centres = list(layout.centres)
    if layout.spread is not None:
        centres = _spread(centres, layout.spread, box)
    w, h = box
    width, height = frame_size
    boxes = []
    for x, y in centres:
        left = round(min(max(x - w / 2, 0), width - w))
        top = round(min(max(y - h / 2, 0), height - h))
        boxes.append((left, top, left + w, top + h))
    return boxes


def _spread(centres: list[Point], axis: Axis, box: tuple[int, int]) -> list[Point]:
    """Push labels apart along ``axis`` where they would overlap, keeping each lane's mean place.

    Labels are first grouped into lanes (labels level with each other across the axis, e.g.
    Password's upper and lower rows); only labels of one lane can collide.
    """
    along = 1 if axis == "y" else 0
    across = 1 - along
    size = box[along] + 2
    moved = [list(c) for c in centres]
    lanes: list[list[int]] = []
    for i in sorted(range(len(centres)), key=lambda i: centres[i][across]):
        if lanes and centres[i][across] - centres[lanes[-1][0]][across] < box[across]:
            lanes[-1].append(i)
        else:
            lanes.append([i])
    for lane in lanes:
        order = sorted(lane, key=lambda i: centres[i][along])
        for a, b in itertools.pairwise(order):
            if moved[b][along] - moved[a][along] < size:
                moved[b][along] = moved[a][along] + size
        drift = float(np.mean([moved[i][along] - centres[i][along] for i in lane]))
        for i in lane:
            moved[i][along] -= drift
    return [(m[0], m[1]) for m in moved]


def _mean_y(regions: list[Region]) -> float:
    return float(np.mean([r.centroid[1] for r in regions]))


def _group_centre(regions: list[Region]) -> Point:
    boxes = [r.bbox for r in regions]
    return (
        float(np.mean([(b[0] + b[2]) / 2 for b in boxes])),
        float(np.mean([(b[1] + b[3]) / 2 for b in boxes])),
    )
