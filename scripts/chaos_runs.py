"""Chaos run, by hand (not part of the test suite): slow model turns, killed processes, a killed
Redis — every episode must end with a summary and the right outcome, and a rerun must resume.

1. **Slow turns.** A loopback stand-in provider (``model_standin.py``) answers after a
   log-normal latency (median ``--median`` s, 1–40 s, heavy tail); ``--episodes`` episodes per
   mode, ``--games`` at a time, each service its own process. Each must end solved, strikeout
   or timeout, consistent with its own final state; none may crash.
2. **Kills.** One episode each in which the game, the Defuser or the Expert process, or the
   Redis server, is SIGKILLed mid-episode: each must end ``crashed`` with a reason naming what
   died, and a summary on disk.
3. **Resume.** The killed episodes are played again, as a suite rerun does (the next attempt of
   each key the ledger does not count as done); all must then end with an outcome of the game.

4. **Hostile provider** (``--hostile``, alone): every behaviour of ``hostile_standin.py`` as
   the Defuser's provider, sync and async, each episode in its own processes. Provider garbage
   must end ``crashed: provider …``; a model's bad text an outcome of the game. Prints one row
   per behaviour (outcome per mode, right or WRONG, tracebacks, leaked canaries: the key, the
   game token, another provider's key and the admin Redis password, looked for in every file
   of the run, the service logs included).

Prints one line per episode and the figures at the end; exits 1 if any check failed::

    .venv/bin/python scripts/chaos_runs.py --episodes 20 --games 4 --median 8
    .venv/bin/python scripts/chaos_runs.py --hostile --games 4
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hostile_standin import BEHAVIOURS, Hostile
from model_standin import Latency, Standin

from gptnt.config import GameConfig
from gptnt.missions import Mission
from gptnt.protocol import MissionConfig
from gptnt.records import Ledger, LedgerEntry, Summary
from gptnt.services.bus import EmbeddedRedis
from gptnt.services.manager import Episode, EpisodeSettings, EpisodeSpec, ProcessHandle

KEY_ENV = "GPTNT_CHAOS_KEY"
KEY = "sk-chaos-not-a-real-key"
CANARIES = {
    "key": KEY,
    "game token": "chaos-game-token-canary-9b1f",
    "other key": "sk-ant-chaos-other-canary-33d0",
}
"""Secrets in the run's environment that no record may hold (with the admin Redis password)."""
HOSTILE_ARGS = {
    "slow": "slow~2",
    "trickle": "trickle~0.0002",
    "rate-limited": "rate-limited~1",
    "gzip-bomb": "gzip-bomb~40",
}
"""Behaviour arguments that fit the hostile episodes' budget (a model call of 5 s)."""


def _mission(time_limit: int) -> Mission:
    config = MissionConfig(seed=234, time_limit=time_limit, components=["Wires"], is_front=True,
                           needy_time=time_limit, opt_widgets=1)  # fmt: skip
    return Mission(id="Wires-234", kind="single", title="chaos", config=config)


def _player(path: Path, standin: Standin, seat: str) -> str:
    path.write_text(
        f"model: openai:standin\nbase_url: {standin.url}/{seat}/v1\napi_key_env: {KEY_ENV}\n"
        "image_size: [320, 240]\ntransport_retries: 1\nturn_timeout_s: 120\n"
    )
    return str(path)


def _record(run_dir: Path, spec: EpisodeSpec, summary: Summary, episode: Episode) -> None:
    """The ledger line ``play_episode`` would write (these episodes use a short-clock mission)."""
    status = {"crashed": "crashed", "interrupted": "interrupted"}.get(summary.outcome, "finished")
    Ledger(run_dir).append(
        LedgerEntry(episode_key=spec.key, attempt=spec.attempt, status=status,  # type: ignore[arg-type]
                    outcome=summary.outcome, reason=summary.reason,
                    episode_dir=str(episode.dir.relative_to(run_dir)), at=time.time())
    )  # fmt: skip


