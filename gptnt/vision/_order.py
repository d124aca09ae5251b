"""Reading order of regions and the letters they get (docs/protocol.md §6.2).

Regions are grouped into rows: sorted by their key point's y, a region joins the first row in
which some member overlaps it vertically by at least half of the smaller of the two heights.
Rows are read top to bottom (by mean key y) and each row left to right (by key x). Wire Sequence
panels are read strictly top to bottom with no row merging, keyed on a point a sixth of the way
along each wire, because its diagonal wires overlap each other vertically.
"""

from __future__ import annotations

import string

import numpy as np

from gptnt.vision._regions import Region

_ROW_OVERLAP = 0.5


def centre_key(region: Region) -> tuple[float, float]:
    """The centroid: the usual key point."""
    return region.centroid


def stepped_key(region: Region) -> tuple[float, float]:
    """A point on a wire a sixth of the way from its left end (column by distinct x values),
    at the median row of the wire in that column.
    """
    columns = np.unique(region.xs)
    x = int(columns[len(columns) // 6])
    return float(x), float(np.median(region.ys[region.xs == x]))


def reading_order(regions: list[Region], *, stepped: bool = False) -> list[Region]:
    """``regions`` in reading order. ``stepped`` selects the Wire Sequence rule."""
    key = stepped_key if stepped else centre_key
    keyed = sorted(((key(r), r) for r in regions), key=lambda item: (item[0][1], item[0][0]))
    if stepped:
        return [r for _, r in keyed]
    rows: list[list[tuple[tuple[float, float], Region]]] = []
    for item in keyed:
        row = next((row for row in rows if any(_same_row(item[1], m) for _, m in row)), None)
        if row is None:
            rows.append([item])
        else:
            row.append(item)
    rows.sort(key=lambda row: float(np.mean([k[1] for k, _ in row])))
    return [r for row in rows for _, r in sorted(row, key=lambda item: item[0][0])]


def letter(index: int) -> str:
    """0 → A, 25 → Z, 26 → AA, 27 → AB, … (spreadsheet column names)."""
    if index < 0:
        raise ValueError(f"mark index must be ≥ 0, got {index}")
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = string.ascii_uppercase[rest] + name
    return name


def _same_row(a: Region, b: Region) -> bool:
    _, a_top, _, a_bottom = a.bbox
    _, b_top, _, b_bottom = b.bbox
    overlap = min(a_bottom, b_bottom) - max(a_top, b_top)
    smaller = min(a_bottom - a_top, b_bottom - b_top)
    return overlap >= _ROW_OVERLAP * smaller
