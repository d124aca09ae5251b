"""Async on the virtual clock over a real Redis: the same scripted pair and latency model give
the same outcome and the same timeline, run after run; game time is the latency model's, not
the wall clock's; messages reach the partner at their sender's dispatch."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from standin_players import Latency, Standin, player_yaml, start_standin

from gptnt.config import GameConfig
from gptnt.errors import ConfigError
from gptnt.missions import get_mission
from gptnt.records import GameStep, Ledger, TurnEvent, read_events
from gptnt.services.manager import (
    Episode,
    EpisodeSettings,
    EpisodeSpec,
    Fork,
    play_episode,
    replay_episode,
)

FAST = EpisodeSettings(
    launch="task", idle_sleep_s=0.5, turn_timeout_s=30, game=GameConfig(startup_timeout_s=30)
)


def _timeline(run_dir: Path, key: str) -> list[tuple[object, ...]]:
    """Everything of an episode that the clock orders: each turn's role, number, start and
    dispatch on the game clock, bomb clock, what it received and did, and each step."""
    events = read_events(run_dir / Ledger(run_dir).latest()[key].episode_dir)
    line: list[tuple[object, ...]] = []
    for e in events:
        if isinstance(e, TurnEvent):
            line.append((e.role, e.turn, e.game_time, e.dispatch_game_time, e.seconds_remaining,
                         e.strikes, tuple(e.received), e.action, e.result))  # fmt: skip
        elif isinstance(e, GameStep):
            line.append((e.what, e.game_time, e.seconds_remaining, e.strikes))
    return line


async def test_two_runs_with_a_fixed_latency_have_identical_timelines(
    redis_admin_url: str, tmp_path: Path
) -> None:
    spec = EpisodeSpec.make("Wires-234", "async", clock="virtual", latency="fixed:5")
    runs = []
    for n in range(2):
        summary = await play_episode(
            spec, FAST, admin_url=redis_admin_url, run_dir=tmp_path / f"{n}"
        )
        runs.append((summary, _timeline(tmp_path / f"{n}", spec.key)))
    (first, line), (second, again) = runs
    assert first.outcome == second.outcome == "solved", first.reason
    assert first.game_time_used == second.game_time_used
    assert line == again and len(line) > 10
    assert first.conditions is not None and first.conditions.clock == "virtual"
    assert first.conditions.latency == "fixed:5"
    turns = [t for t in line if t[0] in ("defuser", "expert")]
    # Every turn takes exactly its 5 s, and the next starts after the 0.5 s idle pause.
    for role in ("defuser", "expert"):
        mine = [t for t in turns if t[0] == role]
        assert all(t[3] == pytest.approx(t[2] + 5.0) for t in mine)  # type: ignore[operator]
        assert all(b[2] == pytest.approx(a[3] + 0.5) for a, b in itertools.pairwise(mine))  # type: ignore[operator]
    # The Defuser observes the bomb at its turn's start: the clock shows exactly that time.
    limit = first.time_limit
    assert all(t[4] == pytest.approx(limit - t[2]) for t in turns if t[0] == "defuser")  # type: ignore[operator]
    # The game time used is the latency model's (many 5.5 s turns), not the few wall seconds.
    assert first.game_time_used is not None
    assert first.game_time_used >= 5.5 * (first.turns["defuser"] - 1)


async def test_a_message_reaches_the_partner_at_its_senders_dispatch(
    redis_admin_url: str, tmp_path: Path
) -> None:
    spec = EpisodeSpec.make("Keypad-561", "async", clock="virtual", latency="fixed:2")
    summary = await play_episode(spec, FAST, admin_url=redis_admin_url, run_dir=tmp_path)
    assert summary.outcome == "solved", summary.reason
    turns = [e for e in read_events(tmp_path / Ledger(tmp_path).latest()[spec.key].episode_dir)
             if isinstance(e, TurnEvent)]  # fmt: skip
    sent = {(t.role, t.action.message): t.dispatch_game_time for t in turns
            if t.action.kind == "send_message"}  # fmt: skip
    assert sent
    for turn in turns:
        for text in turn.received:
            partner = "expert" if turn.role == "defuser" else "defuser"
            delivered = sent[(partner, text)]
            assert delivered is not None and turn.game_time is not None
            assert delivered <= turn.game_time  # never read before it was sent


async def test_the_wall_limit_of_a_virtual_clock_episode_counts_its_turns(
    redis_admin_url: str, tmp_path: Path
) -> None:
    """The game is paused on the virtual clock, so a game lasts as many turns as the latency
    model allows, however long each takes in wall time: the wall limit must cover every turn
    at its deadline (the wall-clock async limit, the clock's run, cut such a game)."""
    spec = EpisodeSpec.make("Wires-234", "async", clock="virtual", latency="fixed:5")
    episode = Episode(spec, FAST, admin_url=redis_admin_url, run_dir=tmp_path)
    summary = await episode.run()
    assert summary.outcome == "solved", summary.reason
    budget = episode.budget
    assert budget.rounds is not None and budget.game_over_s is None
    limit = get_mission("Wires-234").config.time_limit
    assert budget.rounds >= limit / (5.0 + FAST.idle_sleep_s)  # each turn moves 5.5 s
    every_turn = budget.rounds * sum(t.turn_s for t in budget.turns)
    assert budget.episode_s > every_turn > limit


def test_the_virtual_clock_needs_async_and_a_latency_model() -> None:
    with pytest.raises(ValueError, match="mode async"):
        EpisodeSpec.make("3", "sync", clock="virtual", latency="fixed:5")
    with pytest.raises(ValueError, match="needs clock virtual"):
        EpisodeSpec.make("3", "async", latency="fixed:5")
    with pytest.raises(ConfigError, match="fixed:SECONDS"):
        EpisodeSpec.make("3", "async", clock="virtual", latency="fixed:-1")


async def test_model_players_on_the_tokens_model_replay_their_timeline(
    offline: None, redis_admin_url: str, tmp_path: Path
) -> None:
    """Two model players (the loopback stand-in, 40 output tokens a call) on the ``tokens``
    model: each turn takes first_token_s + 40 × seconds_per_token of game time, whatever the
    wall latency; two runs have the same timeline; a replay restores the first turns without
    a call and keeps their times."""
    speeds = {"first_token_s": 2.0, "seconds_per_token": 0.05}  # 4 s a turn
    settings = FAST.model_copy(update={"turn_timeout_s": 60})  # a model call's budget
    runs = []
    for n in range(2):
        standin = Standin(Latency(median_s=0.01, min_s=0.005, max_s=0.05), seed=7)
        async for running in start_standin(standin):
            defuser = str(player_yaml(tmp_path / f"d{n}.yaml", running, "defuser", **speeds))
            expert = str(player_yaml(tmp_path / f"e{n}.yaml", running, "expert", **speeds))
            spec = EpisodeSpec.make(
                "Wires-234", "async", defuser, expert, clock="virtual", latency="tokens"
            )
            summary = await play_episode(
                spec, settings, admin_url=redis_admin_url, run_dir=tmp_path / f"{n}"
            )
            assert summary.outcome in ("solved", "strikeout", "timeout"), summary.reason
            runs.append(_timeline(tmp_path / f"{n}", spec.key))
            if n == 1:
                parent = tmp_path / "1" / Ledger(tmp_path / "1").latest()[spec.key].episode_dir
                calls = standin.calls
                fork = Fork(parent=parent, turn=6)
                branch = await replay_episode(
                    fork, settings, admin_url=redis_admin_url, run_dir=tmp_path / "1"
                )
                assert branch.outcome in ("solved", "strikeout", "timeout"), branch.reason
                replayed = [e for e in read_events(tmp_path / "1" / "episodes" / branch.episode_id)
                            if isinstance(e, TurnEvent)]  # fmt: skip
                assert standin.calls - calls == len(replayed) - 6  # restored turns: no call
    first, second = runs
    assert first == second and len(first) > 6
    turns = [t for t in first if t[0] in ("defuser", "expert")]
    assert all(t[3] == pytest.approx(t[2] + 4.0) for t in turns)  # type: ignore[operator]
    assert [_fields(t) for t in replayed[:6]] == [t[:6] for t in turns[:6]]


def _fields(t: TurnEvent) -> tuple[object, ...]:
    return (t.role, t.turn, t.game_time, t.dispatch_game_time, t.seconds_remaining, t.strikes)
