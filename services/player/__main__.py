"""``python -m gptnt.services.player --game-id ID [--config JSON]``.

The config is the service's own section (``gptnt.services.player.api.PlayerServiceConfig``) as
JSON, exactly what the manager hands a player task: ``--config``, else ``$GPTNT_SERVICE_CONFIG``
(how the manager passes it: a ``base_url`` may hold a secret, and a command line is public).
Connects with ``$GPTNT_REDIS_URL`` (this role's own ACL user) and serves turns until the manager
calls ``stop``.
"""

from __future__ import annotations

import argparse
import asyncio
import os

from gptnt.services.bus import CONFIG_ENV, ENV_URL, GameKeys, connect
from gptnt.services.player import PlayerService, PlayerServiceConfig


async def _main(args: argparse.Namespace) -> None:
    config = PlayerServiceConfig.model_validate_json(args.config or os.environ[CONFIG_ENV])
    redis = connect(os.environ[ENV_URL])
    try:
        await PlayerService(redis, GameKeys(args.game_id), config).run()
    finally:
        await redis.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m gptnt.services.player", description=__doc__)
    parser.add_argument("--game-id", required=True)
    parser.add_argument(
        "--config", help=f"the service's PlayerServiceConfig as JSON; default ${CONFIG_ENV}"
    )
    from gptnt import telemetry

    # off unless OTEL_EXPORTER_OTLP_ENDPOINT is set; under the episode's span when handed one
    with telemetry.running("gptnt-player"), telemetry.inherited():
        asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    main()
