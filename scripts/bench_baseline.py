"""Benchmark of ``gptnt baseline random``: 11 module types × 1,000 episodes on every core.

Target (issue 18 item 7): the whole baseline in at most 5 minutes on 2 cores. Prints, each as a
median over ``--repeats`` and next to a floor measured in the same run:

- **floor**: seconds per episode on *one* worker (a small sample: ``--floor-per-kind`` episodes
  of each module type, in this process);
- **parallel**: seconds per episode of the full run on ``--workers`` processes, the speed-up
  over the floor (ideal: the number of workers) and the projected time of 11 × 1,000 episodes;
- CPU seconds per episode (this process and its workers), which a loaded machine inflates
  less than wall time.

Usage::

    .venv/bin/python scripts/bench_baseline.py              # the full 11,000 episodes
    .venv/bin/python scripts/bench_baseline.py --per-mission 10   # a quick look (1,100)
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

from gptnt.missions import load_missions
from gptnt.services.manager import BaselinePlayer, baseline_spec, play_baseline

TARGET_S = 300.0
FULL = 11 * 1000


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-mission", type=int, default=100, help="repeats per mission")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=1, help="timed runs of the whole set")
    parser.add_argument("--floor-per-kind", type=int, default=10)
    args = parser.parse_args()

    singles = [m for m in load_missions().values() if m.kind == "single"]
    specs = [baseline_spec(m.id, r) for m in singles for r in range(args.per_mission)]
    one_per_kind = {m.config.components[0]: m for m in singles}

    with tempfile.TemporaryDirectory() as tmp:
        player = BaselinePlayer()
        floor_specs = [
            baseline_spec(m.id, 1000 + r)
            for m in one_per_kind.values()
            for r in range(args.floor_per_kind)
        ]
        start = time.perf_counter()
        for spec in floor_specs:
            player.play(spec, Path(tmp) / "floor")
        floor = (time.perf_counter() - start) / len(floor_specs)

        walls, cpus = [], []
        for i in range(args.repeats):
            cpu0, start = _cpu(), time.perf_counter()
            done = play_baseline(specs, Path(tmp) / f"run{i}", workers=args.workers)
            walls.append((time.perf_counter() - start) / len(done))
            cpus.append((_cpu() - cpu0) / len(done))

    per_episode = statistics.median(walls)
    projected = per_episode * FULL
    print(f"episodes per run: {len(specs)} on {args.workers} worker(s); cores: {os.cpu_count()}")
    print(f"floor    (1 worker)  : {floor * 1000:8.1f} ms/episode")
    print(
        f"parallel             : {per_episode * 1000:8.1f} ms/episode = "
        f"{floor / per_episode:4.2f}× the floor (ideal {args.workers}×)"
    )
    print(f"CPU                  : {statistics.median(cpus) * 1000:8.1f} ms/episode")
    print(
        f"11 × 1,000 episodes  : {projected:8.1f} s projected "
        f"({projected / TARGET_S:4.2f}× the {TARGET_S:.0f} s target)"
    )


if __name__ == "__main__":
    main()
