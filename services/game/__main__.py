"""``python -m gptnt.services.game --game-id ID [--config JSON]``.

The config is the game section of the run configuration (``gptnt.config.GameConfig``) as
JSON, the very value a task launch passes in-process: ``--config``, else
``$GPTNT_SERVICE_CONFIG`` (how the manager passes it, off the public command line), else the
defaults. Connects with ``$GPTNT_REDIS_URL`` (the
game's own ACL user) and serves until the manager calls ``stop``.
"""

from __future__ import annotations

import redis.asyncio as aioredis

from gptnt.config import GameConfig
from gptnt.services.bus import CONFIG_ENV, GameKeys, service_main
from gptnt.services.game import GameService


async def _serve(redis: aioredis.Redis, keys: GameKeys, given: str | None) -> None:
    config = GameConfig.model_validate_json(given) if given else GameConfig()
    await GameService(redis, keys, config).run()


def main() -> None:
    help_ = f"the game section as JSON; default ${CONFIG_ENV}, else the defaults"
    service_main("gptnt.services.game", __doc__, help_, _serve)


if __name__ == "__main__":
    main()
