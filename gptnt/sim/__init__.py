"""The embedded game: a Python re-implementation of vanilla KTANE that speaks the mod's protocol.

``Game`` is the in-process twin of the mod's HTTP routes (lifecycle, virtual clock, camera,
actions, frames and masks); ``Bomb`` is the rules-level bomb it wraps (layout, modules, timer,
strikes, outcome), generated deterministically from a ``BombSpec`` and a ``Ruleset``. Module
engines live in ``gptnt.sim.modules``, pictures in ``gptnt.sim.render``, the HTTP server in
``gptnt.sim.server``.

Names are resolved on first access, so importing one part (say ``gptnt.sim.edgework``) does not
load the renderer.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gptnt.sim.bomb import Bomb, BombSpec
    from gptnt.sim.game import FrameSet, Game
    from gptnt.sim.modules import engine_for
    from gptnt.sim.render.modules import drawer_for

__all__ = ["Bomb", "BombSpec", "FrameSet", "Game", "drawer_for", "engine_for"]

_HOME = {
    "Bomb": "gptnt.sim.bomb",
    "BombSpec": "gptnt.sim.bomb",
    "FrameSet": "gptnt.sim.game",
    "Game": "gptnt.sim.game",
    "engine_for": "gptnt.sim.modules",
    "drawer_for": "gptnt.sim.render.modules",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'gptnt.sim' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
