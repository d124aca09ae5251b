"""``python -m gptnt.services.player --game-id ID --config JSON``.

``--config`` is the service's own section (``gptnt.services.player.api.PlayerServiceConfig``) as
JSON, exactly what the manager hands a player task. Connects with ``$GPTNT_REDIS_URL`` (this
role's own ACL user) and serves turns until the manager calls ``stop``.
"""

from __future__ import annotations

import argparse
import asyncio
import os

from gptnt.services.bus import ENV_URL, GameKeys, connect
from gptnt.services.player import PlayerService, PlayerServiceConfig


async def _main(args: argparse.Namespace) -> None:
    config = PlayerServiceConfig.model_validate_json(args.config)
    redis = connect(os.environ[ENV_URL])
    try:
        await PlayerService(redis, GameKeys(args.game_id), config).run()
    finally:
        await redis.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m gptnt.services.player", description=__doc__)
    parser.add_argument("--game-id", required=True)
    parser.add_argument("--config", required=True, help="the service's PlayerServiceConfig as JSON")
    from gptnt import telemetry

    with telemetry.running("gptnt-player"):  # off unless OTEL_EXPORTER_OTLP_ENDPOINT is set
        asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    main()
