"""Pictures of the simulated bomb: frames and segmentation masks, drawn with Pillow and numpy.

``Compositor`` renders a ``Scene`` (a bomb at a game time, seen from a side, maybe zoomed into a
module) into a ``Picture``: the RGB frame, the ids canvas used for hit-testing, and the mask the
mod would send. The bomb-level layers live in ``faces`` (casing, slots, timer, LEDs) and
``edges`` (the four sides with their widgets); each module kind's zoomed-in look lives in
``gptnt.sim.render.modules.<stem>`` and is found with ``drawer_for``.

Names are resolved on first access, so a module drawer importing ``_view`` does not load the
compositor (and, through it, the bomb).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gptnt.sim.render._view import MODULE_SIZE, ModuleDrawer, ModuleView
    from gptnt.sim.render.compositor import Compositor, Picture, Scene

__all__ = ["MODULE_SIZE", "Compositor", "ModuleDrawer", "ModuleView", "Picture", "Scene"]

_HOME = {
    "MODULE_SIZE": "gptnt.sim.render._view",
    "ModuleDrawer": "gptnt.sim.render._view",
    "ModuleView": "gptnt.sim.render._view",
    "Compositor": "gptnt.sim.render.compositor",
    "Picture": "gptnt.sim.render.compositor",
    "Scene": "gptnt.sim.render.compositor",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'gptnt.sim.render' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
