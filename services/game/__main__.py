"""``python -m gptnt.services.game --game-id ID --config JSON``.

``--config`` is the game section of the run configuration (``gptnt.config.GameConfig``) as
JSON, the very value a task launch passes in-process. Connects with ``$GPTNT_REDIS_URL`` (the
game's own ACL user) and serves until the manager calls ``stop``.
"""

from __future__ import annotations

import argparse
import asyncio
import os

from gptnt.config import GameConfig
from gptnt.services.bus import ENV_URL, GameKeys, connect
from gptnt.services.game import GameService


async def _main(args: argparse.Namespace) -> None:
    config = GameConfig.model_validate_json(args.config)
    redis = connect(os.environ[ENV_URL])
    try:
        await GameService(redis, GameKeys(args.game_id), config).run()
    finally:
        await redis.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m gptnt.services.game", description=__doc__)
    parser.add_argument("--game-id", required=True)
    parser.add_argument(
        "--config", default=GameConfig().model_dump_json(), help="the game section as JSON"
    )
    from gptnt import telemetry

    with telemetry.running("gptnt-game"):  # off unless OTEL_EXPORTER_OTLP_ENDPOINT is set
        asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    main()
