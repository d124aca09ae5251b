"""Benchmark of a suite's job distribution (Dask distributed): episodes per second across local
workers against the single-process floor, and lost and duplicated episodes.

Plays the same N short scripted episodes (the oracle pair on one mission, sync, task launch,
one repeat each) three ways, each into a fresh run directory:

- **floor**: one after another in this process (``play_episode``), no engine at all;
- **1 worker**: ``run_suite`` on a local cluster of one worker process (what the engine costs
  per episode: its wall minus the floor's, per episode);
- **W workers**: ``run_suite`` on a local cluster of W worker processes.

Prints episodes per second, each as a ratio to the floor measured in the same run, the engine's
overhead per episode, and the lost (no finished attempt) and duplicated (more than one ledger
line) episodes of each run, which must be 0 and 0.

    .venv/bin/python scripts/bench_queue.py [--episodes 100] [--workers 4] [--mission Wires-234]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.table import Table

from gptnt.records import Ledger
from gptnt.services.bus import EmbeddedRedis
from gptnt.services.manager import EpisodeSettings, EpisodeSpec, play_episode
from gptnt.services.manager.suite import run_suite


def _specs(mission: str, n: int) -> list[EpisodeSpec]:
    return [EpisodeSpec.make(mission, "sync", repeat=i, seed=i) for i in range(n)]


async def _floor(url: str, specs: list[EpisodeSpec], run_dir: Path) -> None:
    for spec in specs:
        await play_episode(spec, EpisodeSettings(launch="task"), admin_url=url, run_dir=run_dir)


def _count(run_dir: Path, specs: list[EpisodeSpec]) -> tuple[int, int]:
    """Lost (no finished attempt) and duplicated (more than one ledger line) episodes."""
    entries = list(Ledger(run_dir).entries())
    finished = {e.episode_key for e in entries if e.status == "finished"}
    lines = Counter(e.episode_key for e in entries)
    lost = sum(spec.key not in finished for spec in specs)
    return lost, sum(n > 1 for n in lines.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=100)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--mission", default="Wires-234")
    args = parser.parse_args()
    specs = _specs(args.mission, args.episodes)
    rows: dict[str, tuple[float, int, int]] = {}
    with EmbeddedRedis() as redis, tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_floor(redis.url, specs[:1], Path(tmp) / "warm-up"))  # imports, caches
        t0 = time.monotonic()
        asyncio.run(_floor(redis.url, specs, Path(tmp) / "floor"))
        rows["floor (1 process)"] = (time.monotonic() - t0, *_count(Path(tmp) / "floor", specs))
        for workers in dict.fromkeys((1, args.workers)):
            run_dir = Path(tmp) / f"dask-{workers}"
            t0 = time.monotonic()
            run_suite(run_dir, specs, EpisodeSettings(launch="task"), games=workers,
                      redis_url=redis.url)  # fmt: skip
            rows[f"{workers} worker(s)"] = (time.monotonic() - t0, *_count(run_dir, specs))
    floor = rows["floor (1 process)"][0]
    table = Table(title=f"{args.episodes} scripted episodes ({args.mission} sync, oracle pair, "
                  "task launch), wall seconds")  # fmt: skip
    for column in ("run", "wall", "episodes/s", "/ floor", "overhead per episode", "lost",
                   "duplicated"):  # fmt: skip
        table.add_column(column, justify="left" if column == "run" else "right")
    for name, (wall, lost, duplicated) in rows.items():
        table.add_row(name, f"{wall:.1f}", f"{args.episodes / wall:.2f}", f"{floor / wall:.2f}×",
                      f"{(wall - floor) / args.episodes:+.2f} s", str(lost), str(duplicated))  # fmt: skip
    table.caption = (
        "floor: the same episodes one after another in this process, no engine. / floor: "
        "episodes per second as a ratio to the floor's. overhead per episode: (wall − floor's "
        "wall) ÷ episodes; for 1 worker it is what the engine costs (cluster start, task "
        "hand-off, records shipped and checked). lost and duplicated must be 0."
    )
    Console(width=140).print(table)


if __name__ == "__main__":
    main()
