"""``python -m gptnt.services.player --game-id ID [--config JSON]``.

The config is the service's own section (``gptnt.services.player.api.PlayerServiceConfig``) as
JSON, exactly what the manager hands a player task: ``--config``, else ``$GPTNT_SERVICE_CONFIG``
(how the manager passes it: a ``base_url`` may hold a secret, and a command line is public).
Connects with ``$GPTNT_REDIS_URL`` (this role's own ACL user) and serves turns until the manager
calls ``stop``.
"""

from __future__ import annotations

import redis.asyncio as aioredis

from gptnt.errors import ConfigError
from gptnt.services.bus import CONFIG_ENV, GameKeys, service_main
from gptnt.services.player import PlayerService, PlayerServiceConfig


async def _serve(redis: aioredis.Redis, keys: GameKeys, given: str | None) -> None:
    if given is None:
        raise ConfigError(f"--config or ${CONFIG_ENV}: give the service's PlayerServiceConfig")
    await PlayerService(redis, keys, PlayerServiceConfig.model_validate_json(given)).run()


def main() -> None:
    help_ = f"the service's PlayerServiceConfig as JSON; default ${CONFIG_ENV}"
    service_main("gptnt.services.player", __doc__, help_, _serve)


if __name__ == "__main__":
    main()
