"""``gptnt.waits.patient_timeout``: an answer that arrived on a real socket while the event loop
was stalled past the deadline is taken (``asyncio.timeout`` cuts it, the class of fault a
loaded machine turned into 'no answer'); a wait on nothing still ends."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

import pytest

from gptnt.waits import patient_timeout

Scope = Callable[[float], AbstractAsyncContextManager[object]]


async def _answer_during_a_stall(scope: Scope) -> bytes | None:
    """Wait 0.3 s for one byte that the peer sends 0.05 s into a 1.5 s stall of this loop."""
    ours, peer = socket.socketpair()
    reader, writer = await asyncio.open_connection(sock=ours)

    async def stall() -> None:
        await asyncio.sleep(0.05)
        threading.Timer(0.05, lambda: peer.send(b"x")).start()
        time.sleep(1.5)  # a synchronous step: the whole loop waits

    stalling = asyncio.create_task(stall())
    try:
        async with scope(0.3):
            return await reader.read(1)
    except TimeoutError:
        return None
    finally:
        await stalling
        writer.close()
        peer.close()


async def test_an_answer_that_arrived_during_a_stall_is_taken() -> None:
    assert await _answer_during_a_stall(asyncio.timeout) is None  # the fault, as it was
    assert await _answer_during_a_stall(patient_timeout) == b"x"


async def test_a_wait_on_nothing_still_ends() -> None:
    with pytest.raises(TimeoutError):
        async with patient_timeout(0.2):
            await asyncio.Event().wait()


async def test_a_stall_extends_the_wait_once_only() -> None:
    """Stalled past the deadline and never answered: one extension, then the wait ends."""
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        async with patient_timeout(0.2):
            time.sleep(0.6)  # the timer fires late: the wait gets up to 0.2 s more
            await asyncio.Event().wait()
    assert time.monotonic() - started >= 0.6
