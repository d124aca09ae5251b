"""The oracle's vocabulary: what to do to a module, in terms of its named elements.

Element ids are the names a module's interactables have in ``elements(module)`` (see
``gptnt.rules.elements``): e.g. ``wire-3``, ``button``, ``top-left``, ``red``, ``up``. The
simulator's renderer paints exactly these elements, in this order, into the segmentation mask,
so an element id can be turned into a set-of-marks label and a click point.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Press:
    """Click (press and release at once) one element."""

    element: str
    kind: Literal["press"] = "press"


@dataclass(frozen=True)
class Hold:
    """Press an element and keep holding it (The Button)."""

    element: str
    kind: Literal["hold"] = "hold"


@dataclass(frozen=True)
class ReleaseOnDigit:
    """Release the held element when the timer text (``MM:SS`` / ``SS.hh``) shows ``digit``."""

    digit: int
    kind: Literal["release_on_digit"] = "release_on_digit"


Step = Press | Hold | ReleaseOnDigit
