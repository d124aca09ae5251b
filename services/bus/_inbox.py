"""Per-player inboxes: a Redis list per recipient, drained atomically.

``send`` appends; ``drain`` reads and deletes the whole list in one MULTI/EXEC transaction, so a
message is delivered exactly once even if the sender pushes while the recipient drains. An item
that is not a ``Message`` (anything a user with the partner's access pushed) is skipped and
counted in ``Inbox.unreadable``, and logged; the messages around it are delivered.
"""

from __future__ import annotations

import logging
import time
from itertools import takewhile
from typing import Literal

import redis.asyncio as aioredis
from pydantic import BaseModel

from gptnt.bounded import Tally, parse_json
from gptnt.errors import UnreadableError
from gptnt.protocol import Role
from gptnt.services.bus._deadline import REDIS_CALL_S, within
from gptnt.services.bus._keys import GameKeys

log = logging.getLogger(__name__)


class Message(BaseModel):
    """One dialogue message between the players."""

    kind: Literal["message"] = "message"
    sender: Role
    text: str
    sent_at: float  # wall-clock unix seconds when it was pushed
    at: float | None = None  # virtual clock: game time it is delivered (the sender's dispatch)


class Inbox:
    """Send to a partner's inbox, drain one's own; each within ``timeout_s``."""

    def __init__(self, redis: aioredis.Redis, keys: GameKeys, role: Role) -> None:
        self._redis = redis
        self._keys = keys
        self.role = role
        self.unreadable = Tally()
        """Items drained from this inbox that were not a ``Message``."""

    async def send(
        self, to: Role, text: str, *, at: float | None = None, timeout_s: float = REDIS_CALL_S
    ) -> Message:
        """Append to ``to``'s inbox; ``at``: delivered at that game time (virtual clock)."""
        message = Message(sender=self.role, text=text, sent_at=time.time(), at=at)
        async with within(timeout_s, f"sending to the {to}'s inbox"):
            await self._redis.rpush(self._keys.inbox(to), message.model_dump_json())
        return message

    async def drain(
        self, *, until: float | None = None, timeout_s: float = REDIS_CALL_S
    ) -> list[Message]:
        """Every message waiting in this role's inbox, oldest first; the inbox is left empty.

        ``until`` (virtual clock): only the messages delivered by that game time; later ones
        stay. One partner sends, one turn after another, so the inbox is in delivery order and
        those are a prefix of it; only this role takes from its inbox, and a message pushed
        meanwhile goes to the end, so popping that prefix loses and reorders nothing."""
        key = self._keys.inbox(self.role)
        if until is not None:
            async with within(timeout_s, "draining the inbox"):
                waiting = [
                    Message.model_validate_json(m) for m in await self._redis.lrange(key, 0, -1)
                ]
                due = list(takewhile(lambda m: m.at is None or m.at <= until, waiting))
                if due:
                    await self._redis.lpop(key, len(due))
            return due
        async with (
            within(timeout_s, "draining the inbox"),
            self._redis.pipeline(transaction=True) as pipe,
        ):
            pipe.lrange(key, 0, -1)
            pipe.delete(key)
            raw, _ = await pipe.execute()
        messages = []
        for item in raw:
            try:
                messages.append(parse_json(item, Message.model_validate_json, where=key))
            except UnreadableError as err:
                # Anyone with the partner's Redis access may push here: not a Message is
                # skipped, counted and logged, never fatal to the player's turn.
                self.unreadable.skip(key, str(err).removeprefix(f"{key}: "), what="message")
                log.warning("skipped %s", self.unreadable.sources[key].line())
        return messages
