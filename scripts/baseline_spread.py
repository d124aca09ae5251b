"""How much of a random-baseline rate is the bombs, not the mechanics (run by hand).

The paper's random baseline, like ours, plays each module type's **10 fixed bombs** (the
single-module missions) 100 times each. The simulator cannot rebuild the real game's bomb for
a seed (the game's generator and Unity's RNG are not public), so our 10 bombs are other draws
from the generation distributions than the paper's. How far two sets of 10 bombs may
legitimately disagree depends on how much the random Defuser's success varies from bomb to
bomb, which this script measures:

1. for each module type, play ``--repeats`` random-Defuser episodes on each of ``--bombs``
   bombs drawn with fresh seeds (not the missions' seeds), with the missions' settings;
2. print the overall rate, the between-bomb standard deviation of the per-bomb rate, and the
   standard deviation of a *10-bomb × 100-episode* module rate — next to the binomial one
   (n = 1,000) that treats the 1,000 episodes as independent.

Where the ratio of the two is large, a comparison of two 10-bomb baselines must use the
10-bomb error, not the binomial one.

Usage: ``.venv/bin/python scripts/baseline_spread.py [--bombs 60] [--repeats 20] [--kinds Morse,Maze]``
"""

from __future__ import annotations

import argparse
import math
import statistics
import tempfile
from pathlib import Path

from gptnt.services.manager import BaselinePlayer, baseline_spec

from gptnt.missions import load_missions

SEED_BASE = 100_000  # fresh seeds, far from the missions' 234…960


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bombs", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--kinds", default="", help="comma list; default every module type")
    args = parser.parse_args()

    singles = [m for m in load_missions().values() if m.kind == "single"]
    templates = {m.config.components[0]: m for m in singles}
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()] or list(templates)
    player = BaselinePlayer()
    print(f"{args.bombs} fresh bombs × {args.repeats} episodes per module type")
    print(
        f"{'module':14} {'rate':>7} {'SD bomb':>8} {'SD 10×100':>10} {'SD binom':>9} {'ratio':>6}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            template = templates[kind]
            per_bomb = []
            for b in range(args.bombs):
                seed = SEED_BASE + b
                mission = template.model_copy(
                    update={
                        "id": f"{kind}-{seed}",
                        "config": template.config.model_copy(update={"seed": seed}),
                    }
                )
                player._missions[mission.id] = mission
                wins = sum(
                    player.play(baseline_spec(mission.id, r), Path(tmp))[0].outcome == "solved"
                    for r in range(args.repeats)
                )
                per_bomb.append(wins / args.repeats)
            rate = statistics.fmean(per_bomb)
            # Per-bomb rates carry their own binomial noise; remove it from the spread.
            noise = statistics.fmean(p * (1 - p) for p in per_bomb) / max(args.repeats - 1, 1)
            between = math.sqrt(max(statistics.pvariance(per_bomb) - noise, 0.0))
            ten = math.sqrt(between**2 / 10 + rate * (1 - rate) / 1000)
            binom = math.sqrt(rate * (1 - rate) / 1000)
            ratio = ten / binom if binom else float("nan")
            print(f"{kind:14} {rate:7.1%} {between:8.1%} {ten:10.1%} {binom:9.1%} {ratio:6.1f}")


if __name__ == "__main__":
    main()
