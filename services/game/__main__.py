"""``python -m gptnt.services.game --game-id ID [--config JSON]``.

The config is the game section of the run configuration (``gptnt.config.GameConfig``) as
JSON, the very value a task launch passes in-process: ``--config``, else
``$GPTNT_SERVICE_CONFIG`` (how the manager passes it, off the public command line), else the
defaults. Connects with ``$GPTNT_REDIS_URL`` (the
game's own ACL user) and serves until the manager calls ``stop``.
"""

from __future__ import annotations

import argparse
import asyncio
import os

from gptnt.config import GameConfig
from gptnt.services.bus import CONFIG_ENV, ENV_URL, GameKeys, connect
from gptnt.services.game import GameService


async def _main(args: argparse.Namespace) -> None:
    given = args.config or os.environ.get(CONFIG_ENV)
    config = GameConfig.model_validate_json(given) if given else GameConfig()
    redis = connect(os.environ[ENV_URL])
    try:
        await GameService(redis, GameKeys(args.game_id), config).run()
    finally:
        await redis.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m gptnt.services.game", description=__doc__)
    parser.add_argument("--game-id", required=True)
    parser.add_argument(
        "--config", help=f"the game section as JSON; default ${CONFIG_ENV}, else the defaults"
    )
    from gptnt import telemetry

    # off unless OTEL_EXPORTER_OTLP_ENDPOINT is set; under the episode's span when handed one
    with telemetry.running("gptnt-game"), telemetry.inherited():
        asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    main()
