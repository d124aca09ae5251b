"""The one game backend a Game Service owns: the simulator (in-process or a child process), or
any server speaking the protocol at a URL (a recorded stub, the real game's mod).

Everything above this file talks to the backend through ``gptnt.protocol.GameClient`` only, so
the service behaves the same whatever is behind it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import sys
import time
from typing import TYPE_CHECKING

import httpx

from gptnt.config import GameConfig
from gptnt.errors import GptntError, ProtocolError
from gptnt.protocol.client import TOKEN_ENV, GameClient
from gptnt.services.bus import TERMINATE_GRACE_S, child_env, die_with_parent, free_port

if TYPE_CHECKING:
    from gptnt.sim.recording import RecordingTransport

SIM = "sim"  # the simulator inside the service process (fastest; the default)
SIM_PROCESS = "sim-process"  # the simulator as its own `gptnt sim serve` process


def deadlines(config: GameConfig) -> dict[str, float]:
    """Per-route deadlines, none longer than the section's ``call_deadline_s``."""
    from gptnt.protocol.client import DEFAULT_DEADLINES

    return {r: min(limit, config.call_deadline_s) for r, limit in DEFAULT_DEADLINES.items()}


class Backend:
    """Opens the client for the game section's backend (starting the simulator if needed) and
    closes it."""

    def __init__(self, spec: GameConfig) -> None:
        self.spec = spec
        self._proc: asyncio.subprocess.Process | None = None
        self.client: GameClient | None = None
        self._recorder: RecordingTransport | None = None

    async def open(self) -> GameClient:
        """The client, once the backend answers (within the section's ``startup_timeout_s``)."""
        spec = self.spec
        if spec.backend == SIM:
            from gptnt.rules.ruleset import ruleset
            from gptnt.sim.game import Game
            from gptnt.sim.server import create_app

            game = Game(width=spec.width, height=spec.height, ruleset=ruleset(spec.rule_seed))
            # In the service's own loop: no worker thread between the client and the game.
            transport = self._recorded(httpx.ASGITransport(app=create_app(game, inline=True)))
            self.client = GameClient(
                "http://sim.invalid", deadlines=deadlines(spec), transport=transport
            )
        elif spec.backend == SIM_PROCESS:
            port = free_port()
            token = secrets.token_hex(16)  # this run's: no other process can drive the game
            self._proc = await asyncio.create_subprocess_exec(
                sys.executable, "-P", "-c", "from gptnt.cli import main; main()", "sim", "serve",
                "--port", str(port), "--width", str(spec.width), "--height", str(spec.height),
                "--rule-seed", str(spec.rule_seed), stdout=asyncio.subprocess.DEVNULL,
                env=child_env({TOKEN_ENV: token}),
                preexec_fn=die_with_parent, start_new_session=True,
            )  # fmt: skip
            self.client = GameClient(
                f"http://127.0.0.1:{port}",
                deadlines=deadlines(spec),
                transport=self._recorded(httpx.AsyncHTTPTransport()),
                token=token,
            )
        else:
            self.client = GameClient(
                spec.backend,
                deadlines=deadlines(spec),
                transport=self._recorded(httpx.AsyncHTTPTransport()),
                token=os.environ.get(TOKEN_ENV) or None,
            )
        await self._wait_healthy(spec.startup_timeout_s)
        return self.client

    async def _wait_healthy(self, timeout_s: float) -> None:
        assert self.client is not None
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                await self.client.health(deadline=min(2.0, self.spec.call_deadline_s))
                return
            except ProtocolError as err:
                if self._proc is not None and self._proc.returncode is not None:
                    raise ProtocolError(
                        f"the simulator process exited with code {self._proc.returncode}",
                        route="/health",
                    ) from None
                if time.monotonic() > deadline:
                    raise ProtocolError(
                        f"game backend {self.spec.backend} not healthy within {timeout_s:g} s: {err}",
                        route="/health",
                    ) from None
                await asyncio.sleep(0.1)

    def _recorded(self, transport: httpx.AsyncBaseTransport) -> httpx.AsyncBaseTransport:
        """``transport``, keeping every exchange when the game section asks for a recording."""
        if self.spec.record is None:
            return transport
        from gptnt.sim.recording import RecordingTransport

        self._recorder = RecordingTransport(transport)
        return self._recorder

    async def close(self) -> None:
        if self.client is not None:
            with contextlib.suppress(GptntError, httpx.HTTPError):
                await self.client.aclose()
        if self._recorder is not None and self.spec.record is not None:
            from pathlib import Path

            from gptnt.sim.recording import new_recording, write_recording

            note = f"gptnt run, rule seed {self.spec.rule_seed}"
            exchanges = self._recorder.exchanges
            write_recording(
                Path(self.spec.record),
                new_recording(exchanges, source=self.spec.backend, note=note),
            )
            self._recorder = None
        if self._proc is not None and self._proc.returncode is None:
            self._proc.terminate()
            try:
                async with asyncio.timeout(TERMINATE_GRACE_S):
                    await self._proc.wait()
            except TimeoutError:
                self._proc.kill()
                await self._proc.wait()
        self._proc = None
