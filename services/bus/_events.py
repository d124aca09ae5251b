"""Game events on a Redis Stream: durable, ordered, readable by someone who arrives late.

The game service appends; the manager blocks on ``wait_for`` with a deadline. A stream (not
pub/sub) so that a game over published a moment before the reader starts waiting is not lost.
"""

from __future__ import annotations

import time
from typing import Any, Generic, TypeVar, cast

import redis.asyncio as aioredis
from pydantic import BaseModel, TypeAdapter

from gptnt.services.bus._deadline import REDIS_CALL_S, within
from gptnt.services.bus._keys import GameKeys

E = TypeVar("E")

_MAXLEN = 1000


class EventStream(Generic[E]):
    """Typed events of one game; ``adapter`` validates the union of event models."""

    def __init__(self, redis: aioredis.Redis, keys: GameKeys, adapter: TypeAdapter[E]) -> None:
        self._redis = redis
        self._key = keys.events
        self._adapter = adapter
        self._last_id = "0"
        self._pending: list[E] = []

    async def publish(self, event: BaseModel, *, timeout_s: float = REDIS_CALL_S) -> None:
        async with within(timeout_s, "publishing a game event"):
            await self._redis.xadd(
                self._key, {"event": event.model_dump_json()}, maxlen=_MAXLEN, approximate=True
            )

    async def read(self, *, block_s: float) -> list[E]:
        """Events after the last one read, waiting up to ``block_s`` for the first."""
        async with within(block_s + REDIS_CALL_S, "reading game events"):
            got = await self._redis.xread(
                {self._key: self._last_id}, block=max(1, int(block_s * 1000))
            )
        events: list[E] = []
        # redis-py's RESP2-shaped reply, decoded (``connect``): [[stream, [(id, {field: value})]]]
        for _key, entries in cast("list[list[Any]]", got or []):
            for entry_id, fields in entries:
                self._last_id = entry_id
                events.append(self._adapter.validate_json(fields["event"]))
        return events

    async def wait_for(self, kinds: type | tuple[type, ...], *, timeout_s: float) -> E | None:
        """The next event of one of ``kinds``; ``None`` if none arrives within ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while True:
            while self._pending:
                event = self._pending.pop(0)
                if isinstance(event, kinds):
                    return event
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self._pending = await self.read(block_s=min(left, 1.0))
