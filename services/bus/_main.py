"""The ``python -m`` entry of a service process: the same for the game and each player."""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis

from gptnt.services.bus._env import CONFIG_ENV
from gptnt.services.bus._keys import GameKeys
from gptnt.services.bus._server import ENV_URL, connect

Serve = Callable[[aioredis.Redis, GameKeys, str | None], Awaitable[None]]
"""Serve one game until stopped: the connection, the game's keys, and the service's config
section as JSON (``--config``, else ``$GPTNT_SERVICE_CONFIG``; ``None`` when neither is set)."""


def service_main(prog: str, description: str | None, config_help: str, serve: Serve) -> None:
    """Parse ``--game-id ID [--config JSON]``, connect with ``$GPTNT_REDIS_URL`` (the
    service's own ACL user) and ``serve`` until the manager calls ``stop``; tracing is on when
    ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set, under the episode's span when handed one."""
    parser = argparse.ArgumentParser(prog=f"python -m {prog}", description=description)
    parser.add_argument("--game-id", required=True)
    parser.add_argument("--config", help=config_help)
    args = parser.parse_args()

    async def run() -> None:
        redis = connect(os.environ[ENV_URL])
        try:
            await serve(redis, GameKeys(args.game_id), args.config or os.environ.get(CONFIG_ENV))
        finally:
            await redis.aclose()

    from gptnt import telemetry

    with telemetry.running(prog.replace(".services.", "-")), telemetry.inherited():
        asyncio.run(run())
