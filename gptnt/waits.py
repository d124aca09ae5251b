"""A deadline on a wait that a stalled event loop does not cut short: ``patient_timeout``.

``asyncio.timeout`` fires its timer in the same loop step that would deliver an answer that
arrived while the loop was stalled (a loaded machine, a long synchronous step elsewhere in the
process): the loop handles the socket's event, then the overdue timer cancels the task before
the task can take what arrived. So a timely answer is cut, and a live peer looks hung. Here,
a timer that fires more than ``LOOP_STALL_S`` late gives the wait, once, the time it was not
watched (at most the deadline again), so an answer that was there is taken; a wait on
something that never answers still ends, within twice its deadline plus the stall.

This module depends on nothing of ours, so every layer may use it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

LOOP_STALL_S = 0.25
"""Wall seconds late a deadline's timer may fire before it counts as a stalled event loop."""


@contextlib.asynccontextmanager
async def patient_timeout(seconds: float) -> AsyncIterator[None]:
    """Like ``asyncio.timeout(seconds)`` (``TimeoutError`` when it passes), but a stall of the
    loop is not counted against the wait (once; see the module's doc)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    extended = False
    async with asyncio.timeout(None) as scope:
        handle: asyncio.TimerHandle

        def expire() -> None:
            nonlocal extended, handle
            late = loop.time() - deadline
            if late > LOOP_STALL_S and not extended:
                extended = True
                handle = loop.call_at(loop.time() + min(late, seconds), expire)
                return
            scope.reschedule(loop.time())

        handle = loop.call_at(deadline, expire)
        try:
            yield
        finally:
            handle.cancel()
