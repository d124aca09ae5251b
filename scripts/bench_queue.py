"""Benchmark of a suite's job distribution (Dask distributed) across local ``gptnt worker``
processes: episodes per second against the single-process floor, and lost and duplicated
episodes.

Plays the same N short scripted episodes (the oracle pair on one mission, sync, task launch,
one repeat each) into a fresh run directory per round, three ways:

- **floor**: one after another in this process (``play_episode``), no engine at all;
- **W workers** (each of ``--workers``, default 4): ``run_suite`` (what ``gptnt suite run
  --scheduler`` calls) as a client of a ``dask scheduler`` with the suite's policy that W
  ``gptnt worker`` processes joined, one game each, each in its own working directory with its
  own embedded Redis, as on separate game hosts. With ``--workers 1 4``, the 1-worker row's
  wall minus the floor's, per episode, is what the engine costs per episode.

The scheduler and the workers are started, joined and warmed up (one untimed episode each)
before the clock starts: the figures are the suite's, not the fleet's start-up. Each floor round
is played just before the same round of the first fleet. Prints the median wall of each
(``--rounds``), episodes per second as a ratio to the floor's, the overhead per episode, and the
lost, duplicated and retried episodes of the worst round, counted from the ledger and the
records on disk (lost and duplicated must be 0), with the load average before and after.

    .venv/bin/python scripts/bench_queue.py [--episodes 100] [--workers 4] [--rounds 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from distributed import Client
from rich.console import Console
from rich.table import Table

from gptnt.records import Ledger, read_summary
from gptnt.services.bus import EmbeddedRedis
from gptnt.services.manager import EpisodeSettings, EpisodeSpec, play_episode
from gptnt.services.manager.suite import SCHEDULER_ENV, run_suite

GPTNT = [sys.executable, "-c", "from gptnt.cli import main; main()"]
_JOIN_S = 120.0  # wall seconds for the scheduler to listen and the workers to join
_STOP_S = 60.0  # wall seconds for a worker to exit after SIGTERM


def _specs(mission: str, n: int) -> list[EpisodeSpec]:
    return [EpisodeSpec.make(mission, "sync", repeat=i, seed=i) for i in range(n)]


@dataclass
class _Row:
    walls: list[float] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)
    duplicated: list[int] = field(default_factory=list)
    retried: list[int] = field(default_factory=list)
    why: Counter[str] = field(default_factory=Counter)  # reasons of the attempts not finished

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)


def _count(run_dir: Path, specs: list[EpisodeSpec]) -> tuple[int, int, int, Counter[str]]:
    """Lost, duplicated and retried episodes of a run, from its ledger and its records.

    Lost: an episode with no finished ledger line whose records on disk hold a game outcome.
    Duplicated: an episode with more than one finished line, an attempt with more than one
    line, a line of an episode not asked for, or more than one attempt folder with a game
    outcome. Retried: an episode with a crashed or interrupted attempt (their reasons counted)."""
    entries = list(Ledger(run_dir).entries())
    keys = {spec.key for spec in specs}
    finished = Counter(e.episode_key for e in entries if e.status == "finished")
    lines = Counter((e.episode_key, e.attempt) for e in entries)
    played = Counter()
    for entry in entries:
        summary = read_summary(run_dir / entry.episode_dir)
        if summary is not None and summary.outcome in ("solved", "strikeout", "timeout"):
            played[entry.episode_key] += 1
    lost = sum(not finished[key] or not played[key] for key in keys)
    duplicated = {key for key, n in finished.items() if n > 1}
    duplicated |= {key for (key, _), n in lines.items() if n > 1}
    duplicated |= {key for key in finished if key not in keys}
    duplicated |= {key for key, n in played.items() if n > 1}
    unfinished = [e for e in entries if e.status != "finished"]
    retried = len({e.episode_key for e in unfinished})
    return lost, len(duplicated), retried, Counter(e.reason[:160] for e in unfinished)


def _record(row: _Row, wall: float, run_dir: Path, specs: list[EpisodeSpec]) -> None:
    lost, duplicated, retried, why = _count(run_dir, specs)
    row.why.update(why)
    row.walls.append(wall)
    row.lost.append(lost)
    row.duplicated.append(duplicated)
    row.retried.append(retried)


def _floor(url: str, specs: list[EpisodeSpec], run_dir: Path, row: _Row) -> None:
    async def play() -> None:
        for spec in specs:
            await play_episode(spec, EpisodeSettings(launch="task"), admin_url=url,
                               run_dir=run_dir)  # fmt: skip

    t0 = time.monotonic()
    asyncio.run(play())
    _record(row, time.monotonic() - t0, run_dir, specs)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def _scheduler() -> Iterator[str]:
    """A ``dask scheduler`` child with the suite's policy (``SCHEDULER_ENV``); its address."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", str(port), "--no-dashboard"],
        env={**os.environ, **SCHEDULER_ENV}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        end = time.monotonic() + _JOIN_S
        while True:
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", port), timeout=1.0).close()
                break
            if proc.poll() is not None or time.monotonic() > end:
                raise SystemExit(f"bench_queue: the dask scheduler did not listen on {port}")
            time.sleep(0.2)
        yield f"tcp://127.0.0.1:{port}"
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(_STOP_S)
        proc.kill()


