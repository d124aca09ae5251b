"""The one deadline of a wait on the bus, and what a lost Redis looks like to the caller.

Connections are made with no socket timeout (``connect``): redis-py's default of 5 s cut every
call longer than that — a model turn waited on over RPC takes 1–60 s — and ran each send
through ``asyncio.wait_for``, which on Python 3.11 can swallow a cancellation arriving just
after a write. Instead the caller bounds each wait with ``within(seconds, what)``: its own
deadline, and the only one. Past it the caller gets ``DeadlineExceeded``; a Redis that went
away (connection refused or reset) surfaces as ``BusError`` whose message starts with
``redis``, so an episode ends as ``crashed: redis …`` rather than with a traceback.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import redis.exceptions

from gptnt.errors import BusError, DeadlineExceeded
from gptnt.waits import patient_timeout

REDIS_CALL_S = 5.0
"""Wall seconds one plain Redis call may take (a send, a drain, a publish, a heartbeat, a
queue operation), and the slack a call that blocks server-side gets beyond its block: Redis
answers in milliseconds, so this only bounds a stalled connection."""

REDIS_DOWN = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)
"""What a Redis that died, or a connection to it that broke, raises."""


def redis_lost(what: str, err: BaseException) -> BusError:
    """The ``BusError`` for a broken connection while doing ``what``."""
    detail = str(err).strip() or type(err).__name__
    return BusError(f"redis: {what}: {detail}")


@contextlib.asynccontextmanager
async def within(seconds: float, what: str) -> AsyncIterator[None]:
    """Bound the bus calls in the block by ``seconds`` (wall clock; a stall of this process's
    event loop is not counted against it: ``gptnt.waits.patient_timeout``).

    Raises ``DeadlineExceeded`` when the deadline passes and ``BusError`` (``redis: …``) when
    the connection to Redis is lost; a command Redis refuses (e.g. ``NOPERM``) passes through.
    """
    try:
        async with patient_timeout(seconds):
            yield
    except TimeoutError:
        raise DeadlineExceeded(f"{what}: no answer within {seconds:g} s") from None
    except REDIS_DOWN as err:
        raise redis_lost(what, err) from None
