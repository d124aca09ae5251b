"""Benchmark of ``gptnt baseline random``: 11 module types × 1,000 episodes on every core.

Target (issue 18 item 7): the whole baseline in at most 5 minutes on 2 cores. Prints, each as a
median over ``--repeats`` and as a ratio to a floor measured in the same run:

- **floor**: seconds per episode of the simulator alone (the same missions started, lit and
  stepped through their whole clock, with no player and no record), in this process;
- **one worker**: seconds per baseline episode in this process (``play_baseline`` with one
  worker): its ratio to the floor is what the episode loop, the policy and the records cost;
- **parallel**: seconds per episode of the full run on ``--workers`` processes and the
  projected time of 11 × 1,000 episodes;
- CPU seconds per episode (``time.process_time``) of the floor and of one worker, their ratio,
  and their difference: the loop's own CPU per episode. A loaded machine inflates CPU time
  much less than wall time, so compare versions by these.

Compare two versions by running this same script with each version's library (the script only
uses what both export): the figures of the episode loop before it was shared with served
episodes, measured that way, are in docs/benchmarks.md.

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

from gptnt.missions import Mission, load_missions
from gptnt.protocol import Lifecycle
from gptnt.rules.ruleset import ruleset
from gptnt.services.manager import BASELINE_SIZE, baseline_spec, play_baseline
from gptnt.sim.game import Game

TARGET_S = 300.0
FULL = 11 * 1000


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _floor(missions: list[Mission]) -> tuple[float, float]:
    """Wall and CPU seconds per episode of the simulator alone: each mission started, lit and
    stepped until its clock runs out."""
    width, height = BASELINE_SIZE
    game = Game(width=width, height=height, transition_seconds=0.0, clock=lambda: 0.0,
                capture_frames=False, ruleset=ruleset(1))  # fmt: skip
    start, cpu = time.perf_counter(), time.process_time()
    for mission in missions:
        if game.health() != Lifecycle.SETUP.value:
            game.reset()
            game.health()
        game.start_mission(mission.config)
        game.fast_forward(Lifecycle.LIGHTS_ON)
        while not game.state().is_detonated:
            game.timestep()
            game.buffer(last=0)
    n = len(missions)
    return (time.perf_counter() - start) / n, (time.process_time() - cpu) / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-mission", type=int, default=100, help="repeats per mission")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each measure")
    parser.add_argument("--floor-per-kind", type=int, default=10)
    args = parser.parse_args()

    singles = [m for m in load_missions().values() if m.kind == "single"]
    specs = [baseline_spec(m.id, r) for m in singles for r in range(args.per_mission)]
    one_per_kind = list({m.config.components[0]: m for m in singles}.values())
    sample = [m for m in one_per_kind for _ in range(args.floor_per_kind)]
    sample_specs = [baseline_spec(m.id, 1000 + i) for i, m in enumerate(sample)]

    floors, floor_cpus, ones, one_cpus, walls, cpus = [], [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        # Warm-up, not timed: imports, the simulator's picture caches, the mask PNGs.
        play_baseline(sample_specs, Path(tmp) / "warm", workers=1)
        _floor(sample)
        for i in range(args.repeats):
            wall, cpu = _floor(sample)
            floors.append(wall)
            floor_cpus.append(cpu)
            start, cpu0 = time.perf_counter(), time.process_time()
            play_baseline(sample_specs, Path(tmp) / f"one{i}", workers=1)
            ones.append((time.perf_counter() - start) / len(sample_specs))
            one_cpus.append((time.process_time() - cpu0) / len(sample_specs))
            cpu0, start = _cpu(), time.perf_counter()
            done = play_baseline(specs, Path(tmp) / f"run{i}", workers=args.workers)
            walls.append((time.perf_counter() - start) / len(done))
            cpus.append((_cpu() - cpu0) / len(done))

    floor, one, per_episode = (statistics.median(x) for x in (floors, ones, walls))
    floor_cpu, one_cpu = statistics.median(floor_cpus), statistics.median(one_cpus)
    loop_cpu = statistics.median(o - f for o, f in zip(one_cpus, floor_cpus, strict=True))
    projected = per_episode * FULL
    print(f"episodes per run: {len(specs)} on {args.workers} worker(s); cores: {os.cpu_count()}")
    print(f"load average         : {os.getloadavg()[0]:8.2f} (1 min, at the end)")
    print(f"floor (simulator)    : {floor * 1000:8.1f} ms/episode")
    print(f"one worker           : {one * 1000:8.1f} ms/episode = {one / floor:5.2f}× the floor")
    print(
        f"one worker, CPU      : {one_cpu * 1000:8.1f} ms/episode = "
        f"{one_cpu / floor_cpu:5.2f}× the floor's {floor_cpu * 1000:.1f} ms; "
        f"the loop's own {loop_cpu * 1000:.1f} ms"
    )
    print(
        f"parallel             : {per_episode * 1000:8.1f} ms/episode = "
        f"{per_episode / floor:5.2f}× the floor ({one / per_episode:4.2f}× one worker, "
        f"ideal {args.workers}×)"
    )
    print(f"parallel, CPU        : {statistics.median(cpus) * 1000:8.1f} ms/episode")
    print(
        f"11 × 1,000 episodes  : {projected:8.1f} s projected "
        f"({projected / TARGET_S:4.2f}× the {TARGET_S:.0f} s target)"
    )


if __name__ == "__main__":
    main()
