"""By hand: the oracle pair plays the 10 multi-module missions under one rule seed (sync).

    .venv/bin/python scripts/ruleseed_oracle_pair.py --rule-seed 1764 --pools POOLS.json

The Expert's rules are the seed's ruleset, the tables its manual is typeset from: the script
builds that manual, checks that a manual directory of it is refused for any other rule seed,
then plays every mission over an embedded Redis and prints one line per episode. Exits 1 unless
every mission is solved.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rule-seed", type=int, default=1764)
    parser.add_argument("--pools", type=Path, default=None)
    parser.add_argument("--mode", default="sync", choices=("sync", "async"))
    args = parser.parse_args()

    from gptnt.errors import ConfigError
    from gptnt.manual import build_manual, load_manual, save
    from gptnt.rules.ruleseed import ENV
    from gptnt.rules.ruleset import ruleset
    from gptnt.services.bus import redis_url
    from gptnt.services.manager import EpisodeSettings, EpisodeSpec, play_episode

    if args.pools is not None:
        os.environ[ENV] = str(args.pools.resolve())  # read when the pools are located, below
    rules = ruleset(args.rule_seed)
    rules.require(["Morse", "Password"])
    manual = build_manual(args.rule_seed)
    print(f"ruleset {rules.identity}; manual {manual.identity} ({len(manual.pages)} pages)")
    with tempfile.TemporaryDirectory() as tmp:
        save(manual, Path(tmp) / "manual", heights=(448,))
        try:
            load_manual(Path(tmp) / "manual", rule_seed=1)
        except ConfigError as err:
            print(f"a game of rule seed 1 refuses it: {err}")
        else:
            print("ERROR: a rule-seed-1 game accepted the manual")
            return 1
        settings = EpisodeSettings(launch="task", idle_sleep_s=0.05, turn_timeout_s=30)
        solved = 0
        with redis_url(None) as url:
            for mission in map(str, range(1, 11)):
                spec = EpisodeSpec.make(mission, args.mode, rule_seed=args.rule_seed)
                started = time.perf_counter()
                s = asyncio.run(
                    play_episode(spec, settings, admin_url=url, run_dir=Path(tmp) / "run")
                )
                solved += s.outcome == "solved"
                print(
                    f"mission {mission:>2}: {s.outcome:<9} modules {s.modules_solved}/"
                    f"{len(s.modules)} strikes {s.strikes} clock {s.game_time_used or 0:5.0f}/"
                    f"{s.time_limit:.0f} s, messages D/E {s.messages.get('defuser', 0)}/"
                    f"{s.messages.get('expert', 0)}, rule seed {s.rule_seed}, "
                    f"{time.perf_counter() - started:.1f} s wall"
                )
    print(f"{solved}/10 solved under rule seed {args.rule_seed} ({args.mode})")
    return 0 if solved == 10 else 1


if __name__ == "__main__":
    sys.exit(main())
