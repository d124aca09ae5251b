"""Set-of-marks: letters on the interactable elements of a game frame (paper D.2).

Not a vision model. From the segmentation mask the game renders (one flat colour per element),
build regions, order them as text is read, letter them A, B, C…, place each label where it
always goes for that module kind, colour it where colour matters, and find a click point that
lies on the element. Marks are drawn at the game's resolution and the result is then resized
with Lanczos to the model's image size.

    marks = build_marks(mask, frame, kind="Wires")
    annotated = resize(marks.draw(frame), (448, 448))
    marks.click_point("B")  # -> (0.47, 0.41), or None if B is not on screen
"""

from __future__ import annotations

from gptnt.vision._colours import COLOURINGS
from gptnt.vision._draw import MarkStyle, resize
from gptnt.vision._layout import PLACEMENTS
from gptnt.vision._marks import Mark, SetOfMarks, build_marks
from gptnt.vision._order import letter, reading_order
from gptnt.vision._regions import MIN_AREA, Region, find_regions, normalise_mask

__all__ = [
    "COLOURINGS",
    "MIN_AREA",
    "PLACEMENTS",
    "Mark",
    "MarkStyle",
    "Region",
    "SetOfMarks",
    "build_marks",
    "find_regions",
    "letter",
    "normalise_mask",
    "reading_order",
    "resize",
]
