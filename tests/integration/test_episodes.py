"""Whole episodes over a real Redis: the scripted oracle pair defuses real simulator bombs in
both modes, records are complete and consistent, and parallel games stay apart."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from gptnt.config import GameConfig
from gptnt.records import Ledger, frame_path, read_events, read_summary
from gptnt.services.bus import connect
from gptnt.services.manager import EpisodeSettings, EpisodeSpec, play_episode

FAST = EpisodeSettings(
    launch="task", idle_sleep_s=0.05, turn_timeout_s=30, game=GameConfig(startup_timeout_s=30)
)


async def _play(spec: EpisodeSpec, url: str, run_dir: Path, settings: EpisodeSettings = FAST):
    return await play_episode(spec, settings, admin_url=url, run_dir=run_dir)


@pytest.mark.parametrize(
    ("mission", "mode"),
    [
        ("3", "sync"),
        ("Wires-234", "async"),
        ("BigButton-286", "sync"),
        ("Memory-337", "sync"),
        ("Keypad-561", "async"),
    ],
)
async def test_oracle_pair_defuses(
    mission: str, mode: str, redis_admin_url: str, tmp_path: Path
) -> None:
    summary = await _play(EpisodeSpec.make(mission, mode), redis_admin_url, tmp_path)
    assert summary.outcome == "solved", summary.reason
    assert summary.modules and all(m.solved for m in summary.modules)
    # They really talked: the Defuser described, the Expert instructed.
    assert summary.messages["defuser"] >= 1 and summary.messages["expert"] >= 1
    assert {p.label for p in summary.players} == {
        "oracle (privileged, scripted)",
        "oracle (scripted)",
    }


async def test_records_are_complete_and_consistent(redis_admin_url: str, tmp_path: Path) -> None:
    spec = EpisodeSpec.make("Wires-286", "sync")
    summary = await _play(spec, redis_admin_url, tmp_path)
    entry = Ledger(tmp_path).latest()[spec.key]
    assert entry.status == "finished" and entry.outcome == summary.outcome == "solved"
    ep = tmp_path / entry.episode_dir
    assert read_summary(ep) == summary
    events = list(read_events(ep))
    assert events[0].kind == "episode_started" and events[-1].kind == "episode_ended"
    turns = [e for e in events if e.kind == "turn"]
    assert sum(1 for t in turns if t.role == "defuser") == summary.turns["defuser"]
    assert sum(1 for t in turns if t.role == "expert") == summary.turns["expert"]
    for turn in turns:
        if turn.role == "defuser":
            assert turn.frames and turn.mask
            for digest in [*turn.frames, turn.mask]:
                assert frame_path(ep, digest).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        else:
            assert not turn.frames  # the Expert never sees the bomb
    # What the Expert received is exactly what the Defuser sent, in order, once.
    sent = [
        t.action.message for t in turns if t.role == "defuser" and t.action.kind == "send_message"
    ]
    received = [m for t in turns if t.role == "expert" for m in t.received]
    assert received == sent


async def test_game_keys_and_users_are_removed_after_the_episode(
    redis_admin_url: str, tmp_path: Path
) -> None:
    await _play(EpisodeSpec.make("Wires-337", "sync"), redis_admin_url, tmp_path)
    admin = connect(redis_admin_url)
    try:
        assert [k async for k in admin.scan_iter(match="gptnt:*")] == []  # nothing of a game
        users = await admin.execute_command("ACL", "USERS")
        assert [u for u in users if u.startswith("gptnt-")] == []
    finally:
        await admin.aclose()


async def test_four_games_in_parallel_stay_apart(redis_admin_url: str, tmp_path: Path) -> None:
    missions = ["Wires-561", "Keypad-286", "Memory-234", "WhosOnFirst-337"]
    specs = [EpisodeSpec.make(m, "sync") for m in missions]
    summaries = await asyncio.gather(*(_play(s, redis_admin_url, tmp_path) for s in specs))
    latest = Ledger(tmp_path).latest()
    for spec, summary in zip(specs, summaries):
        assert summary.outcome == "solved", (spec.key, summary.reason)
        kind = spec.mission_id.split("-")[0]
        assert [m.name for m in summary.modules] == [kind]
        events = list(read_events(tmp_path / latest[spec.key].episode_dir))
        # Every description the Expert received is of this episode's one module.
        for event in events:
            if event.kind == "turn" and event.role == "expert":
                for message in event.received:
                    described = json.loads(message.splitlines()[-1].split(" ", 1)[1])
                    assert described["module"]["name"] == kind


async def test_random_defuser_and_idle_expert_play_to_an_outcome(
    redis_admin_url: str, tmp_path: Path
) -> None:
    spec = EpisodeSpec.make("Wires-234", "sync", "random", "idle", seed=3)
    summary = await _play(spec, redis_admin_url, tmp_path)
    assert summary.outcome in ("solved", "strikeout", "timeout")
    assert summary.messages == {"defuser": 0, "expert": 0}
    labels = {p.role: p.label for p in summary.players}
    assert labels == {"defuser": "random (scripted)", "expert": "idle (scripted)"}
