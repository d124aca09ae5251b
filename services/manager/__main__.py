"""``python -m gptnt.services.manager --scheduler tcp://HOST:8786 [--config run.yaml]
[--redis-url URL] [--out DIR] [--games N]``: a game host of a suite's Dask cluster; the same
worker as ``gptnt worker``.

Its settings are the layered configuration's (``gptnt.config``): defaults < ``--config`` <
``GPTNT_*`` variables (``GPTNT_BUS_SCHEDULER``, ``GPTNT_REDIS_URL``) < these flags, of which it
reads ``bus.scheduler`` (where the suite's episodes come from), ``bus.redis_url`` (an admin
user's URL of this host's Redis, where its games meet; unset: an embedded server) and
``records.out`` (the staging directory). Each episode is played with the settings the suite
sent with it. Exit codes as ``gptnt``'s: 2 for bad input (one line), 130 when stopped by SIGINT
or SIGTERM, 1 when the scheduler went away.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from gptnt.config import load_config
from gptnt.errors import ConfigError
from gptnt.services.bus import redis_url as resolve_redis
from gptnt.services.manager.host import serve

# Options that are settings of the layered configuration; left out, they set nothing.
SETTINGS = {
    "scheduler": ("bus.scheduler", "--scheduler"),
    "redis_url": ("bus.redis_url", "--redis-url"),
    "out": ("records.out", "--out"),
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m gptnt.services.manager", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--config", type=Path, help="a YAML file of settings by section")
    parser.add_argument("--scheduler", default=None, help="(setting bus.scheduler)")
    parser.add_argument("--redis-url", default=None, help="(setting bus.redis_url)")
    parser.add_argument(
        "--out", type=Path, default=None, help="staging directory (setting records.out)"
    )
    parser.add_argument("--games", type=int, default=1, help="games played in parallel")
    args = parser.parse_args(argv)
    try:
        if args.games < 1:
            raise ConfigError(f"--games {args.games}: play at least 1 game")
        layered = load_config(
            args.config,
            flags={key: getattr(args, name) for name, (key, _) in SETTINGS.items()},
            flag_names={key: flag for key, flag in SETTINGS.values()},
        )
        scheduler = layered.config.bus.scheduler_address("python -m gptnt.services.manager")
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
    print(f"manager: taking episodes from {scheduler}", flush=True)
    with resolve_redis(layered.config.bus.redis_url) as url:
        stopped_by = asyncio.run(serve(scheduler, url, layered.config.records.out, args.games))
    print(f"manager: stopped by {stopped_by}; its episodes in flight are recorded", file=sys.stderr)
    sys.exit(130 if stopped_by.startswith("SIG") else 1)


if __name__ == "__main__":
    main()
