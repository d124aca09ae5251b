"""The suite's episode queue: a Redis Stream with a consumer group, shared by every worker.

A producer (``gptnt suite run``) adds one ``Job`` per episode the run's ledger does not already
count as done; workers (N in the suite process, and any ``gptnt worker`` on another host that
points at the same Redis) take jobs with ``XREADGROUP``, play them, acknowledge them, and report
each ended attempt on the run's result stream. A crashed episode is queued again with the next
attempt number until ``retries`` is used up; then it is parked with its error. Nothing lives only
in a process's memory (GPTNT's queue was a Python ``set`` in the manager).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Callable
from pathlib import Path

import redis.asyncio as aioredis
from pydantic import BaseModel

from gptnt.records import Ledger, LedgerEntry, Summary, pack, unpack
from gptnt.services.bus import REDIS_CALL_S, connect, within
from gptnt.services.manager._episode import Interrupt, OnTurn, play_attempt
from gptnt.services.manager.api import EpisodeSettings, EpisodeSpec

log = logging.getLogger(__name__)

QUEUE = "gptnt:queue"
GROUP = "workers"


def results_key(run: str) -> str:
    return f"gptnt:results:{run}"


class Job(BaseModel):
    """One episode attempt to play, and where its records go (``<out>/<run>``)."""

    run: str
    spec: EpisodeSpec
    settings: EpisodeSettings
    retries: int = 2  # crashed attempts re-queued before the episode is parked


_BLOCK_MS = 500  # how long a worker's read blocks before it looks at ``stop`` again


async def ensure_group(redis: aioredis.Redis) -> None:
    with contextlib.suppress(aioredis.ResponseError):  # BUSYGROUP: it exists
        async with within(REDIS_CALL_S, "creating the episode queue"):
            await redis.xgroup_create(QUEUE, GROUP, id="0", mkstream=True)


async def enqueue(redis: aioredis.Redis, jobs: list[Job]) -> None:
    await ensure_group(redis)
    async with within(REDIS_CALL_S + len(jobs) / 100, "queueing episodes"):
        for job in jobs:
            await redis.xadd(QUEUE, {"job": job.model_dump_json()})


async def work(
    redis: aioredis.Redis,
    admin_url: str,
    out: Path,
    *,
    name: str | None = None,
    stop: asyncio.Event | None = None,
    on_turn: OnTurn | None = None,
    on_start: Callable[[str, Job], None] | None = None,
    on_end: Callable[[str, Job, Summary], None] | None = None,
    interrupt: Interrupt | None = None,
    ship: bool = False,
) -> None:
    """Take jobs until ``stop`` is set (forever if ``None``) or ``interrupt`` is; an
    interrupt also ends the episode in flight (recorded as ``interrupted``). With ``ship``
    (a worker on another host) ``out`` is only a staging area: each attempt's records travel
    with its result to the suite, which writes them into the run directory."""
    consumer = name or f"{socket.gethostname()}-{os.getpid()}-{id(asyncio.current_task())}"
    await ensure_group(redis)
    while (stop is None or not stop.is_set()) and not (interrupt and interrupt.is_set()):
        async with within(REDIS_CALL_S, "taking an episode from the queue"):
            got = await redis.xreadgroup(GROUP, consumer, {QUEUE: ">"}, count=1, block=_BLOCK_MS)
        if not got:
            continue
        for _stream, entries in got:
            for entry_id, fields in entries:
                job = Job.model_validate_json(fields["job"])
                if on_start:
                    on_start(consumer, job)
                summary = await _play(redis, admin_url, out, job, on_turn, interrupt, ship)
                async with within(REDIS_CALL_S, "acknowledging an episode"):
                    await redis.xack(QUEUE, GROUP, entry_id)
                    await redis.xdel(QUEUE, entry_id)
                if on_end:
                    on_end(consumer, job, summary)


async def serve(admin_url: str, out: Path, games: int = 1) -> str:
    """A worker on this host (``gptnt worker``, ``python -m gptnt.services.manager``): take episodes on
    ``games`` games until SIGINT or SIGTERM, which also ends the episodes in flight (recorded as
    ``interrupted``); records travel with each result, ``out`` is only a staging area. Returns
    the signal's name."""
    interrupt = Interrupt()
    interrupt.install()
    await asyncio.gather(
        *(work(connect(admin_url), admin_url, out, interrupt=interrupt, ship=True)
          for _ in range(games))
    )  # fmt: skip
    return interrupt.reason


async def purge(redis: aioredis.Redis, run: str) -> int:
    """Remove the run's jobs that no worker started (an interrupted or failed suite), so that
    a rerun, which queues what its ledger lacks, duplicates nothing; how many were removed."""
    async with within(REDIS_CALL_S, "clearing the run's queued episodes"):
        entries = await redis.xrange(QUEUE)
        ids = [i for i, fields in entries if Job.model_validate_json(fields["job"]).run == run]
        if ids:
            await redis.xack(QUEUE, GROUP, *ids)
            await redis.xdel(QUEUE, *ids)
    return len(ids)


async def _play(
    redis: aioredis.Redis,
    admin_url: str,
    out: Path,
    job: Job,
    on_turn: OnTurn | None,
    interrupt: Interrupt | None,
    ship: bool,
) -> Summary:
    run_dir = out / job.run
    park_after = job.retries + 1
    summary, entry = await play_attempt(
        job.spec, job.settings, admin_url=admin_url, run_dir=run_dir, on_turn=on_turn,
        park_after=park_after, interrupt=interrupt,
    )  # fmt: skip
    if entry.status == "crashed":
        retry = job.model_copy(
            update={"spec": job.spec.model_copy(update={"attempt": job.spec.attempt + 1})}
        )
        await enqueue(redis, [retry])
    fields = {"entry": entry.model_dump_json()}
    if ship:
        fields["bundle"] = pack(run_dir / entry.episode_dir)
    async with within(
        REDIS_CALL_S + len(fields.get("bundle", "")) / 10_000_000, "reporting a result"
    ):
        await redis.xadd(results_key(job.run), fields)
    return summary


def receive(run_dir: Path, fields: dict[str, str]) -> LedgerEntry:
    """One result from the stream, as the suite takes it: a shipped episode's records are
    written into ``run_dir`` and its line added to the run's ledger (a local worker wrote both
    already)."""
    entry = LedgerEntry.model_validate_json(fields["entry"])
    bundle = fields.get("bundle")
    if bundle is not None:
        ledger = Ledger(run_dir)
        if (entry.episode_key, entry.attempt) not in {
            (e.episode_key, e.attempt) for e in ledger.entries()
        }:
            unpack(bundle, run_dir / entry.episode_dir)
            ledger.append(entry)
    return entry
