"""Benchmark of a suite's per-episode overhead, with the scripted oracle pair (no model time).

Plays the same short oracle episode several times per launch mode, one after another on one
embedded Redis, as a suite worker does, and splits each episode's wall time into

- **play**: lights on to the last turn (the episode itself);
- **start-up**: the game's own start-up call, dark to ``LightsOn`` (on the simulator, which
  fast-forwards it, one call; on the real game 0.5 s of dark and 1.5 s of game time, paused
  after);
- **overhead**: everything else — ACL users, starting the three services, readiness, the
  mission start, shutdown, deleting the users and keys.

The table shows the overhead both without and with the start-up, so the last column is what an
episode costs beyond its play: wall − play. The target of a suite is ≤ 0.5 s of it per episode.

Launch modes: ``process`` (before: a fresh interpreter per service, importing the stack each
time), ``warm`` (after: services forked from a warm server, ``gptnt.services.manager._warm``) and
``task`` (the floor: the same services as tasks in this process, no process at all). Prints
medians in seconds and each mode's overheads as ratios to the floor measured in the same run.

    .venv/bin/python scripts/bench_suite.py [--episodes 5] [--mission Wires-234] [--mode sync]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from gptnt.records import read_events
from gptnt.services.bus import EmbeddedRedis
from gptnt.services.game import api as game_api
from gptnt.services.manager import Episode, EpisodeSettings, EpisodeSpec, play_episode

MODES = ("process", "warm", "task")


async def _run(
    url: str, launch: str, mission: str, mode: str, episodes: int
) -> list[dict[str, float]]:
    lights: list[float] = []
    original = Episode._game

    async def timed(self, method, params=None, **kw):  # type: ignore[no-untyped-def]
        t0 = time.monotonic()
        try:
            return await original(self, method, params, **kw)
        finally:
            if method == game_api.LIGHTS_ON:
                lights.append(time.monotonic() - t0)

    Episode._game = timed  # type: ignore[method-assign]
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            run_dir = Path(tmp)
            for i in range(episodes + 1):  # the first one warms up (imports, warm server)
                spec = EpisodeSpec.make(mission, mode, repeat=i)  # type: ignore[arg-type]
                t0 = time.monotonic()
                summary = await play_episode(
                    spec, EpisodeSettings(launch=launch), admin_url=url, run_dir=run_dir
                )  # type: ignore[arg-type]
                wall = time.monotonic() - t0
                assert summary.outcome == "solved", summary.reason
                events = list(read_events(next((run_dir / "episodes").glob(f"*.r{i}-a1"))))
                start = next(e.at for e in events if e.kind == "game_step" and e.what == "start")
                last = max(e.dispatched_at for e in events if e.kind == "turn")
                if i:
                    play = last - start
                    rows.append({"wall": wall, "play": play, "lights": lights[-1],
                                 "overhead": wall - play - lights[-1]})  # fmt: skip
    finally:
        Episode._game = original  # type: ignore[method-assign]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=5)
    parser.add_argument("--mission", default="Wires-234")
    parser.add_argument("--mode", choices=("sync", "async"), default="sync")
    args = parser.parse_args()
    medians: dict[str, dict[str, float]] = {}
    with EmbeddedRedis() as redis:
        for launch in MODES:
            rows = asyncio.run(_run(redis.url, launch, args.mission, args.mode, args.episodes))
            medians[launch] = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    floor = medians["task"]
    table = Table(title=f"Per-episode time, {args.mission} {args.mode}, oracle pair "
                  f"(median of {args.episodes}; seconds of wall time)")  # fmt: skip
    columns = ("launch", "wall", "play", "start-up", "overhead", "/ floor",
               "overhead + start-up", "/ floor")  # fmt: skip
    for column in columns:
        table.add_column(column, justify="left" if column == "launch" else "right")
    for launch, m in medians.items():
        total = m["wall"] - m["play"]
        table.add_row(launch, f"{m['wall']:.2f}", f"{m['play']:.2f}", f"{m['lights']:.2f}",
                      f"{m['overhead']:.2f}", f"{m['overhead'] / floor['overhead']:.1f}×",
                      f"{total:.2f}", f"{total / (floor['wall'] - floor['play']):.1f}×")  # fmt: skip
    table.caption = (
        "floor: the task launch (services in this process). process = before (a fresh "
        "interpreter per service); warm = after (forked from the warm server). "
        "overhead + start-up = wall − play: what an episode costs beyond its play "
        "(target ≤ 0.5 s)."
    )
    Console().print(table)


if __name__ == "__main__":
    main()
