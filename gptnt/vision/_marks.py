"""The set of marks of one observation: which letter names which element, where to click it,
and how to draw it.

Letters are only valid for the observation they were made for: the mapping is rebuilt from
every new mask.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gptnt.errors import FrameBufferError
from gptnt.protocol import ModuleKind
from gptnt.vision._colours import colours_for
from gptnt.vision._draw import MarkStyle, label_box_size, paint
from gptnt.vision._layout import place
from gptnt.vision._order import letter, reading_order
from gptnt.vision._regions import MIN_AREA, RGB, Region, find_regions


@dataclass(frozen=True)
class Mark:
    """One labelled element. Coordinates are native frame pixels."""

    label: str
    region: Region
    click: tuple[int, int]
    """``(x, y)``: a pixel of the element itself (never a centroid off a thin wire)."""
    box: tuple[int, int, int, int]
    """The label's box ``(left, top, right, bottom)``."""
    colours: tuple[RGB, ...]
    """One colour, or two for a striped Complicated Wires mark."""


@dataclass(frozen=True)
class SetOfMarks:
    """All marks of one frame, in reading order (A, B, C, …)."""

    kind: ModuleKind | None
    """The module zoomed into, or ``None`` for the bomb seen from outside."""
    size: tuple[int, int]
    """Native ``(width, height)`` of the frame and mask."""
    marks: tuple[Mark, ...]
    style: MarkStyle = field(default_factory=MarkStyle)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(m.label for m in self.marks)

    def get(self, label: str) -> Mark | None:
        """The mark called ``label`` (case-insensitive), or ``None`` if not on screen."""
        wanted = label.strip().upper()
        return next((m for m in self.marks if m.label == wanted), None)

    def click_point(self, label: str) -> tuple[float, float] | None:
        """Relative ``(x, y)`` in [0, 1] of the click point of ``label``, or ``None``."""
        mark = self.get(label)
        return None if mark is None else relative_click(mark.click, self.size)

    def draw(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` with every mark painted on it, at native resolution."""
        _check_size(frame, self.size, "frame")
        return paint(
            frame,
            [m.region for m in self.marks],
            [m.colours for m in self.marks],
            [m.label for m in self.marks],
            [m.box for m in self.marks],
            self.style,
        )


def build_marks(
    mask: np.ndarray,
    frame: np.ndarray | None,
    kind: ModuleKind | None,
    *,
    style: MarkStyle | None = None,
    min_area: int = MIN_AREA,
) -> SetOfMarks:
    """Marks for the elements in ``mask`` (H×W×3 or ×4 uint8, top-down), coloured from
    ``frame`` (the same moment, same size) with the rules of ``kind``. With no frame (a player
    that reads no pixels: the random baseline) the marks name and locate the elements but
    have no colours: there is nothing to draw them on.
    """
    style = style or MarkStyle()
    height, width = mask.shape[:2]
    labels, regions = lettered_regions(mask, kind, min_area=min_area)
    widest = max(labels, key=len, default="W")
    box = label_box_size(style, height, widest)
    boxes = place(kind, regions, box, (width, height))
    if frame is None:
        colours: list[tuple[RGB, ...]] = [()] * len(regions)
    else:
        _check_size(frame, (width, height), "frame")
        colours = colours_for(kind, regions, frame)
    marks = tuple(
        Mark(label=lab, region=r, click=r.click, box=b, colours=c)
        for lab, r, b, c in zip(labels, regions, boxes, colours)
    )
    return SetOfMarks(kind=kind, size=(width, height), marks=marks, style=style)


def lettered_regions(
    mask: np.ndarray, kind: ModuleKind | None, *, min_area: int = MIN_AREA
) -> tuple[list[str], list[Region]]:
    """The elements of ``mask`` in reading order and their letters (A, B, …): the naming of
    every set of marks."""
    regions = reading_order(find_regions(mask, min_area=min_area), stepped=kind == "WireSequence")
    return [letter(i) for i in range(len(regions))], regions


def relative_click(click: tuple[int, int], size: tuple[int, int]) -> tuple[float, float]:
    """The ``/action`` coordinates in [0, 1] of a click on pixel ``click`` of a ``size`` frame
    (the pixel's centre)."""
    return (click[0] + 0.5) / size[0], (click[1] + 0.5) / size[1]


def _check_size(image: np.ndarray, size: tuple[int, int], what: str) -> None:
    if image.ndim != 3 or (image.shape[1], image.shape[0]) != tuple(size):
        raise FrameBufferError(
            f"{what} has shape {image.shape}, but the segmentation mask is "
            f"{size[0]}×{size[1]}; pass the frame and mask of the same moment"
        )
