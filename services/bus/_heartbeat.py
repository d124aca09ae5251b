"""Heartbeats: each service refreshes a key with a TTL; a missing key means the service is gone.

One ``SET … PX`` per beat (atomic), each with the next sequence number. Liveness is judged by
the reader from the beats' progress on its own monotonic clock (a new ``seq`` seen = alive),
never by comparing the sender's clock with the reader's, and never by one missed beat: how
long a silence counts as hung is the episode's to say (``Budget.liveness`` in
``gptnt.services.manager``), from the longest wait it places on the service. The key's TTL only
clears the key of a sender that is gone.

The first beat that says ``ready`` also pushes a token onto the service's readiness list
(``GameKeys.ready``), in the same transaction: whoever waits for the service to come up blocks
on that list (``wait_ready``) and wakes the moment it serves, while liveness stays with the
heartbeat's TTL.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import time
from collections.abc import Sequence
from typing import Literal

import redis.asyncio as aioredis
from pydantic import BaseModel

from gptnt.errors import BusError
from gptnt.services.bus._deadline import REDIS_CALL_S, within
from gptnt.services.bus._keys import GameKeys, Service
from gptnt.services.bus._server import decoded

_READY = "ready"  # the state of a service that serves requests
_READY_TTL_S = 600  # a readiness token nobody popped does not outlive its game for long
BEAT_S = 0.5
"""Wall seconds between two beats of a service."""
KEY_TTL_S = 3.0
"""Wall seconds a beat's key outlives its last beat (clean-up only: liveness is the reader's)."""


class Heartbeat(BaseModel):
    kind: Literal["heartbeat"] = "heartbeat"
    service: Service
    state: str  # what the service is doing, e.g. "ready", "turn", "stopping"
    seq: int
    pid: int
    host: str
    sent_at: float  # wall-clock unix seconds (informational only)


class HeartbeatSender:
    """Beats every ``interval_s``; the key lives ``ttl_s``."""

    def __init__(
        self,
        redis: aioredis.Redis,
        keys: GameKeys,
        service: Service,
        *,
        interval_s: float = BEAT_S,
        ttl_s: float = KEY_TTL_S,
    ) -> None:
        self._redis = redis
        self._key = keys.heartbeat(service)
        self._service = service
        self._interval_s = interval_s
        self._ttl_ms = int(ttl_s * 1000)
        self._ready_key = keys.ready(service)
        self._announced = False  # the readiness token was pushed
        self._seq = 0
        self.state = "starting"

    async def beat(self) -> None:
        self._seq += 1
        beat = Heartbeat(
            service=self._service,
            state=self.state,
            seq=self._seq,
            pid=os.getpid(),
            host=socket.gethostname(),
            sent_at=time.time(),
        )
        announce = self.state == _READY and not self._announced
        # A beat that cannot land within the TTL is worthless; the next one tries again.
        async with (
            within(self._ttl_ms / 1000, f"{self._service} heartbeat"),
            self._redis.pipeline(transaction=True) as pipe,
        ):
            pipe.set(self._key, beat.model_dump_json(), px=self._ttl_ms)
            if announce:
                pipe.rpush(self._ready_key, str(os.getpid()))
                pipe.expire(self._ready_key, _READY_TTL_S)
            await pipe.execute()
        self._announced = self._announced or announce

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Beat until ``stop`` is set (then remove the key) or the task is cancelled; transport
        errors are retried at the next beat."""
        stop = stop or asyncio.Event()
        while not stop.is_set():
            with contextlib.suppress(aioredis.RedisError, BusError):
                await self.beat()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self._interval_s):
                    await stop.wait()
        with contextlib.suppress(aioredis.RedisError, BusError):
            async with within(self._ttl_ms / 1000, f"{self._service} heartbeat removal"):
                await self._redis.delete(self._key)


async def wait_ready(
    redis: aioredis.Redis, keys: GameKeys, services: set[Service], *, timeout_s: float
) -> Service | None:
    """Block until one of ``services`` announces it is ready; which one, or ``None`` when
    ``timeout_s`` (wall seconds) pass first. Each announcement is taken once."""
    timeout_s = max(timeout_s, 0.001)  # 0 would block forever
    lists = {keys.ready(service): service for service in services}
    async with within(timeout_s + REDIS_CALL_S, "waiting for services to be ready"):
        popped = await redis.blpop(list(lists), timeout=timeout_s)
    return None if popped is None else lists[decoded(popped[0])]


async def read_heartbeats(
    redis: aioredis.Redis,
    keys: GameKeys,
    services: Sequence[Service],
    *,
    timeout_s: float = REDIS_CALL_S,
) -> dict[Service, Heartbeat | None]:
    """The last beat of each of ``services`` (``None``: its key expired, or it never beat),
    in one Redis call."""
    async with within(timeout_s, "reading the services' heartbeats"):
        raws = await redis.mget([keys.heartbeat(s) for s in services])
    return {
        s: None if raw is None else Heartbeat.model_validate_json(raw)
        for s, raw in zip(services, raws, strict=True)
    }
