"""What the manual says, as data, and the oracle that applies it: the Expert's knowledge.

``Ruleset`` holds every table of one manual (``V1`` is the v1 manual, rule seed 1;
``Ruleset.from_seed`` and ``ruleset`` derive any other seed's tables, ``gptnt.rules.ruleseed``); ``Edgework`` answers the edgework questions the rules ask; the oracle
(``solve``, ``elements``, ``mistakes``) dispatches a described module to its rule file in
``gptnt.rules.modules``. Players and the manual builder may import this package; it never
imports the simulator.

Names are resolved on first access, so importing one rule file (``gptnt.rules.modules.wires``)
does not load all eleven through ``Ruleset``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gptnt.rules._edgework import Edgework, Indicator
    from gptnt.rules._steps import Hold, Press, Release, Step, Timing
    from gptnt.rules.oracle import elements, mistakes, solve
    from gptnt.rules.ruleset import V1, Ruleset, ruleset

__all__ = [
    "V1",
    "Edgework",
    "Hold",
    "Indicator",
    "Press",
    "Release",
    "Ruleset",
    "Step",
    "Timing",
    "elements",
    "mistakes",
    "ruleset",
    "solve",
]

_HOME = {
    "V1": "gptnt.rules.ruleset",
    "Ruleset": "gptnt.rules.ruleset",
    "ruleset": "gptnt.rules.ruleset",
    "Edgework": "gptnt.rules._edgework",
    "Indicator": "gptnt.rules._edgework",
    "Hold": "gptnt.rules._steps",
    "Press": "gptnt.rules._steps",
    "Release": "gptnt.rules._steps",
    "Step": "gptnt.rules._steps",
    "Timing": "gptnt.rules._steps",
    "elements": "gptnt.rules.oracle",
    "mistakes": "gptnt.rules.oracle",
    "solve": "gptnt.rules.oracle",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'gptnt.rules' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