def _consistent(s: Summary) -> str | None:
    """Why an outcome disagrees with the summary's own facts (None when it agrees)."""
    if s.outcome == "crashed" or s.outcome == "interrupted":
        return f"{s.outcome}: {s.reason}"
    if s.outcome == "solved" and s.modules_solved != len(s.modules):
        return "solved with unsolved modules"
    if s.outcome == "timeout" and abs((s.game_time_used or 0) - s.time_limit) > 0.05:
        return f"timeout with {s.time_limit - (s.game_time_used or 0):.2f} s left"
    if s.outcome == "strikeout" and s.strikes < 3:
        return f"strikeout with {s.strikes} strikes"
    return None


async def _slow_turns(args, url: str, run_dir: Path, defuser: str, expert: str) -> list[str]:
    settings = EpisodeSettings(
        launch="process", game=GameConfig(width=320, height=240), idle_sleep_s=0.5
    )
    mission = _mission(args.time_limit)
    gate = asyncio.Semaphore(args.games)
    failures: list[str] = []

    async def one(mode: str, repeat: int) -> None:
        spec = EpisodeSpec.make(mission.id, mode, defuser, expert, repeat=repeat, seed=repeat)
        async with gate:
            t0 = time.monotonic()
            summary = await Episode(spec, settings, admin_url=url, run_dir=run_dir,
                                    mission=mission).run()  # fmt: skip
        bad = _consistent(summary)
        print(f"  {spec.key:<40} {summary.outcome:<9} strikes {summary.strikes} "
              f"turns {summary.turns} {time.monotonic() - t0:6.1f} s {bad or 'ok'}", flush=True)  # fmt: skip
        if bad:
            failures.append(f"{spec.key}: {bad}")

    await asyncio.gather(
        *(one(mode, r) for mode in ("sync", "async") for r in range(args.episodes))
    )
    return failures


async def _kills(args, redis: EmbeddedRedis, run_dir: Path, defuser: str, expert: str):
    """One episode per victim; the victim is killed as the Defuser's first turn is recorded
    (later, a lucky stand-in may already have solved the bomb)."""
    failures: list[str] = []
    settings = EpisodeSettings(
        launch="process", game=GameConfig(width=320, height=240), stop_timeout_s=3
    )
    for victim in ("game", "defuser", "expert", "redis"):
        spec = EpisodeSpec.make("Wires-234", "async", defuser, expert, repeat=100)
        spec = spec.model_copy(update={"key": f"kill-{victim}"})
        episode = Episode(spec, settings, admin_url=redis.url, run_dir=run_dir,
                          mission=_mission(args.time_limit))  # fmt: skip
        killed: list[str] = []

        def kill(_spec, event, episode=episode, victim=victim, killed=killed) -> None:
            if killed or event.role != "defuser":
                return
            if victim == "redis":
                assert redis._proc is not None
                redis._proc.kill()
            else:
                handle = next(h for h in episode._handles if h.name == victim)
                assert isinstance(handle, ProcessHandle)
                os.kill(handle.proc.pid, signal.SIGKILL)
            killed.append(victim)

        episode._on_turn = kill
        t0 = time.monotonic()
        summary = await episode.run()
        took = time.monotonic() - t0
        _record(run_dir, spec, summary, episode)
        named = victim in summary.reason
        ok = killed and summary.outcome == "crashed" and named
        print(f"  kill {victim:<8} -> {summary.outcome}: {summary.reason[:90]} ({took:.1f} s) "
              f"{'ok' if ok else 'WRONG'}", flush=True)  # fmt: skip
        if not ok:
            failures.append(f"kill {victim}: {summary.outcome}: {summary.reason}")
        if victim == "redis":
            redis.start()  # a new server for what follows (the old one is gone)
    return failures


async def _resume(args, url: str, run_dir: Path, defuser: str, expert: str) -> list[str]:
    failures: list[str] = []
    settings = EpisodeSettings(launch="process", game=GameConfig(width=320, height=240))
    ledger = Ledger(run_dir)
    for key, entry in sorted(ledger.latest().items()):
        if entry.status == "finished":
            continue
        spec = EpisodeSpec.make("Wires-234", "async", defuser, expert, repeat=100)
        spec = spec.model_copy(update={"key": key, "attempt": entry.attempt + 1})
        episode = Episode(spec, settings, admin_url=url, run_dir=run_dir,
                          mission=_mission(args.time_limit))  # fmt: skip
        summary = await episode.run()
        _record(run_dir, spec, summary, episode)
        bad = _consistent(summary)
        print(f"  rerun {key:<14} attempt {spec.attempt} -> {summary.outcome} {bad or 'ok'}")
        if bad:
            failures.append(f"rerun {key}: {bad}")
    return failures


