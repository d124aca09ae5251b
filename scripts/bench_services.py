"""Benchmark of the harness's own cost, with instant scripted policies (no model time).

Prints, measured in one run against one embedded Redis server (every floor sample is taken right
after each episode, so that the floor and the turns see the same load of a shared machine):

- the median round trip of a bare Redis ``PING`` and of a bus RPC, and their ratio;
- the median harness overhead per Defuser turn and per Expert turn (manager → player RPC →
  inbox drain → observation through the game service → policy → dispatch → record), with the
  policy's own time subtracted;
- the floor of a Defuser turn: rendering and PNG-encoding exactly the frames and mask it was
  sent (the game service's exchange with the simulator is recorded, and replayed on a fresh
  game in this process right after each episode, so that it sees the same load; the bytes are
  checked to be those sent) plus one bus RPC round trip; the aim is an overhead of at most
  ``AIM`` floors;
- the frame bytes moved per Defuser turn, against GPTNT's 16 raw frames plus mask.

    .venv/bin/python scripts/bench_services.py [--mission Wires-234] [--episodes 6] [--pings 100]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from pydantic import BaseModel
from rich.console import Console
from rich.table import Table

from gptnt.config import GameConfig
from gptnt.errors import SimulatorError
from gptnt.records import read_events
from gptnt.rules.ruleset import ruleset
from gptnt.services.bus import EmbeddedRedis, GameKeys, RpcClient, RpcServer, connect
from gptnt.services.manager import Episode, EpisodeSettings, EpisodeSpec
from gptnt.sim.game import Game
from gptnt.sim.recording import read_recording
from gptnt.sim.server import ROUTES

RAW_GPTNT_BYTES = 17 * 640 * 480 * 3  # 16 raw RGB frames and the mask, per Defuser turn
AIM = 2.0  # a Defuser turn's overhead, in floors
REPLAYS = 3  # replays of each episode's recorded exchange: more samples of the same work


class Ping(BaseModel):
    n: int = 0


async def _echo(params: Ping) -> Ping:
    return params


async def bench_bus(url: str, count: int) -> tuple[list[float], list[float]]:
    """Seconds of bare PINGs and of RPC round trips, in turn."""
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
    return pings, calls


def render_png_samples(recording: Path, game: GameConfig) -> tuple[list[float], int]:
    """Replay the game service's recorded exchange with the simulator on a fresh game, timing
    each ``/buffer?format=png``: the rendering and PNG encoding of exactly the frames and mask
    an observation was sent. Returns the seconds and how many answers differed from the bytes
    sent (0 unless the replay went astray)."""
    sim = Game(width=game.width, height=game.height, ruleset=ruleset(game.rule_seed),
               transition_seconds=0.0, clock=lambda: 0.0)  # fmt: skip
    samples, differ = [], 0
    for exchange in read_recording(recording).exchanges:
        target = urlsplit(exchange.target)
        route = ROUTES[target.path.lower().rstrip("/")]
        query = dict(parse_qsl(target.query, keep_blank_values=True))
        timed = target.path.lower() == "/buffer" and query.get("format") == "png"
        t0 = time.perf_counter()
        try:
            body = route(sim, query).body
        except SimulatorError as err:
            body = str(err).encode()
        if timed:
            samples.append(time.perf_counter() - t0)
            differ += body != exchange.body
    return samples, differ


async def bench_turns(url: str, mission: str, episodes: int, pings: int) -> dict[str, list[float]]:
    """Per role, wall seconds per turn minus the policy's own time; PNG bytes per turn; and
    the samples of the floor (render + PNG, PING, RPC), taken after each episode."""
    out: dict[str, list[float]] = {
        "defuser": [], "expert": [], "bytes": [], "render": [], "differ": [], "ping": [], "rpc": []
    }  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(episodes):
            spec = EpisodeSpec.make(mission, "sync", repeat=i)
            recording = Path(tmp) / f"game-{i}.zip"  # what the floor replays (above)
            game = GameConfig(record=recording)
            settings = EpisodeSettings(launch="task", game=game)
            episode = Episode(spec, settings, admin_url=url, run_dir=Path(tmp))
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
            for _ in range(REPLAYS):
                samples, differ = render_png_samples(recording, game)
                out["render"] += samples
                out["differ"] += [float(differ)]
            ping, rpc = await bench_bus(url, pings)
            out["ping"] += ping
            out["rpc"] += rpc
    return out


async def main(args: argparse.Namespace) -> None:
    with EmbeddedRedis() as server:
        turns = await bench_turns(server.url, args.mission, args.episodes, args.pings)
    ping, rpc = statistics.median(turns["ping"]), statistics.median(turns["rpc"])
    table = Table(title=f"Harness overhead ({args.mission}, sync, scripted instant policies)")
    table.add_column("measure")
    table.add_column("median", justify="right")
    table.add_column("ratio", justify="right")
    table.add_row("Redis PING round trip", f"{ping * 1e3:.3f} ms", "1.0× PING")
    table.add_row("bus RPC round trip", f"{rpc * 1e3:.3f} ms", f"{rpc / ping:.1f}× PING")
    render = statistics.median(turns["render"])
    floor = render + rpc
    if any(turns["differ"]):
        print(f"warning: {sum(turns['differ']):.0f} replayed observations differ from those sent")
    table.add_row(f"render + PNG of a turn's frame and mask (n={len(turns['render'])})",
                  f"{render * 1e3:.1f} ms", "")  # fmt: skip
    table.add_row("Defuser turn floor: render + PNG + bus RPC", f"{floor * 1e3:.1f} ms",
                  f"{floor / ping:.0f}× PING")  # fmt: skip
    for role in ("defuser", "expert"):
        median = statistics.median(turns[role])
        versus = f"{median / ping:.0f}× PING"
        if role == "defuser":
            verdict = "meets" if median <= AIM * floor else "ABOVE"
            versus = f"{median / floor:.2f}× floor ({verdict} the ≤ {AIM:g}× aim)"
        table.add_row(f"harness overhead per {role.title()} turn (n={len(turns[role])})",
                      f"{median * 1e3:.1f} ms", versus)  # fmt: skip
    sent = statistics.median(turns["bytes"])
    table.add_row("frame bytes per Defuser turn (PNG, 1 frame + mask)", f"{sent / 1e3:.1f} kB",
                  f"{RAW_GPTNT_BYTES / sent:.0f}× less than GPTNT's 16 raw frames + mask")  # fmt: skip
    Console().print(table)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mission", default="Wires-234")
    parser.add_argument("--episodes", type=int, default=6)
    parser.add_argument("--pings", type=int, default=100, help="PINGs and RPCs after each episode")
    asyncio.run(main(parser.parse_args()))
