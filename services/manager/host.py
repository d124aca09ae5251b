"""A game host of a suite's Dask cluster: where an episode attempt is played and packed.

The suite (``gptnt.services.manager.run_suite``) hands each attempt to the cluster as one task,
``play_on_host``, needing one ``game`` resource (a worker offers as many as it plays games at
once). The task plays the attempt into this host's staging directory and returns its records
packed (``gptnt.records.pack``); it writes no ledger and decides nothing: the suite checks the
records, writes them into the run directory and accounts for the attempt.

A worker on another host is ``gptnt worker --scheduler tcp://suite-host:8786``
(``serve``): a ``distributed.Worker`` in this process whose games use this host's Redis. The
suite's own local cluster passes the suite's Redis with each task instead.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from distributed import Worker, get_worker

from gptnt import telemetry
from gptnt.errors import ClusterError
from gptnt.records import TurnEvent, pack
from gptnt.services.manager._episode import Episode, Interrupt, OnTurn, traced
from gptnt.services.manager.api import EpisodeSettings, EpisodeSpec

log = logging.getLogger(__name__)

GAME = "game"
"""The Dask resource of one game slot: every episode task needs one."""
START_TOPIC = "gptnt-start"
"""Dask event topic: an attempt started on a host (run, key, attempt, host, name, at: the host's
clock, which the suite's fleet view does not trust; the scheduler adds the worker's address as
``worker``)."""
TURN_TOPIC = "gptnt-turn"
"""Dask event topic: a turn ended, with what it cost (run, key, cost)."""
ALL_RUNS = "*"
_STOP_POLL_S = 0.25  # wall seconds between an episode's looks at the stop flags
_DRAIN_S = 120.0  # wall seconds a stopping worker waits for its episodes to end (each bounded)


@dataclass(frozen=True)
class GameHost:
    """Where a host's games meet (``admin_url``: its Redis, as an admin user) and where their
    records are staged; ``keep``: leave the staged copy after it was shipped."""

    admin_url: str
    staging: Path
    keep: bool = False


_HOST: GameHost | None = None  # set by ``serve`` in a ``gptnt worker`` process
_STOPPED: dict[str, str] = {}  # run (or ALL_RUNS) → why its episodes in flight end
_STOPPED_LOCK = threading.Lock()


def worker_name() -> str:
    """This worker process as the fleet view names it: host and process id."""
    return f"{socket.gethostname()}-{os.getpid()}"


def stop_run(run: str, reason: str) -> None:
    """End this host's episodes of ``run`` in flight as ``interrupted`` (``reason``) and play
    none of its tasks after (they return ``None``); the suite calls it on every worker."""
    with _STOPPED_LOCK:
        _STOPPED.setdefault(run, reason)


def _stopped(run: str) -> str:
    with _STOPPED_LOCK:
        return _STOPPED.get(run) or _STOPPED.get(ALL_RUNS, "")


def play_on_host(run: str, spec: EpisodeSpec, settings: EpisodeSettings,
                 local: GameHost | None, traceparent: str | None = None) -> str | None:  # fmt: skip
    """The Dask task of one attempt: play it and return its records packed, or ``None`` when
    the run (or this worker) is stopping and it was not played. ``local`` is the suite's own
    host, for the workers of its local cluster; a ``gptnt worker`` plays on its own (``None``
    is sent to a fleet's).
    ``traceparent``: the suite's span, the parent of the episode's (``gptnt.telemetry``)."""
    host = _HOST or local
    if host is None:  # a plain `dask worker --resources game=1` joined the suite's scheduler
        raise ClusterError(
            f"{worker_name()} offers game slots but is no `gptnt worker` (it has no Redis or "
            "staging of its own); stop it and start `gptnt worker --scheduler ...` there"
        )
    if _stopped(run):
        return None
    worker = get_worker()
    worker.log_event(START_TOPIC, {"run": run, "key": spec.key, "attempt": spec.attempt,
                                   "host": socket.gethostname(), "name": worker_name(),
                                   "at": time.time()})  # fmt: skip

    def on_turn(_spec: EpisodeSpec, event: TurnEvent) -> None:
        worker.log_event(TURN_TOPIC, {"run": run, "key": spec.key, "cost": event.cost_usd})

    staging = host.staging / run
    telemetry.start("gptnt-worker")  # once per worker process, if an OTLP endpoint is set
    try:
        with telemetry.continued(traceparent):
            episode = asyncio.run(_play(run, spec, settings, host.admin_url, staging, on_turn))
    finally:
        telemetry.flush()  # a worker may be ended without a goodbye
    bundle = pack(episode)
    if not host.keep:
        shutil.rmtree(episode, ignore_errors=True)
    return bundle


async def _play(run: str, spec: EpisodeSpec, settings: EpisodeSettings, admin_url: str,
                staging: Path, on_turn: OnTurn) -> Path:  # fmt: skip
    interrupt = Interrupt()

    async def watch() -> None:
        while not (why := _stopped(run)):
            await asyncio.sleep(_STOP_POLL_S)
        interrupt.set(why)

    episode = Episode(spec, settings, admin_url=admin_url, run_dir=staging,
                      on_turn=on_turn, interrupt=interrupt)  # fmt: skip
    watcher = asyncio.create_task(watch())
    try:
        await traced(episode)
    finally:
        watcher.cancel()
    return episode.dir


async def serve(scheduler: str, admin_url: str, out: Path, games: int) -> str:
    """``gptnt worker``: offer ``games`` game slots on this host to the suite's cluster at
    ``scheduler`` until SIGINT or SIGTERM (which end the episodes in flight as ``interrupted``,
    their records still shipped) or until the scheduler goes away. Records are staged under
    ``out`` and kept there. Returns what stopped it (a signal's name, or ``scheduler lost``)."""
    global _HOST
    _HOST = GameHost(admin_url=admin_url, staging=out, keep=True)
    interrupt = Interrupt()
    interrupt.install()
    name = worker_name()
    async with Worker(scheduler, name=name, nthreads=games, resources={GAME: games},
                      death_timeout=60, dashboard=False) as worker:  # fmt: skip
        print(f"worker {name}: {games} game(s) for the cluster at {scheduler}", flush=True)
        finished = asyncio.create_task(worker.finished())
        stop = asyncio.create_task(interrupt.wait())
        await asyncio.wait([finished, stop], return_when=asyncio.FIRST_COMPLETED)
        if interrupt.is_set():
            stop_run(ALL_RUNS, interrupt.reason)
            deadline = time.monotonic() + _DRAIN_S
            # Until every result here was fetched by its suite (a result lives on the worker
            # that made it until then: leaving earlier loses it, and the attempt is replayed).
            while (worker.state.executing_count or worker.data) and time.monotonic() < deadline:
                await asyncio.sleep(_STOP_POLL_S)
        finished.cancel()
        stop.cancel()
    return interrupt.reason or "scheduler lost"
