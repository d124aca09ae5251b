"""The embedded game: a Python re-implementation of vanilla KTANE that speaks the mod's protocol.

``Game`` is the in-process twin of the mod's HTTP routes (lifecycle, virtual clock, camera,
actions, frames and masks); ``Bomb`` is the rules-level bomb it wraps (layout, modules, timer,
strikes, outcome), generated deterministically from a ``BombSpec`` and a ``Ruleset``. Module
engines live in ``gptnt.sim.modules``, pictures in ``gptnt.sim.render``, the HTTP server in
``gptnt.sim.server``.
"""

from __future__ import annotations

from gptnt.sim.bomb import Bomb, BombSpec
from gptnt.sim.game import FrameSet, Game
from gptnt.sim.modules import engine_for
from gptnt.sim.render.modules import drawer_for

__all__ = ["Bomb", "BombSpec", "FrameSet", "Game", "drawer_for", "engine_for"]
