"""Starting the three services of a game, as child processes or as tasks in this process.

Processes are the real architecture (a player that dies takes nothing else with it; the chaos
tests kill one). Tasks run the very same service code in this event loop, each with its own
Redis connection under its own ACL user, for fast tests and benchmarks.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol

import redis.asyncio as aioredis

from gptnt.services.bus import TERMINATE_GRACE_S, Service, connect, die_with_parent


class Handle(Protocol):
    name: Service

    def failure(self) -> str | None:
        """Why the service is gone, or ``None`` while it runs."""

    async def finish(self, timeout_s: float) -> None:
        """Wait for a requested exit, then force it."""


class ProcessHandle:
    def __init__(self, name: Service, args: list[str], env: dict[str, str], log_path: Path) -> None:
        """``env`` is the child's whole environment (``gptnt.services.bus.child_env``)."""
        self.name = name
        log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log_path = log_path
        with open(log_path, "ab") as log:
            self.proc = subprocess.Popen(
                # -P: the working directory is not put on sys.path, so a checkout of gptnt
                # there (another version's) is never what the service runs.
                [sys.executable, "-P", "-m", f"gptnt.services.{service_module(name)}", *args],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                preexec_fn=die_with_parent,  # see die_with_parent
                start_new_session=True,  # a Ctrl-C reaches the manager, which stops it cleanly
            )

    def failure(self) -> str | None:
        code = self.proc.poll()
        if code is None:
            return None
        return exited(self.name, self.proc.pid, code, self._log_path)

    async def finish(self, timeout_s: float) -> None:
        if self.proc.poll() is not None:
            return
        if await self._exited_within(timeout_s):
            return
        self.proc.terminate()
        if not await self._exited_within(TERMINATE_GRACE_S):
            self.proc.kill()
            await asyncio.to_thread(self.proc.wait)

    async def _exited_within(self, seconds: float) -> bool:
        """Poll (no thread left blocked in ``wait``) until the process exits or time is up."""
        deadline = time.monotonic() + seconds
        while self.proc.poll() is None:
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True


class TaskHandle:
    def __init__(
        self, name: Service, url: str, body: Callable[[aioredis.Redis], Awaitable[None]]
    ) -> None:
        self.name = name
        self._url = url
        self.task = asyncio.create_task(self._run(body), name=f"service-{name}")

    async def _run(self, body: Callable[[aioredis.Redis], Awaitable[None]]) -> None:
        redis = connect(self._url)
        try:
            await body(redis)
        finally:
            await redis.aclose()

    def failure(self) -> str | None:
        if not self.task.done():
            return None
        if self.task.cancelled():
            return f"{self.name} task was cancelled"
        err = self.task.exception()
        return f"{self.name} failed: {type(err).__name__}: {err}" if err else f"{self.name} exited"

    async def finish(self, timeout_s: float) -> None:
        await asyncio.wait({self.task}, timeout=timeout_s)
        if not self.task.done():
            self.task.cancel()
            await asyncio.wait({self.task}, timeout=timeout_s)
        if self.task.done() and not self.task.cancelled():
            # Its failure is the episode's (``failure``); retrieved, so that asyncio does not
            # log it once more whenever the task happens to be garbage-collected.
            self.task.exception()


def exited(name: Service, pid: int, code: int, log_path: Path) -> str:
    """Why a service process is gone: its exit code and the last line of its log."""
    tail = ""
    with contextlib.suppress(OSError):
        lines = log_path.read_text(errors="replace").strip().splitlines()
        tail = f": {lines[-1]}" if lines else ""
    return f"{name} process {pid} exited with code {code}{tail}"


def service_module(name: Service) -> str:
    """The package under ``services`` that runs a service: ``game``, or ``player`` for a seat."""
    return "game" if name == "game" else "player"
