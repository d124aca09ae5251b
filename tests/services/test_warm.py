"""The warm server's manager side (``gptnt.services.manager._warm``): a forked service's start and
its exit reach the waiting coroutine as the server reports them, and failures are answered."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from gptnt.services.manager._warm import WarmServer


@pytest.fixture(scope="module")
def server():  # type: ignore[no-untyped-def]
    warm = WarmServer()
    yield warm
    warm.close()


async def test_a_service_that_exits_is_reported_with_its_code(server, tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    pid = await server.spawn("game", ["--no-such-flag"], {}, log)  # argparse: exit code 2
    assert await server.wait(pid, timeout_s=30)
    assert server.exits[pid] == 2
    assert "--game-id" in log.read_text()  # its own log got the usage line


async def test_waiters_in_two_event_loops_are_both_woken(server, tmp_path: Path) -> None:
    pids = await asyncio.gather(
        *(server.spawn("player", ["--no-such-flag"], {}, tmp_path / f"{i}.log") for i in range(2))
    )
    assert len(set(pids)) == 2
    ended = await asyncio.to_thread(asyncio.run, server.wait(pids[0], timeout_s=30))
    assert ended and await server.wait(pids[1], timeout_s=30)


async def test_a_spawn_the_server_cannot_do_is_an_error(server, tmp_path: Path) -> None:
    with pytest.raises(OSError, match="could not start game: cannot open the log"):
        await server.spawn("game", [], {}, tmp_path / "missing" / "game.log")
    assert server.alive


async def test_nothing_waits_on_a_server_that_is_gone(tmp_path: Path) -> None:
    warm = WarmServer()
    warm.close()
    assert not warm.alive
    assert await warm.wait(12345, timeout_s=30)  # gone: nothing left to wait for
    with pytest.raises(OSError, match="the warm server is gone"):
        await warm.spawn("game", [], {}, tmp_path / "game.log")
