"""Benchmark of the harness's own cost, with instant scripted policies (no model time).

Prints, measured in one run against one embedded Redis server:

- the median round trip of a bare Redis ``PING`` (the floor) and of a bus RPC, and their ratio;
- the median harness overhead per Defuser turn and per Expert turn (manager → player RPC →
  inbox drain → observation through the game service → policy → dispatch → record), with the
  policy's own time subtracted;
- the frame bytes moved per Defuser turn, against GPTNT's 16 raw frames plus mask.

    .venv/bin/python scripts/bench_services.py [--mission Wires-234] [--episodes 2] [--pings 500]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from pydantic import BaseModel
from rich.console import Console
from rich.table import Table

from gptnt.records import read_events
from gptnt.services.bus import EmbeddedRedis, GameKeys, RpcClient, RpcServer, connect
from gptnt.services.manager import Episode, EpisodeSettings, EpisodeSpec

RAW_GPTNT_BYTES = 17 * 640 * 480 * 3  # 16 raw RGB frames and the mask, per Defuser turn


class Ping(BaseModel):
    n: int = 0


async def _echo(params: Ping) -> Ping:
    return params


async def bench_bus(url: str, count: int) -> tuple[float, float]:
    """Median seconds of a bare PING and of an RPC round trip."""
    redis = connect(url)
    keys = GameKeys(uuid.uuid4().hex[:8])
    server = RpcServer(connect(url), keys, "game")
    server.method("echo", Ping, _echo)
    task = asyncio.create_task(server.serve())
    client = RpcClient(redis, keys, "manager")
    await redis.ping()
    await client.call("game", "echo", Ping(), Ping, timeout_s=5)  # warm both paths
    pings, calls = [], []
    for i in range(count):
        t0 = time.perf_counter()
        await redis.ping()
        pings.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        await client.call("game", "echo", Ping(n=i), Ping, timeout_s=5)
        calls.append(time.perf_counter() - t0)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await redis.aclose()
    return statistics.median(pings), statistics.median(calls)


async def bench_turns(url: str, mission: str, episodes: int) -> dict[str, list[float]]:
    """Per role, wall seconds per turn minus the policy's own time; and PNG bytes per turn."""
    out: dict[str, list[float]] = {"defuser": [], "expert": [], "bytes": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(episodes):
            spec = EpisodeSpec.make(mission, "sync", repeat=i)
            episode = Episode(
                spec, EpisodeSettings(launch="task"), admin_url=url, run_dir=Path(tmp)
            )
            summary = await episode.run()
            if summary.outcome == "crashed":
                raise SystemExit(f"benchmark episode crashed: {summary.reason}")
            policy = {"defuser": [], "expert": []}
            for event in read_events(episode.dir):
                if event.kind == "turn":
                    policy[event.role].append(event.latency_s)
            for role in ("defuser", "expert"):
                out[role] += [w - p for w, p in zip(episode.turn_wall_s[role], policy[role])]
            out["bytes"] += [float(b) for b in episode.png_bytes]
    return out


async def main(args: argparse.Namespace) -> None:
    with EmbeddedRedis() as server:
        ping, rpc = await bench_bus(server.url, args.pings)
        turns = await bench_turns(server.url, args.mission, args.episodes)
    table = Table(title=f"Harness overhead ({args.mission}, sync, scripted instant policies)")
    table.add_column("measure")
    table.add_column("median", justify="right")
    table.add_column("vs floor", justify="right")
    table.add_row("Redis PING round trip (floor)", f"{ping * 1e3:.3f} ms", "1.0×")
    table.add_row("bus RPC round trip", f"{rpc * 1e3:.3f} ms", f"{rpc / ping:.1f}× PING")
    for role in ("defuser", "expert"):
        median = statistics.median(turns[role])
        table.add_row(f"harness overhead per {role.title()} turn (n={len(turns[role])})",
                      f"{median * 1e3:.1f} ms", f"{median / ping:.0f}× PING")  # fmt: skip
    sent = statistics.median(turns["bytes"])
    table.add_row("frame bytes per Defuser turn (PNG, 1 frame + mask)", f"{sent / 1e3:.1f} kB",
                  f"{RAW_GPTNT_BYTES / sent:.0f}× less than GPTNT's 16 raw frames + mask")  # fmt: skip
    Console().print(table)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mission", default="Wires-234")
    parser.add_argument("--episodes", type=int, default=2)
    parser.add_argument("--pings", type=int, default=500)
    asyncio.run(main(parser.parse_args()))
