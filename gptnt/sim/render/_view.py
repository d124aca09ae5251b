"""The picture of one module, as every module drawer returns it.

A drawer paints the module's face on a square canvas of ``MODULE_SIZE`` pixels and, on an
``ids`` canvas of the same size, paints each interactable element with its index + 1 (0 = not
interactable). The compositor scales both with the same geometry, so the segmentation mask and
the hit-testing of clicks are the same pixels by construction.

The status LED (top-right, ``LED_CENTER``/``LED_RADIUS``) is drawn by the compositor; drawers
leave that corner free.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from PIL import Image

MODULE_SIZE = 512
LED_CENTER = (452, 60)
LED_RADIUS = 28


@dataclass(frozen=True)
class ModuleView:
    image: Image.Image  # RGB, MODULE_SIZE × MODULE_SIZE
    ids: np.ndarray  # uint8 (MODULE_SIZE, MODULE_SIZE): 0 = nothing, i + 1 = elements()[i]


class ModuleDrawer(Protocol):
    """What each file in ``gptnt.sim.render.modules`` provides for its module kind."""

    def look(self, engine: object, t: float) -> Hashable:
        """Everything the picture depends on at game time ``t`` (the cache key)."""
        ...

    def draw(self, engine: object, t: float) -> ModuleView:
        """The module's face at game time ``t``."""
        ...
