"""Pictures of the simulated bomb: frames and segmentation masks, drawn with Pillow and numpy.

``Compositor`` renders a ``Scene`` (a bomb at a game time, seen from a side, maybe zoomed into a
module) into a ``Picture``: the RGB frame, the ids canvas used for hit-testing, and the mask the
mod would send. The bomb-level layers live in ``faces`` (casing, slots, timer, LEDs) and
``edges`` (the four sides with their widgets); each module kind's zoomed-in look lives in
``gptnt.sim.render.modules.<stem>`` and is found with ``drawer_for``.
"""

from __future__ import annotations

from gptnt.sim.render._view import MODULE_SIZE, ModuleDrawer, ModuleView
from gptnt.sim.render.compositor import Compositor, Picture, Scene

__all__ = ["MODULE_SIZE", "Compositor", "ModuleDrawer", "ModuleView", "Picture", "Scene"]