def _hostile_mission() -> Mission:
    """15 s: five sync rounds, so three failed calls in a row fit; and three hung calls of 5 s
    fit in the async clock."""
    config = MissionConfig(seed=234, time_limit=20, components=["Wires"], is_front=True,
                           needy_time=20, opt_widgets=1)  # fmt: skip
    return Mission(id="Wires-234", kind="single", title="hostile", config=config)


async def _hostile(args, url: str, run_dir: Path) -> list[str]:
    """Every behaviour × both modes; the table; the failed checks."""
    import logging

    tracebacks: list[str] = []

    class Count(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.exc_info:
                tracebacks.append(record.getMessage())

    logging.getLogger().addHandler(Count())
    admin_password = url.split("://:", 1)[1].split("@", 1)[0]
    canaries = {**CANARIES, "admin password": admin_password}
    # A turn of 19 s with game calls of 2 s leaves the Defuser's model call 5 s.
    settings = EpisodeSettings(launch="process", game=GameConfig(width=320, height=240),
                               game_call_s=2.0, idle_sleep_s=0.2, stop_timeout_s=3)  # fmt: skip
    mission = _hostile_mission()
    gate = asyncio.Semaphore(args.games)
    rows: dict[str, dict[str, str]] = {}
    failures: list[str] = []
    async for hostile in Hostile().serve():
        players = run_dir / "players"
        players.mkdir(parents=True, exist_ok=True)

        async def one(name: str, mode: str, base: str, players: Path) -> None:
            path = HOSTILE_ARGS.get(name, name)
            player = players / f"{name}.yaml"
            player.write_text(
                f"model: openai:hostile\nbase_url: {base}/{path}/v1\n"
                f"api_key_env: {KEY_ENV}\nimage_size: [320, 240]\ntransport_retries: 1\n"
                "turn_timeout_s: 19\n"
            )
            spec = EpisodeSpec.make(mission.id, mode, str(player), "idle")
            before = len(tracebacks)
            async with gate:
                episode = Episode(spec, settings, admin_url=url, run_dir=run_dir / name / mode,
                                  mission=mission)  # fmt: skip
                summary = await episode.run()
            garbage = BEHAVIOURS[name].garbage
            right = (
                summary.outcome == "crashed" and summary.reason.startswith("provider ")
                if garbage else summary.outcome in ("solved", "strikeout", "timeout")
            )  # fmt: skip
            files = [p for p in (run_dir / name / mode).rglob("*") if p.is_file()]
            logs = [p for p in files if p.suffix == ".log"]
            traced = (
                len(tracebacks)
                - before
                + sum(p.read_text(errors="replace").count("Traceback") for p in logs)
            )
            leaked = sorted({what for p in files for what, secret in canaries.items()
                             if secret.encode() in p.read_bytes()})  # fmt: skip
            row = rows.setdefault(name, {"kind": "garbage" if garbage else "model"})
            row[mode] = f"{summary.outcome}{'' if right else ' WRONG'}"
            row[f"{mode} reason"] = summary.reason[:70]
            row["tracebacks"] = str(int(row.get("tracebacks", "0")) + traced)
            row["leaks"] = ", ".join(
                sorted(set(row.get("leaks", "").split(", ")) - {""} | set(leaked))
            )
            if not right or traced or leaked:
                failures.append(f"{name} {mode}: {summary.outcome}: {summary.reason[:120]}"
                                f"{f'; {traced} tracebacks' if traced else ''}"
                                f"{f'; leaked {leaked}' if leaked else ''}")  # fmt: skip

        await asyncio.gather(
            *(one(n, m, hostile.url, players) for n in BEHAVIOURS for m in ("sync", "async"))
        )
    width = max(map(len, BEHAVIOURS))
    print(f"\n{'behaviour':<{width}}  kind     {'sync':<18} {'async':<18} tracebacks  leaks")
    for name in BEHAVIOURS:
        r = rows[name]
        print(f"{name:<{width}}  {r['kind']:<8} {r['sync']:<18} {r['async']:<18} "
              f"{r['tracebacks']:<11} {r['leaks'] or '-'}")  # fmt: skip
    wrong = sum("WRONG" in r[m] for r in rows.values() for m in ("sync", "async"))
    print(f"\n{len(rows) * 2} episodes: {wrong} wrong outcomes, "
          f"{sum(int(r['tracebacks']) for r in rows.values())} tracebacks, "
          f"{sum(bool(r['leaks']) for r in rows.values())} behaviours with a leak")  # fmt: skip
    if args.verbose:
        for name in BEHAVIOURS:
            print(
                f"  {name}: sync {rows[name]['sync reason']!r}; async {rows[name]['async reason']!r}"
            )
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=20, help="slow episodes per mode")
    parser.add_argument("--games", type=int, default=4, help="episodes played at once")
    parser.add_argument("--median", type=float, default=8.0, help="median model latency, s")
    parser.add_argument("--time-limit", type=int, default=30, help="bomb clock, game seconds")
    parser.add_argument("--expert-model", action="store_true",
                        help="the Expert is the stand-in too (it then reads the manual)")  # fmt: skip
    parser.add_argument("--skip-kills", action="store_true")
    parser.add_argument("--hostile", action="store_true",
                        help="play every hostile behaviour instead (4. above)")  # fmt: skip
    parser.add_argument("--verbose", action="store_true", help="--hostile: every reason too")
    args = parser.parse_args()
    os.environ[KEY_ENV] = KEY
    os.environ.setdefault("GPTNT_OFFLINE", "1")
    if args.hostile:
        sys.exit(asyncio.run(_run_hostile(args)))

    async def run() -> int:
        standin = Standin(Latency(median_s=args.median), seed=18)
        async for running in standin.serve():
            folder = Path(tempfile.mkdtemp(prefix="gptnt-chaos-"))
            defuser = _player(folder / "defuser.yaml", running, "defuser")
            expert = (
                _player(folder / "expert.yaml", running, "expert") if args.expert_model else "idle"
            )
            redis = EmbeddedRedis()
            redis.start()
            t0 = time.monotonic()
            try:
                print(f"records in {folder}; stand-in median {args.median:g} s", flush=True)
                print("1. slow turns", flush=True)
                failures = await _slow_turns(args, redis.url, folder / "slow", defuser, expert)
                if not args.skip_kills:
                    print("2. kills", flush=True)
                    failures += await _kills(args, redis, folder / "kills", defuser, expert)
                    print("3. resume", flush=True)
                    failures += await _resume(args, redis.url, folder / "kills", defuser, expert)
            finally:
                redis.stop()
            lat = sorted(running.latencies)
            print(f"\nmodel calls {len(lat)}: median {statistics.median(lat):.1f} s, "
                  f"p90 {lat[int(0.9 * (len(lat) - 1))]:.1f} s, max {lat[-1]:.1f} s; "
                  f"wall {time.monotonic() - t0:.0f} s")  # fmt: skip
            print(f"{len(failures)} failed checks" + "".join(f"\n  {f}" for f in failures))
            return 1 if failures else 0
        return 1

    sys.exit(asyncio.run(run()))


async def _run_hostile(args) -> int:
    # Secrets the services must not be handed (least privilege) and no record may hold.
    os.environ["GPTNT_GAME_TOKEN"] = CANARIES["game token"]
    os.environ["ANTHROPIC_API_KEY"] = CANARIES["other key"]
    folder = Path(tempfile.mkdtemp(prefix="gptnt-hostile-"))
    print(f"records in {folder}; {len(BEHAVIOURS)} behaviours, sync and async", flush=True)
    t0 = time.monotonic()
    with EmbeddedRedis() as redis:
        os.environ["GPTNT_REDIS_URL"] = redis.url  # the admin URL, as a user may have it set
        failures = await _hostile(args, redis.url, folder)
    print(f"wall {time.monotonic() - t0:.0f} s; {len(failures)} failed checks"
          + "".join(f"\n  {f}" for f in failures))  # fmt: skip
    return 1 if failures else 0


if __name__ == "__main__":
    main()
