"""``python -m services.game --game-id ID [--backend sim|sim-process|URL]``.

Connects with ``$GPTNT_REDIS_URL`` (the game's own ACL user) and serves until the manager calls
``stop``.
"""

from __future__ import annotations

import argparse
import asyncio
import os

from services.bus import ENV_URL, GameKeys, connect
from services.game import BackendSpec, GameService, GameServiceConfig


async def _main(args: argparse.Namespace) -> None:
    redis = connect(os.environ[ENV_URL])
    spec = BackendSpec(
        kind=args.backend, width=args.width, height=args.height, rule_seed=args.rule_seed,
        deadline_s=args.deadline,
    )  # fmt: skip
    try:
        config = GameServiceConfig(startup_timeout_s=args.startup_timeout)
        await GameService(redis, GameKeys(args.game_id), spec, config).run()
    finally:
        await redis.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m services.game", description=__doc__)
    parser.add_argument("--game-id", required=True)
    parser.add_argument("--backend", default="sim", help="sim, sim-process or a URL")
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=480)
    parser.add_argument("--rule-seed", type=int, default=1)
    parser.add_argument("--deadline", type=float, default=10.0, help="wall seconds per game call")
    parser.add_argument(
        "--startup-timeout",
        type=float,
        default=30.0,
        help="wall seconds for the backend to answer, and to reach lights on",
    )
    asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    main()
