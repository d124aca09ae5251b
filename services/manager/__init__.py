"""The Experiment Manager: runs episodes (startup double pause, sync or async play, outcome,
records). Suites of them play on a Dask distributed cluster: ``gptnt.services.manager.suite``
(``run_suite``) and its game hosts, ``gptnt.services.manager.host`` (``serve``); imported on
their own, so that one episode does not load the engine.
"""

from __future__ import annotations

from gptnt.services.manager._baseline import (
    BASELINE_SIZE,
    BaselinePlayer,
    InProcessEpisode,
    baseline_spec,
    play_baseline,
)
from gptnt.services.manager._branch import Branch
from gptnt.services.manager._budget import Budget, TurnBudget, check_turns
from gptnt.services.manager._episode import Episode, Interrupt, play_episode, player_infos
from gptnt.services.manager._launch import ProcessHandle
from gptnt.services.manager._replay import branch_spec, check_replayable, replay_episode
from gptnt.services.manager._warm import WarmHandle
from gptnt.services.manager.api import EpisodeSettings, EpisodeSpec, Fork

__all__ = [
    "BASELINE_SIZE",
    "BaselinePlayer",
    "Branch",
    "Budget",
    "Episode",
    "EpisodeSettings",
    "EpisodeSpec",
    "Fork",
    "InProcessEpisode",
    "Interrupt",
    "ProcessHandle",
    "TurnBudget",
    "WarmHandle",
    "baseline_spec",
    "branch_spec",
    "check_replayable",
    "check_turns",
    "play_baseline",
    "play_episode",
    "player_infos",
    "replay_episode",
]
