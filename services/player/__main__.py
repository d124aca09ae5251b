"""``python -m services.player --game-id ID --role defuser|expert --player JSON --episode-dir DIR``.

Connects with ``$GPTNT_REDIS_URL`` (this role's own ACL user) and serves turns until the
manager calls ``stop``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path

from gptnt.players.seats import SeatChoice
from services.bus import ENV_URL, GameKeys, connect
from services.player import PlayerService, make_policy


async def _main(args: argparse.Namespace) -> None:
    redis = connect(os.environ[ENV_URL])
    choice = SeatChoice.model_validate_json(args.player)
    policy = make_policy(choice, mode=args.mode, seed=args.seed, step_seconds=args.step_seconds)
    try:
        await PlayerService(
            redis, GameKeys(args.game_id), args.role, policy,
            episode_dir=Path(args.episode_dir), mode=args.mode,
        ).run()  # fmt: skip
    finally:
        await redis.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m services.player", description=__doc__)
    parser.add_argument("--game-id", required=True)
    parser.add_argument("--role", required=True, choices=["defuser", "expert"])
    parser.add_argument(
        "--player", required=True, help="the seat's SeatChoice as JSON (gptnt.players.seats)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--step-seconds", type=float, default=3.0, help="game seconds per sync /timestep"
    )
    parser.add_argument("--mode", default="sync", choices=["sync", "async"])
    parser.add_argument("--episode-dir", required=True)
    asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    main()
