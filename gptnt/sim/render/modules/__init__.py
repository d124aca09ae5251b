"""Zoomed-in drawers of the module kinds, one file per kind, found by kind through ``drawer_for``.

Each ``gptnt.sim.render.modules.<stem>`` file provides ``look(engine, t)`` and
``draw(engine, t)`` (the ``ModuleDrawer`` protocol of ``gptnt.sim.render._view``). Files are
imported lazily, on first use of their kind.
"""

from __future__ import annotations

import functools
import importlib
from typing import cast

from gptnt.protocol import KINDS_BY_NAME
from gptnt.sim.render._view import ModuleDrawer

__all__ = ["drawer_for"]


@functools.cache
def drawer_for(kind: str) -> ModuleDrawer:
    """The drawer module of a module kind (``Wires``, ``BigButton``, …)."""
    from gptnt.errors import SimulatorError

    spec = KINDS_BY_NAME.get(kind)
    if spec is None:
        raise SimulatorError(
            f"module kind {kind!r} is unknown; use one of {', '.join(KINDS_BY_NAME)}"
        )
    return cast(ModuleDrawer, importlib.import_module(f"gptnt.sim.render.modules.{spec.stem}"))
