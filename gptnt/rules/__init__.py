"""What the manual says, as data, and the oracle that applies it: the Expert's knowledge.

``Ruleset`` holds every table of one manual (``V1`` is the v1 manual, rule seed 1;
``Ruleset.from_seed`` and ``ruleset`` derive any other seed's tables, ``gptnt.rules.ruleseed``); ``Edgework`` answers the edgework questions the rules ask; the oracle
(``solve``, ``elements``, ``mistakes``) dispatches a described module to its rule file in
``gptnt.rules.modules``. Players and the manual builder may import this package; it never
imports the simulator.
"""

from __future__ import annotations

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
