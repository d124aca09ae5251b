"""Suites: the paper's experiment grid as data (``missions/suites/``), expanded into episodes
and planned (calls, tokens, cost) before anything runs.

    from gptnt.suites import Selection, expand, load_suite, plan
    episodes = expand(load_suite("cross-play"), Selection(players=["gpt-5-2", "claude-sonnet-4-6"]))
    estimate = plan(episodes).total
"""

from __future__ import annotations

from gptnt.suites._format import Pairings, Suite, load_suite, suite_names, suite_path
from gptnt.suites._grid import Condition, Selection, SuiteEpisode, expand
from gptnt.suites._plan import Estimate, Plan, by_player, group_label, load_assumptions, plan
from gptnt.suites._resolve import check_rule_seeds, resolve_episodes

__all__ = [
    "Condition",
    "Estimate",
    "Pairings",
    "Plan",
    "Selection",
    "Suite",
    "SuiteEpisode",
    "by_player",
    "check_rule_seeds",
    "expand",
    "group_label",
    "load_assumptions",
    "load_suite",
    "plan",
    "resolve_episodes",
    "suite_names",
    "suite_path",
]
