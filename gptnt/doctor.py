"""``gptnt doctor``: is this box ready for a long run? One line per check, before anything starts.

Checks, in order: the X display the game renders to (``$DISPLAY`` and its X socket), the GPU
(``nvidia-smi``), the game at ``game.backend`` (``/health`` answers a lifecycle token, and the
mod's ``/modules`` lists the modules it can spawn), Redis at ``bus.redis_url`` (``PING``), and
each configured model player (its key, then its provider's model list, as ``gptnt run``'s
preflight does). A check is ``ok``, ``FAIL`` (this run would not work) or ``skip`` (nothing to
check: the embedded simulator needs no game, a scripted player no provider). Every check has its
own deadline (``gptnt.preflight.PROBE_S``); none can hang.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from gptnt.endpoints import scrub_text
from gptnt.errors import ConfigError, GptntError
from gptnt.players.config import PlayerConfig
from gptnt.preflight import PROBE_S, SIM_BACKENDS

CheckStatus = Literal["ok", "FAIL", "skip"]
X_SOCKETS = Path("/tmp/.X11-unix")
"""The X server's socket folder (``X<display number>`` inside)."""


@dataclass(frozen=True)
class Check:
    """One line of the report."""

    name: str
    status: CheckStatus
    detail: str

    def line(self) -> str:
        """The check as printed: any URL's userinfo, key parameter or key-shaped text in it
        hidden (``scrub_text``), whichever check wrote it."""
        return scrub_text(f"{self.status:<4}  {self.name:<22} {self.detail}")


def check_display(environ: dict[str, str] | None = None, sockets: Path = X_SOCKETS) -> Check:
    """``$DISPLAY`` names a local X server whose socket exists (a remote one is taken as is)."""
    env = os.environ if environ is None else environ
    display = env.get("DISPLAY", "")
    if not display:
        return Check("X display", "FAIL", "$DISPLAY is not set; start Xvfb (or X) and export it")
    host, _, rest = display.partition(":")
    number = rest.partition(".")[0]
    if host not in ("", "unix") or not number.isdigit():
        return Check("X display", "ok", f"DISPLAY={display} (remote: not checked further)")
    if not (sockets / f"X{number}").exists():
        return Check("X display", "FAIL", f"DISPLAY={display}, but no X server socket for it")
    return Check("X display", "ok", f"DISPLAY={display}")


def check_gpu(nvidia_smi: str = "nvidia-smi") -> Check:
    """The GPUs ``nvidia-smi`` lists (name, memory), within ``PROBE_S`` seconds."""
    path = shutil.which(nvidia_smi)
    if path is None:
        return Check("GPU", "FAIL", f"{nvidia_smi} not found: no NVIDIA driver on this machine")
    query = [path, "--query-gpu=name,memory.total", "--format=csv,noheader"]
    try:
        done = subprocess.run(query, capture_output=True, text=True, timeout=PROBE_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        return Check("GPU", "FAIL", f"{nvidia_smi} did not answer ({type(err).__name__})")
    gpus = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0 or not gpus:
        why = " ".join(done.stderr.split())[:120] or f"exit {done.returncode}"
        return Check("GPU", "FAIL", f"{nvidia_smi}: {why}")
    return Check("GPU", "ok", f"{len(gpus)}: {'; '.join(gpus)}")


async def check_game(url: str) -> list[Check]:
    """The game's ``/health`` and the mod's module list (two lines)."""
    if url in SIM_BACKENDS:
        why = f"game.backend {url}: the embedded simulator, nothing to reach"
        return [Check("game /health", "skip", why), Check("mod loaded", "skip", why)]
    from gptnt.protocol.client import GameClient

    client = GameClient(url, connect_timeout=PROBE_S)
    try:
        try:
            state = await client.health(deadline=PROBE_S)
        except GptntError as err:
            line = " ".join(str(err).split())[:160]
            return [
                Check("game /health", "FAIL", f"{url}: {line}; start the game with the mod"),
                Check("mod loaded", "skip", "no game answering"),
            ]
        health = Check("game /health", "ok", f"{url}: {state.value}")
        try:
            modules = await client.modules(deadline=PROBE_S)
        except GptntError as err:
            line = " ".join(str(err).split())[:160]
            return [health, Check("mod loaded", "FAIL", f"/modules: {line}")]
        who = "simulator" if client.extensions else "game"
        if not modules:
            return [health, Check("mod loaded", "FAIL", "/modules lists no module")]
        return [health, Check("mod loaded", "ok", f"{who}: {len(modules)} module types")]
    finally:
        await client.aclose()


async def check_redis(url: str | None) -> Check:
    """A ``PING`` to ``bus.redis_url`` (unset: an embedded server is started per run)."""
    from gptnt.endpoints import scrub_url
    from gptnt.preflight import _probe_redis

    if url is None:
        return Check("redis", "skip", "bus.redis_url unset: each run starts an embedded server")
    try:
        await _probe_redis(url)
    except ConfigError as err:
        return Check("redis", "FAIL", str(err))
    return Check("redis", "ok", f"{scrub_url(url)}: PONG")


async def check_player(role: str, config: PlayerConfig) -> Check:
    """The player's key, endpoint and model list, as ``gptnt run`` checks them."""
    from gptnt.preflight import Needs, check_inputs, probe

    name = f"{role} {config.name or config.model}"
    needs = Needs(players=[config])
    try:
        check_inputs(needs)
        await probe(needs)
    except ConfigError as err:
        return Check(name, "FAIL", str(err))
    where = config.base_url or "the provider's endpoint"
    return Check(name, "ok", f"{config.model} at {where}: answering")


async def run_checks(
    game: str, redis_url: str | None, players: Sequence[tuple[str, PlayerConfig | None]]
) -> list[Check]:
    """Every check, the slow ones concurrently; in the documented order."""
    local = [check_display(), check_gpu()]
    game_checks, redis_check, player_checks = await asyncio.gather(
        check_game(game),
        check_redis(redis_url),
        asyncio.gather(*(_player_or_skip(role, config) for role, config in players)),
    )
    return [*local, *game_checks, redis_check, *player_checks]


async def _player_or_skip(role: str, config: PlayerConfig | None) -> Check:
    if config is None:
        return Check(role, "skip", "scripted: calls no model")
    return await check_player(role, config)
