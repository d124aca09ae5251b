"""``python -m services.manager [--redis-url URL] [--out runs] [--games N]``: an Experiment
Manager that takes episodes from the suites' queue on this Redis (``gptnt worker`` is the same).

The URL must be an admin user's (the manager creates each game's ACL users); it defaults to
``$GPTNT_REDIS_URL``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path

from services.bus import ENV_URL, connect
from services.manager._queue import work


async def _main(url: str, out: Path, games: int) -> None:
    await asyncio.gather(*(work(connect(url), url, out) for _ in range(games)))


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m services.manager", description=__doc__)
    parser.add_argument("--redis-url", default=os.environ.get(ENV_URL))
    parser.add_argument("--out", type=Path, default=Path("runs"))
    parser.add_argument("--games", type=int, default=1)
    args = parser.parse_args()
    if not args.redis_url:
        parser.error(f"--redis-url or ${ENV_URL} is required (the queue lives in that Redis)")
    asyncio.run(_main(args.redis_url, args.out, args.games))


if __name__ == "__main__":
    main()
