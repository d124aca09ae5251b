"""Failures end one episode as ``crashed`` with the reason, quickly, and the run goes on."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gptnt.config import GameConfig
from gptnt.players.cassette import loopback
from gptnt.records import Ledger, TurnEvent, read_events, read_summary
from gptnt.services.bus import Service
from gptnt.services.manager import (
    Episode,
    EpisodeSettings,
    EpisodeSpec,
    ProcessHandle,
    play_episode,
)
from gptnt.sim.game import Game
from gptnt.sim.server import create_app


def _kill_after_the_first_defuser_turn(episode: Episode, name: Service) -> list[float]:
    """SIGKILL ``episode``'s ``name`` process once the Defuser's first turn is recorded; the
    list gets the moment it was killed (monotonic)."""
    killed: list[float] = []

    def kill(_spec: EpisodeSpec, event: TurnEvent) -> None:
        if event.role == "defuser" and not killed:
            handle = next(h for h in episode._handles if h.name == name)
            assert isinstance(handle, ProcessHandle)
            os.kill(handle.proc.pid, signal.SIGKILL)
            killed.append(time.monotonic())

    episode._on_turn = kill
    return killed


@pytest.mark.slow
async def test_killed_player_process_crashes_only_its_episode(
    redis_admin_url: str, tmp_path: Path
) -> None:
    settings = EpisodeSettings(launch="process", game=GameConfig(startup_timeout_s=60))
    spec = EpisodeSpec.make("Wires-798", "sync")
    episode = Episode(spec, settings, admin_url=redis_admin_url, run_dir=tmp_path)
    killed = _kill_after_the_first_defuser_turn(episode, "expert")
    start = time.monotonic()
    summary = await episode.run()
    assert killed
    assert summary.outcome == "crashed"
    assert "expert" in summary.reason and str(-signal.SIGKILL) in summary.reason
    assert time.monotonic() - start < 30
    # The record is complete and says why.
    assert read_summary(episode.dir) == summary
    events = list(read_events(episode.dir))
    assert events[-1].kind == "episode_ended" and events[-1].reason == summary.reason
    # No process of that game is left behind.
    for handle in episode._handles:
        assert isinstance(handle, ProcessHandle) and handle.proc.poll() is not None

    # The run goes on: the next episode in the same run directory is played normally.
    nxt = await play_episode(
        EpisodeSpec.make("Wires-813", "sync"),
        settings.model_copy(update={"launch": "task"}),
        admin_url=redis_admin_url,
        run_dir=tmp_path,
    )
    assert nxt.outcome == "solved"


@pytest.mark.slow
async def test_killed_game_process_crashes_its_episode_without_waiting_to_stop_it(
    redis_admin_url: str, tmp_path: Path
) -> None:
    """A dead service is not asked to stop: the ask would wait out ``stop_timeout_s`` (here
    long) for an answer that cannot come."""
    settings = EpisodeSettings(launch="process", stop_timeout_s=60,
                               game=GameConfig(startup_timeout_s=60))  # fmt: skip
    spec = EpisodeSpec.make("Wires-798", "sync")
    episode = Episode(spec, settings, admin_url=redis_admin_url, run_dir=tmp_path)
    killed = _kill_after_the_first_defuser_turn(episode, "game")
    summary = await episode.run()
    assert killed
    assert summary.outcome == "crashed"
    assert "game process" in summary.reason and str(-signal.SIGKILL) in summary.reason
    assert summary.final_state is None  # nobody is left to ask the game's last state
    assert time.monotonic() - killed[0] < settings.stop_timeout_s
    for handle in episode._handles:
        assert isinstance(handle, ProcessHandle) and handle.proc.poll() is not None


class _StallableSim:
    """The simulator over real HTTP that can be told to stop answering (requests then hang
    until the test is over: released then, they end before the server stops, so no thread of
    this test outlives it)."""

    def __init__(self) -> None:
        self.stalled = threading.Event()
        self.released = threading.Event()
        self._app = create_app(Game(width=320, height=240))

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] == "http" and self.stalled.is_set():
            while not self.released.is_set():
                await asyncio.sleep(0.05)
        await self._app(scope, receive, send)


@pytest.fixture
def stallable_sim() -> Iterator[tuple[str, _StallableSim]]:
    app = _StallableSim()
    with loopback(app, log_level="error") as url:
        try:
            yield url, app
        finally:
            app.released.set()


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_game_backend_that_stops_answering_ends_the_episode(
    mode: str, stallable_sim: tuple[str, _StallableSim], redis_admin_url: str, tmp_path: Path
) -> None:
    url, sim = stallable_sim
    settings = EpisodeSettings(
        game=GameConfig(backend=url, width=320, height=240, call_deadline_s=1.0),
        launch="task",
        game_call_s=1.0,
        idle_sleep_s=0.05,
        turn_timeout_s=3,
        stop_timeout_s=1,
    )
    spec = EpisodeSpec.make("Password-234", mode)

    def stall_after_a_few_turns(_spec, event) -> None:  # type: ignore[no-untyped-def]
        if event.role == "defuser" and event.turn == 2:
            sim.stalled.set()

    start = time.monotonic()
    summary = await play_episode(
        spec, settings, admin_url=redis_admin_url, run_dir=tmp_path, on_turn=stall_after_a_few_turns
    )
    assert sim.stalled.is_set()
    assert summary.outcome == "crashed"
    assert summary.reason
    assert time.monotonic() - start < 30
    assert Ledger(tmp_path).latest()[spec.key].status == "crashed"


def test_an_episode_that_keeps_crashing_is_retried_then_parked(
    redis_admin_url: str, tmp_path: Path
) -> None:
    from gptnt.services.manager.suite import run_suite

    dead = "http://127.0.0.1:9"  # nothing listens there: the game backend never comes up
    settings = EpisodeSettings(
        game=GameConfig(backend=dead, startup_timeout_s=1), launch="task", stop_timeout_s=1
    )
    run_dir = tmp_path / "park"
    outcome = run_suite(run_dir, [EpisodeSpec.make("Wires-234", "sync")], settings, games=1,
                        retries=1, redis_url=redis_admin_url)  # fmt: skip
    entries = list(Ledger(run_dir).entries())
    assert [(e.attempt, e.status) for e in entries] == [(1, "crashed"), (2, "parked")]
    assert all(e.outcome == "crashed" and e.reason for e in entries)
    assert "game" in entries[-1].reason
    assert outcome.parked == [entries[0].episode_key] and not outcome.interrupted
    assert all(read_summary(run_dir / e.episode_dir) for e in entries)  # shipped and written
