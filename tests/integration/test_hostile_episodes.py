"""Whole episodes against the hostile stand-in (``scripts/hostile_standin.py``), one per class:
a slow but legal player ends with an outcome of the game in both modes; a ``Retry-After`` is
waited for inside the turn; provider garbage ends ``crashed: provider …`` with its statuses
(exit 3 from ``gptnt run``); a model's bad text is played on; an echoed key is in no record."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from child_server import GPTNT
from standin_players import STANDIN_KEY, Hostile, hostile_yaml

from gptnt.config import GameConfig
from gptnt.missions import Mission
from gptnt.protocol import MissionConfig
from gptnt.records import Summary, TurnEvent, read_events
from gptnt.services.manager import Episode, EpisodeSettings, EpisodeSpec

# Game calls of 1 s: a 15 s Defuser turn leaves its model call 15 − (2 × 5 + 2 × 1) = 3 s.
SETTINGS = EpisodeSettings(launch="task", idle_sleep_s=0.05, game_call_s=1.0,
                           game=GameConfig(width=320, height=240))  # fmt: skip
GAME = ("solved", "strikeout", "timeout")


def _mission(time_limit: int) -> Mission:
    config = MissionConfig(seed=234, time_limit=time_limit, components=["Wires"], is_front=True,
                           needy_time=time_limit, opt_widgets=1)  # fmt: skip
    return Mission(id="Wires-234", kind="single", title="hostile", config=config)


async def _play(
    behaviour: str, mode: str, tmp_path: Path, url: str, *, time_limit: int = 6, **extra: object
) -> tuple[Summary, list[TurnEvent], Episode]:
    async for hostile in Hostile().serve():
        player = hostile_yaml(tmp_path / "p.yaml", hostile, behaviour, turn_timeout_s=15, **extra)
        spec = EpisodeSpec.make("Wires-234", mode, str(player), "idle")
        episode = Episode(spec, SETTINGS, admin_url=url, run_dir=tmp_path,
                          mission=_mission(time_limit))  # fmt: skip
        summary = await episode.run()
    turns = [e for e in read_events(episode.dir) if e.kind == "turn" and e.role == "defuser"]
    return summary, turns, episode


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_a_slow_but_legal_player_ends_with_a_game_outcome(
    mode: str, offline: None, redis_admin_url: str, tmp_path: Path
) -> None:
    """2.5 s answers under a 3 s call budget (as 125 s answers under the default 180 s turn,
    whose call gets 140 s): every answer counts, nothing is cut."""
    summary, turns, episode = await _play("slow~2.5", mode, tmp_path, redis_admin_url)
    assert episode.budget.turn("defuser").call_s == 3.0
    assert summary.outcome in GAME, summary.reason
    assert turns and all(t.failed_call is None and t.latency_s >= 2.5 for t in turns)


async def test_a_retry_after_is_waited_for_within_the_turn(
    offline: None, redis_admin_url: str, tmp_path: Path
) -> None:
    summary, turns, _ = await _play("rate-limited~1", "sync", tmp_path, redis_admin_url,
                                    transport_retries=1)  # fmt: skip
    assert summary.outcome in GAME, summary.reason
    assert turns[0].call_attempts == [429] and turns[0].failed_call is None
    assert turns[0].latency_s >= 1.0


@pytest.mark.parametrize(
    ("behaviour", "mode", "words"),
    [("html", "sync", "(not a completion, not a completion, not a completion)"),
     ("no-choices", "async", "(not a completion, not a completion, not a completion)"),
     ("drop", "sync", "(no answer, no answer, no answer)"),
     ("server-error~502", "async", "(HTTP 502, HTTP 502, HTTP 502)")],
)  # fmt: skip
async def test_provider_garbage_crashes_the_episode_as_the_provider_s(
    behaviour: str, mode: str, words: str, offline: None, redis_admin_url: str, tmp_path: Path
) -> None:
    """These used to reset the consecutive-failure count: the episode played out to timeout."""
    summary, turns, _ = await _play(behaviour, mode, tmp_path, redis_admin_url, time_limit=12)
    assert summary.outcome == "crashed"
    assert summary.reason.startswith("provider failed 3 calls of the defuser in a row " + words)
    assert len(turns) == 3 and all(t.failed_call is not None for t in turns)


@pytest.mark.parametrize("behaviour", ["other-language", "tool-call", "whitespace", "key-echo"])
async def test_a_model_s_bad_text_is_played_on(
    behaviour: str, offline: None, redis_admin_url: str, tmp_path: Path
) -> None:
    summary, turns, episode = await _play(behaviour, "sync", tmp_path, redis_admin_url)
    assert summary.outcome in GAME, summary.reason
    assert turns and all(t.failed_call is None for t in turns)
    assert behaviour == "key-echo" or all(t.errors for t in turns)  # told what was wrong
    for path in episode.dir.rglob("*.json*"):
        assert STANDIN_KEY not in path.read_text()


def test_gptnt_run_exits_3_on_provider_garbage(offline: None, tmp_path: Path) -> None:
    import asyncio
    import os
    import threading

    ready = threading.Event()
    box: list[str] = []
    stop = threading.Event()

    def serve() -> None:
        async def main() -> None:
            async for hostile in Hostile().serve():
                box.append(hostile.url)
                ready.set()
                while not stop.is_set():
                    await asyncio.sleep(0.05)

        asyncio.run(main())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(10)
    try:
        player = tmp_path / "html.yaml"
        player.write_text(f"model: openai:hostile\nbase_url: {box[0]}/html/v1\n"
                          "api_key_env: GPTNT_STANDIN_KEY\nimage_size: [320, 240]\n"
                          "transport_retries: 0\n")  # fmt: skip
        env = {k: v for k, v in os.environ.items() if k != "GPTNT_REDIS_URL"}
        done = subprocess.run(
            [*GPTNT, "run", "--mission", "Wires-234", "--mode", "sync", "--defuser", str(player),
             "--expert", "idle", "--quiet", "--out", str(tmp_path / "runs")],
            capture_output=True, text=True, timeout=300, env=env, check=False,
        )  # fmt: skip
    finally:
        stop.set()
        thread.join(10)
    assert done.returncode == 3, done.stderr
    assert "crashed: provider failed 3 calls of the defuser in a row" in done.stderr
