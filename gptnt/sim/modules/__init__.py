"""Module engines of the simulator, one file per module kind, found by kind through ``engine_for``.

Each ``gptnt.sim.modules.<stem>`` file (the stem of the kind's registry row) exports ``ENGINE``
(a ``ModuleEngine`` subclass). Files are imported lazily, on first use of their kind, so a bomb only loads the engines it needs.
"""

from __future__ import annotations

import importlib

from gptnt.errors import SimulatorError
from gptnt.protocol import KINDS_BY_NAME
from gptnt.sim.modules._base import ModuleEngine, Slot

__all__ = ["ModuleEngine", "Slot", "engine_for"]


def engine_for(kind: str) -> type[ModuleEngine]:
    """The engine class of a module kind (``Wires``, ``BigButton``, …)."""
    spec = KINDS_BY_NAME.get(kind)
    if spec is None:
        raise SimulatorError(
            f"module kind {kind!r} is unknown; use one of {', '.join(KINDS_BY_NAME)}"
        )
    return importlib.import_module(f"gptnt.sim.modules.{spec.stem}").ENGINE
