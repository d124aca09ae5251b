"""The Experiment Manager: runs episodes (startup double pause, sync or async play, outcome,
records) and, for suites, takes them from a Redis Stream queue shared by workers.
"""

from __future__ import annotations

from gptnt.services.manager._baseline import (
    BASELINE_SIZE,
    BaselinePlayer,
    baseline_spec,
    play_baseline,
)
from gptnt.services.manager._budget import Budget, TurnBudget, check_turns
from gptnt.services.manager._episode import Episode, Interrupt, play_episode, player_infos
from gptnt.services.manager._faults import ProviderWatch
from gptnt.services.manager._queue import serve
from gptnt.services.manager._replay import branch_spec, replay_episode
from gptnt.services.manager.api import EpisodeSettings, EpisodeSpec, Fork

__all__ = [
    "BASELINE_SIZE",
    "BaselinePlayer",
    "Budget",
    "Episode",
    "EpisodeSettings",
    "EpisodeSpec",
    "Fork",
    "Interrupt",
    "ProviderWatch",
    "TurnBudget",
    "baseline_spec",
    "branch_spec",
    "check_turns",
    "play_baseline",
    "play_episode",
    "player_infos",
    "replay_episode",
    "serve",
]
