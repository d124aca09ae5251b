"""How many backend calls one sync turn costs: the simulator over real HTTP counts every
request by route while the oracle pair plays a sync episode.

A sync cycle is the Defuser's turn (observe, act), the step (``/timestep``) and the Expert's
turn (no game access). The manager takes the game's status from the Defuser's reply instead of
asking again; and because ``/timestep`` returns only once the game is paused again with every
module settled, and nothing else changes a paused game, the Defuser's observation reuses the
step's ``/health`` and ``/state`` (the game service's module doc). So a cycle in which the
Defuser acts makes seven calls: ``/timestep`` + ``/health`` + ``/state`` (the step),
``/buffer`` (the observation), ``/action`` + ``/health`` + ``/state`` (the action) — one
``/state`` per Defuser turn and two per cycle (it was nine calls and three ``/state`` before the
observation reused the step's reading).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from gptnt.config import GameConfig
from gptnt.players.cassette import loopback
from gptnt.services.manager import EpisodeSettings, EpisodeSpec, play_episode
from gptnt.sim.game import Game
from gptnt.sim.server import create_app


class _CountingSim:
    """The simulator's ASGI app, logging the route of every request."""

    def __init__(self) -> None:
        self.routes: list[str] = []
        self._app = create_app(Game(width=320, height=240))

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] == "http":
            self.routes.append(scope["path"])
        await self._app(scope, receive, send)


@pytest.fixture
def counting_sim() -> Iterator[tuple[str, _CountingSim]]:
    app = _CountingSim()
    with loopback(app, log_level="error") as url:
        yield url, app


async def test_a_sync_cycle_costs_seven_backend_calls_and_two_state_reads(
    counting_sim: tuple[str, _CountingSim], redis_admin_url: str, tmp_path: Path
) -> None:
    url, sim = counting_sim
    # No background polling during play: every call counted is one a turn made.
    game = GameConfig(backend=url, width=320, height=240, poll_interval_s=60)
    settings = EpisodeSettings(game=game, launch="task", turn_timeout_s=30)
    marks: list[tuple[int, str]] = []  # (requests so far, what the Defuser did)

    def on_turn(_spec, event) -> None:  # type: ignore[no-untyped-def]
        if event.role == "defuser":
            marks.append((len(sim.routes), event.action.kind))

    spec = EpisodeSpec.make("Wires-234", "sync")
    summary = await play_episode(spec, settings, admin_url=redis_admin_url, run_dir=tmp_path,
                                 on_turn=on_turn)  # fmt: skip
    assert summary.outcome == "solved"
    # A cycle runs from one Defuser turn's end to the next: step, Expert, Defuser.
    cycles = [(Counter(sim.routes[a:b]), kind) for (a, _), (b, kind) in itertools.pairwise(marks)]
    acting = [calls for calls, kind in cycles if kind == "interact_game"]
    assert acting, "the oracle Defuser acted in some cycle"
    for calls in acting:
        assert calls["/state"] == 2, calls
        assert calls.total() == 7, calls
        assert calls["/timestep"] == 1 and calls["/action"] == 1, calls
        assert calls["/buffer"] == 1 and calls["/health"] == 2, calls
