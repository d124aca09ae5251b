"""Counterfactual replay (``gptnt replay``): a recorded episode restored to its turn K and
played on as a new episode linked to its parent (``_branch``: what is restored and checked)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from gptnt.errors import ConfigError
from gptnt.records import Conditions, Ledger, Summary
from gptnt.services.manager._branch import Branch
from gptnt.services.manager._episode import Interrupt, OnTurn, play_episode
from gptnt.services.manager.api import EpisodeSettings, EpisodeSpec, Fork


def branch_spec(
    branch: Branch, run_dir: Path, *, defuser: str | None = None, expert: str | None = None
) -> EpisodeSpec:
    """The branch's episode: the parent's mission, mode, clock, seeds and conditions, its
    players unless replaced, under its own key (parent key, fork turn, a digest of the message)
    and the next free attempt of that key in ``run_dir``."""
    started, conditions = branch.started, branch.started.conditions
    if conditions is None:
        raise ConfigError(f"EPISODE {branch.fork.parent}: a version 1 record has no conditions")
    if conditions.solo and expert is not None:
        raise ConfigError("--expert: the parent is a solo episode; it has no Expert")
    parent_defuser, parent_expert = _players(conditions)
    defuser, expert = defuser or parent_defuser, expert or parent_expert
    if defuser is None or (expert is None and not conditions.solo):
        raise ConfigError(
            f"EPISODE: its record does not say who played (pairing {conditions.pairing!r}); "
            "name both players with --defuser and --expert"
        )
    spec = EpisodeSpec.make(
        started.mission_id, started.mode, defuser, expert or "oracle",  # solo: no Expert plays
        repeat=conditions.repeat, seed=conditions.seed, solo=conditions.solo,
        no_manual=conditions.no_manual, manual=conditions.manual, rule_seed=started.rule_seed,
        time_factor=conditions.time_factor, suite=conditions.suite, clock=conditions.clock,
        latency=conditions.latency,
    )  # fmt: skip
    message = branch.fork.message
    digest = f".m{hashlib.sha256(message.encode()).hexdigest()[:8]}" if message else ""
    key = f"{spec.key}.fork{branch.fork.turn}{digest}"
    attempts = [e.attempt for e in Ledger(run_dir).entries() if e.episode_key == key]
    return spec.model_copy(update={"key": key, "attempt": max(attempts, default=0) + 1})


def check_replayable(branch: Branch, settings: EpisodeSettings) -> None:
    """``ConfigError`` when the settings cannot reproduce the parent: a virtual-clock parent's
    idle pause is part of its timeline."""
    idle = branch.idle_pause()
    if idle is not None and abs(idle - settings.idle_sleep_s) > 5e-4:
        raise ConfigError(
            f"timing.idle_sleep_s {settings.idle_sleep_s:g}: the parent's virtual-clock timeline "
            f"has a {idle:g} s idle pause; set timing.idle_sleep_s to {idle:g} to replay it"
        )


def _players(conditions: Conditions) -> tuple[str | None, str | None]:
    """The players as the parent named them: recorded since schema 4, else read off the
    pairing when it splits unambiguously (a YAML path has slashes of its own)."""
    if conditions.defuser is not None:
        return conditions.defuser, conditions.expert
    if conditions.solo:
        return conditions.pairing.removeprefix("solo:"), None
    defuser, slash, expert = conditions.pairing.partition("/")
    if not slash or "/" in expert:
        return None, None
    return defuser, expert


async def replay_episode(
    fork: Fork,
    settings: EpisodeSettings,
    *,
    admin_url: str,
    run_dir: Path,
    defuser: str | None = None,
    expert: str | None = None,
    on_turn: OnTurn | None = None,
    interrupt: Interrupt | None = None,
) -> Summary:
    """Play ``fork``'s branch into ``run_dir`` (its ledger gets the line) and return its
    summary; a bad fork or player fails with ``ConfigError`` before anything starts."""
    branch = Branch(fork)
    check_replayable(branch, settings)
    spec = branch_spec(branch, run_dir, defuser=defuser, expert=expert)
    spec.lineup()  # an unknown player fails here
    return await play_episode(
        spec, settings, admin_url=admin_url, run_dir=run_dir, on_turn=on_turn,
        interrupt=interrupt, fork=fork,
    )  # fmt: skip
