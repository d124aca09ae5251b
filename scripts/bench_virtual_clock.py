"""Benchmark of async play on the virtual clock: faster than real time on the simulator.

The scripted oracle pair plays an async episode on the virtual clock with a fixed latency of
``--latency`` seconds per turn (5 by default: a slow model), in-process services over one
embedded Redis. The floor is the episode's own game time: what the same episode takes on the
wall clock, where the bomb clock runs in real time. Prints, as medians over ``--episodes``:

- the wall seconds of the whole episode (startup, play, shutdown, records) and of play alone
  (from the first to the last turn's record);
- the game seconds it used, and the ratio game time / wall time (> 1: faster than real time).

    .venv/bin/python scripts/bench_virtual_clock.py [--mission 3] [--latency 5] [--episodes 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from gptnt.config import GameConfig
from gptnt.records import Ledger, TurnEvent, read_events
from gptnt.services.bus import EmbeddedRedis
from gptnt.services.manager import EpisodeSettings, EpisodeSpec, play_episode

SETTINGS = EpisodeSettings(launch="task", game=GameConfig(startup_timeout_s=60))


async def one(spec: EpisodeSpec, url: str, run_dir: Path) -> tuple[float, float, float]:
    """(wall seconds of the episode, wall seconds of play, game seconds used)."""
    begin = time.perf_counter()
    summary = await play_episode(spec, SETTINGS, admin_url=url, run_dir=run_dir)
    wall = time.perf_counter() - begin
    if summary.game_time_used is None or summary.outcome == "crashed":
        raise SystemExit(f"the episode did not finish: {summary.outcome} ({summary.reason})")
    events = read_events(run_dir / Ledger(run_dir).latest()[spec.key].episode_dir)
    turns = [e for e in events if isinstance(e, TurnEvent)]
    play = turns[-1].dispatched_at - turns[0].started_at
    return wall, play, summary.game_time_used


async def main(args: argparse.Namespace) -> None:
    latency = f"fixed:{args.latency:g}"
    spec = EpisodeSpec.make(args.mission, "async", clock="virtual", latency=latency)
    with EmbeddedRedis() as server, tempfile.TemporaryDirectory() as tmp:
        runs = [await one(spec, server.url, Path(tmp) / str(n)) for n in range(args.episodes)]
    wall = statistics.median(r[0] for r in runs)
    play = statistics.median(r[1] for r in runs)
    game = statistics.median(r[2] for r in runs)
    print(f"mission {args.mission}, async, virtual clock, latency {latency}; "
          f"{args.episodes} episode(s), medians")  # fmt: skip
    print(f"game time used (the floor: its wall time in real-time async): {game:8.1f} s")
    print(f"wall time, whole episode : {wall:8.1f} s = {game / wall:6.1f}× faster than game time")
    print(f"wall time, play only     : {play:8.1f} s = {game / play:6.1f}× faster than game time")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mission", default="3")
    parser.add_argument("--latency", type=float, default=5.0, help="seconds per turn")
    parser.add_argument("--episodes", type=int, default=3)
    asyncio.run(main(parser.parse_args()))
