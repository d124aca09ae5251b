"""Counterfactual replay over a real Redis: a recorded episode restored to its turn K with the
same scripted players reproduces every recorded turn after K; with a replaced message the branch
diverges at K and names its parent; a virtual-clock episode keeps its timeline; a fork that
cannot be restored fails up front."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gptnt.config import GameConfig
from gptnt.errors import ConfigError
from gptnt.records import Ledger, TurnEvent, read_events
from gptnt.services.manager import EpisodeSettings, EpisodeSpec, Fork, play_episode, replay_episode

FAST = EpisodeSettings(
    launch="task", idle_sleep_s=0.5, turn_timeout_s=30, game=GameConfig(startup_timeout_s=30)
)
_SAME = ("role", "turn", "received", "raw_output", "action", "result", "seconds_remaining",
         "strikes", "game_time", "dispatch_game_time")  # fmt: skip


def _turns(episode: Path) -> list[TurnEvent]:
    return [e for e in read_events(episode) if isinstance(e, TurnEvent)]


def _fields(turn: TurnEvent) -> tuple[object, ...]:
    return tuple(getattr(turn, name) for name in _SAME)


async def _parent(spec: EpisodeSpec, url: str, run_dir: Path) -> Path:
    summary = await play_episode(spec, FAST, admin_url=url, run_dir=run_dir)
    assert summary.outcome == "solved", summary.reason
    return run_dir / Ledger(run_dir).latest()[spec.key].episode_dir


async def test_a_sync_replay_from_turn_k_reproduces_every_later_turn(
    redis_admin_url: str, tmp_path: Path
) -> None:
    parent = await _parent(EpisodeSpec.make("Memory-337", "sync"), redis_admin_url, tmp_path)
    recorded = _turns(parent)
    k = len(recorded) // 2
    summary = await replay_episode(
        Fork(parent=parent, turn=k), FAST, admin_url=redis_admin_url, run_dir=tmp_path
    )
    assert summary.outcome == "solved", summary.reason
    assert summary.parent is not None and summary.parent.fork_turn == k
    assert summary.parent.episode_id == parent.name and summary.parent.message is None
    replayed = _turns(tmp_path / "episodes" / summary.episode_id)
    assert [t.restored for t in replayed] == [n < k for n in range(len(replayed))]
    assert [_fields(t) for t in replayed] == [_fields(t) for t in recorded]
    assert (tmp_path / summary.parent.path).resolve() == parent.resolve()


async def test_a_replaced_message_diverges_at_the_fork_and_links_its_parent(
    redis_admin_url: str, tmp_path: Path
) -> None:
    parent = await _parent(EpisodeSpec.make("Wires-286", "sync"), redis_admin_url, tmp_path)
    recorded = _turns(parent)
    k = next(n for n, t in enumerate(recorded) if t.role == "expert" and n > 2)
    text = "Cut the first wire, then tell me what happened."
    fork = Fork(parent=parent, turn=k, message=text)
    summary = await replay_episode(fork, FAST, admin_url=redis_admin_url, run_dir=tmp_path)
    assert summary.outcome in ("solved", "strikeout", "timeout"), summary.reason
    assert summary.parent is not None
    assert (summary.parent.replaced_role, summary.parent.message) == ("expert", text)
    started = next(iter(read_events(tmp_path / "episodes" / summary.episode_id)))
    assert started.kind == "episode_started" and started.parent == summary.parent
    replayed = _turns(tmp_path / "episodes" / summary.episode_id)
    assert [_fields(t) for t in replayed[:k]] == [_fields(t) for t in recorded[:k]]
    assert replayed[k].action.message == text and replayed[k].action != recorded[k].action
    assert text in replayed[k + 1].received  # the Defuser got the replaced message


async def test_a_virtual_clock_replay_keeps_the_parents_timeline(
    redis_admin_url: str, tmp_path: Path
) -> None:
    spec = EpisodeSpec.make("Wires-234", "async", clock="virtual", latency="fixed:3")
    parent = await _parent(spec, redis_admin_url, tmp_path)
    recorded = _turns(parent)
    fork = Fork(parent=parent, turn=len(recorded) // 3)
    summary = await replay_episode(fork, FAST, admin_url=redis_admin_url, run_dir=tmp_path)
    assert summary.conditions is not None and summary.conditions.latency == "fixed:3"
    replayed = _turns(tmp_path / "episodes" / summary.episode_id)
    assert [_fields(t) for t in replayed] == [_fields(t) for t in recorded]
    slower = FAST.model_copy(update={"idle_sleep_s": 2.0})  # another idle pause: another timeline
    with pytest.raises(ConfigError, match=r"timing.idle_sleep_s 2.*0.5"):
        await replay_episode(fork, slower, admin_url=redis_admin_url, run_dir=tmp_path)


async def test_a_fork_that_cannot_be_restored_fails_before_anything_starts(
    redis_admin_url: str, tmp_path: Path
) -> None:
    parent = await _parent(EpisodeSpec.make("Wires-234", "sync"), redis_admin_url, tmp_path)
    many = len(_turns(parent)) + 1
    with pytest.raises(ConfigError, match="--from-turn"):
        await replay_episode(
            Fork(parent=parent, turn=many), FAST, admin_url=redis_admin_url, run_dir=tmp_path
        )
    wall = await _parent(EpisodeSpec.make("Wires-234", "async"), redis_admin_url, tmp_path / "w")
    with pytest.raises(ConfigError, match="wall-clock async"):
        await replay_episode(
            Fork(parent=wall, turn=1), FAST, admin_url=redis_admin_url, run_dir=tmp_path
        )
    assert len(list(Ledger(tmp_path).entries())) == 1  # only the parent: nothing half-written
    damaged = tmp_path / "damaged"
    shutil.copytree(parent, damaged)
    lines = (damaged / "events.jsonl").read_text().splitlines(keepends=True)
    lines[len(lines) // 2] = "{not json\n"  # a turn lost in the middle: it cannot be restored
    (damaged / "events.jsonl").write_text("".join(lines))
    with pytest.raises(ConfigError, match="record is damaged.*line"):
        await replay_episode(
            Fork(parent=damaged, turn=1), FAST, admin_url=redis_admin_url,
            run_dir=tmp_path,
        )  # fmt: skip
    assert len(list(Ledger(tmp_path).entries())) == 1