class _Fleet:
    """``gptnt worker`` processes (one game each, each in its own folder with its own embedded
    Redis, as on separate game hosts) joined to the scheduler at ``address``."""

    def __init__(self, address: str, root: Path) -> None:
        self.address = address
        self.root = root
        self.procs: list[subprocess.Popen[bytes]] = []

    def grow(self, workers: int) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GPTNT_")}
        while len(self.procs) < workers:
            cwd = self.root / f"host-{len(self.procs)}"
            cwd.mkdir(parents=True)
            self.procs.append(subprocess.Popen(
                [*GPTNT, "worker", "--scheduler", self.address, "--games", "1", "--out",
                 "staging"],
                cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True,
            ))  # fmt: skip
        with Client(self.address, timeout=30) as client:
            end = time.monotonic() + _JOIN_S
            while len(client.scheduler_info(n_workers=-1)["workers"]) < workers:
                if time.monotonic() > end or any(p.poll() is not None for p in self.procs):
                    raise SystemExit(f"bench_queue: {workers} gptnt workers did not join")
                time.sleep(0.2)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(_STOP_S)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=100)
    parser.add_argument("--workers", type=int, nargs="+", default=[4], help="fleet sizes")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each; medians shown")
    parser.add_argument("--mission", default="Wires-234")
    args = parser.parse_args()
    specs = _specs(args.mission, args.episodes)
    load_before = os.getloadavg()
    floor = _Row()
    rows: dict[int, _Row] = {}
    with EmbeddedRedis() as redis, tempfile.TemporaryDirectory() as tmp, _scheduler() as address:
        root = Path(tmp)
        _floor(redis.url, specs[:1], root / "warm-up", _Row())  # imports, caches
        fleet = _Fleet(address, root / "hosts")
        try:
            for i, workers in enumerate(sorted(set(args.workers))):
                fleet.grow(workers)
                run_suite(root / f"warm-up-{workers}", specs[:workers],
                          EpisodeSettings(launch="task"), scheduler=address)  # fmt: skip
                row = rows.setdefault(workers, _Row())
                for r in range(args.rounds):
                    if i == 0:
                        _floor(redis.url, specs, root / f"floor-{r}", floor)
                    run_dir = root / f"w{workers}-{r}"
                    t0 = time.monotonic()
                    run_suite(run_dir, specs, EpisodeSettings(launch="task"), scheduler=address,
                              retries=2)  # fmt: skip
                    _record(row, time.monotonic() - t0, run_dir, specs)
        finally:
            fleet.stop()
    load_after = os.getloadavg()
    _print(args, floor, rows, load_before, load_after)


def _print(args: argparse.Namespace, floor: _Row, rows: dict[int, _Row],
           load_before: tuple[float, float, float],
           load_after: tuple[float, float, float]) -> None:  # fmt: skip
    n = args.episodes
    table = Table(title=f"{n} scripted episodes ({args.mission} sync, oracle pair, task launch); "
                  f"median of {args.rounds} round(s), wall seconds")  # fmt: skip
    for column in ("run", "wall", "episodes/s", "/ floor", "overhead per episode",
                   "lost", "duplicated", "retried"):  # fmt: skip
        table.add_column(column, justify="left" if column == "run" else "right")

    def counts(row: _Row) -> list[str]:
        return [str(max(row.lost)), str(max(row.duplicated)), str(max(row.retried))]

    spread = f" ({min(floor.walls):.1f}–{max(floor.walls):.1f})" if len(floor.walls) > 1 else ""
    table.add_row("floor (1 process, no engine)", f"{floor.wall:.1f}{spread}",
                  f"{n / floor.wall:.2f}", "1.00×", "–", *counts(floor))  # fmt: skip
    for workers, row in rows.items():
        table.add_row(f"{workers} gptnt worker(s)", f"{row.wall:.1f}", f"{n / row.wall:.2f}",
                      f"{floor.wall / row.wall:.2f}×", f"{(row.wall - floor.wall) / n:+.2f} s",
                      *counts(row))  # fmt: skip
    table.caption = (
        "floor: the same episodes one after another in this process (median of every floor "
        "round, range in brackets). / floor: episodes per second as a ratio to the floor's. "
        "overhead per episode: (wall − floor's wall) ÷ episodes. lost, duplicated, retried: "
        "the worst round, from the ledger and the records; lost and duplicated must be 0. "
        f"Load average (1, 5, 15 min) before: {_load(load_before)}; after: {_load(load_after)}; "
        f"{os.cpu_count()} CPUs."
    )
    console = Console(width=150)
    console.print(table)
    for name, row in [("floor", floor), *((f"{w} worker(s)", r) for w, r in rows.items())]:
        for reason, times in row.why.most_common():
            console.print(f"{name}: {times} attempt(s) not finished: {reason}", highlight=False)


def _load(load: tuple[float, float, float]) -> str:
    return " ".join(f"{x:.1f}" for x in load)


if __name__ == "__main__":
    main()
