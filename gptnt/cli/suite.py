"""``gptnt suite run SUITE`` and ``gptnt worker``: many episodes on N parallel games.

The episodes wait in a Redis Stream with a consumer group (``services.manager._queue``); the
suite command enqueues what the run's ledger does not already count as done, plays them on
``--games`` local workers with a live progress display, and exits when every episode is finished
or parked. Rerunning the same command resumes: finished episodes are skipped. ``gptnt worker``
on another host, pointed at the same Redis, takes episodes from the same queue.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gptnt.cli.run import Launch, Out, RedisUrl

if TYPE_CHECKING:
    from rich.console import Console

    from services.manager._queue import Job

suite_app = typer.Typer(help="Run a suite of episodes on parallel games.", no_args_is_help=True)


def _jobs(name: str, only: str | None, modes: str | None, defuser: str, expert: str,
          repeats: int, settings, run: str, retries: int, rule_seeds: list[int] | None = None,
          pools: Path | None = None) -> list[Job]:  # type: ignore[no-untyped-def]  # fmt: skip
    from gptnt.cli.run import use_rule_seed
    from gptnt.errors import ConfigError
    from gptnt.missions import get_mission, load_suite
    from services.manager import EpisodeSpec
    from services.manager._queue import Job

    suite = load_suite(name)
    missions = suite.missions
    if only:
        wanted = [m.strip() for m in only.split(",") if m.strip()]
        unknown = [m for m in wanted if m not in missions]
        if unknown:
            raise ConfigError(f"--only: {', '.join(unknown)} not in suite {name!r}")
        missions = [m for m in missions if m in wanted]
    chosen_modes = suite.modes
    if modes:
        chosen_modes = [m.strip() for m in modes.split(",")]  # type: ignore[misc]
        bad = [m for m in chosen_modes if m not in suite.modes]
        if bad:
            raise ConfigError(f"--modes: {', '.join(bad)} not among the suite's {suite.modes}")
    played = [get_mission(m) for m in missions]
    seeds = [use_rule_seed(s, pools, played) for s in (rule_seeds or suite.rule_seeds)]
    return [
        Job(run=run, spec=EpisodeSpec.make(m, mode, defuser, expert, repeat=r, seed=r,
                                           rule_seed=rs),
            settings=settings, retries=retries)  # type: ignore[arg-type]
        for r in range(repeats) for rs in seeds for mode in chosen_modes for m in missions
    ]  # fmt: skip


def suite_run(
    name: Annotated[str, typer.Argument(help="Suite name (missions/suites/<name>.json).")],
    games: Annotated[int, typer.Option("--games", min=1, help="Games played in parallel.")] = 2,
    defuser: Annotated[
        str,
        typer.Option(
            help="The Defuser, named as for `gptnt run --defuser`: "
            "oracle, random, a player config, a YAML file or a provider:model string."
        ),
    ] = "oracle",
    expert: Annotated[
        str, typer.Option(help="The Expert, named as for `gptnt run --expert`.")
    ] = "oracle",
    only: Annotated[
        str | None, typer.Option(help="Comma list: only these missions of the suite.")
    ] = None,
    modes: Annotated[
        str | None, typer.Option(help="Comma list: only these modes (sync, async).")
    ] = None,
    repeats: Annotated[int, typer.Option(min=1, help="Episodes per mission and mode.")] = 1,
    retries: Annotated[
        int, typer.Option(min=0, help="Re-runs of a crashed episode before it is parked.")
    ] = 2,
    run_name: Annotated[
        str | None,
        typer.Option(
            "--run",
            help="Run directory name under --out "
            "(default: suite-<name>-<defuser>-<expert>; rerun it to resume).",
        ),
    ] = None,
    out: Out = Path("runs"),
    redis_url: RedisUrl = None,
    game: Annotated[
        str, typer.Option("--game", help="Game backend: sim, sim-process or a URL.")
    ] = "sim",
    launch: Launch = "process",
    rule_seed: Annotated[
        list[int] | None,
        typer.Option(
            "--rule-seed",
            help="Play every mission under this rule seed (repeatable; replaces the suite's "
            "ruleSeeds, e.g. --rule-seed 1 --rule-seed 1764 --rule-seed 90210).",
        ),
    ] = None,
    pools: Annotated[
        Path | None,
        typer.Option(help="Rule-seed word pools file (Morse, Password) for seeds other than 1."),
    ] = None,
) -> None:
    """Play a suite on N parallel games; resumable; exits when every episode is done."""
    import asyncio

    from rich.console import Console

    from gptnt.config import GameConfig
    from gptnt.records import Ledger
    from services.bus import redis_url as resolve_redis
    from services.manager import EpisodeSettings, player_infos
    from services.manager.api import EpisodeSpec, player_slug

    run = run_name or f"suite-{name}-{player_slug(defuser)}-{player_slug(expert)}"
    settings = EpisodeSettings(game=GameConfig(backend=game), launch=launch)  # type: ignore[arg-type]
    jobs = _jobs(name, only, modes, defuser, expert, repeats, settings, run, retries,
                 rule_seed, pools)  # fmt: skip
    player_infos(EpisodeSpec.make("x", "sync", defuser, expert))  # bad names fail here
    run_dir = out / run
    ledger = Ledger(run_dir)
    ledger.reconcile()
    latest = ledger.latest()
    done = ledger.done()
    todo = []
    for job in jobs:
        if job.spec.key in done:
            continue
        attempt = latest[job.spec.key].attempt + 1 if job.spec.key in latest else 1
        todo.append(
            job.model_copy(update={"spec": job.spec.model_copy(update={"attempt": attempt})})
        )
    console = Console()
    console.print(f"[bold]suite {name}[/bold]: {len(jobs)} episodes, {len(jobs) - len(todo)} "
                  f"already done, {len(todo)} to play on {games} game(s); records in {run_dir}")  # fmt: skip
    with resolve_redis(redis_url) as url:
        interrupted = asyncio.run(_drive(url, out, run, todo, games, console))
    _print_report(run_dir, console)
    _exit(run_dir, interrupted)


def _exit(run_dir: Path, interrupted: str) -> None:
    """The suite's ``ExitCode``: interrupted, or crashed when episodes were parked."""
    from gptnt.cli import ExitCode
    from gptnt.records import Ledger

    if interrupted:
        typer.echo(f"interrupted by {interrupted}; rerun the same command to resume", err=True)
        raise typer.Exit(ExitCode.INTERRUPTED)
    parked = [k for k, e in Ledger(run_dir).latest().items() if e.status == "parked"]
    if parked:
        typer.echo(f"crashed: {len(parked)} episode(s) parked after repeated crashes "
                   f"({', '.join(parked[:3])}{', …' if len(parked) > 3 else ''})", err=True)  # fmt: skip
        raise typer.Exit(ExitCode.CRASHED)


async def _drive(
    url: str, out: Path, run: str, todo: list[Job], games: int, console: Console
) -> str:
    """Play ``todo`` on ``games`` local workers; what interrupted the run ("" if nothing).

    On SIGINT/SIGTERM, or when Redis goes away, the workers still end their episodes (as
    ``interrupted`` or ``crashed: redis …``) and write their summaries and ledger lines before
    this returns or raises; the run's queued episodes that were not started are removed.
    """
    import asyncio
    import contextlib

    from rich.live import Live
    from rich.table import Table

    from services.bus import connect, within
    from services.manager import Interrupt
    from services.manager._queue import enqueue, purge, receive, results_key, work

    redis = connect(url)
    keys = {job.spec.key for job in todo}
    counts = {"solved": 0, "timeout": 0, "strikeout": 0, "crashed": 0, "parked": 0}
    playing: dict[str, str] = {}
    settled: set[str] = set()
    started = time.monotonic()

    def view() -> Table:
        table = Table.grid(padding=(0, 2))
        elapsed = time.monotonic() - started
        table.add_row(f"[bold]{len(settled)}/{len(keys)}[/bold] done", *(f"{k} {v}" for k, v in counts.items()),
                      f"{elapsed:.0f} s")  # fmt: skip
        for worker, key in sorted(playing.items()):
            table.add_row(f"  [dim]{worker}[/dim]", key)
        return table

    stop = asyncio.Event()
    interrupt = Interrupt()
    interrupt.install()
    workers: list[asyncio.Task[None]] = []
    try:
        async with within(60, "starting the suite"):
            # Records a remote worker shipped while no suite was reading are kept first.
            for _entry_id, fields in await redis.xrange(results_key(run)):
                receive(out / run, fields)
            await redis.delete(results_key(run))
        await enqueue(redis, todo)
        workers = [
            asyncio.create_task(work(connect(url), url, out, name=f"{run}-game{i}", stop=stop,
                                     interrupt=interrupt,
                                     on_start=lambda w, j: playing.__setitem__(w, j.spec.key),
                                     on_end=lambda w, j, s: playing.pop(w, None)))
            for i in range(games)
        ]  # fmt: skip
        last_id = "0"
        with Live(view(), console=console, refresh_per_second=4) as live:
            while len(settled) < len(keys) and not interrupt.is_set():
                async with within(10, "reading the suite's results"):
                    got = await redis.xread({results_key(run): last_id}, block=500)
                for _stream, entries in got or []:
                    for entry_id, fields in entries:
                        last_id = entry_id
                        entry = receive(out / run, fields)
                        if entry.status == "crashed":
                            counts["crashed"] += 1
                            continue
                        counts["parked" if entry.status == "parked" else entry.outcome] += 1
                        settled.add(entry.episode_key)
                for task in workers:
                    if task.done() and task.exception():
                        raise task.exception()  # type: ignore[misc]
                live.update(view())
            playing.clear()
            live.update(view())
    finally:
        stop.set()
        if workers:  # bounded: each episode's own waits are
            await asyncio.wait(workers, timeout=120)
        with contextlib.suppress(Exception):
            await purge(redis, run)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(5):
                await redis.aclose()
    return interrupt.reason


def _print_report(run_dir: Path, console: Console) -> None:
    from gptnt.cli.report import outcome_table, rate_table, warn_missing

    warn_missing(run_dir, console)
    console.print(outcome_table(run_dir))
    console.print(rate_table(run_dir))


def worker(
    redis_url: Annotated[str, typer.Option("--redis-url", help="The suite's Redis (admin URL).")],
    out: Out = Path("runs"),
    games: Annotated[int, typer.Option("--games", min=1, help="Games played in parallel.")] = 1,
    pools: Annotated[
        Path | None,
        typer.Option(
            help="Rule-seed word pools file, for episodes whose rule seed needs them (each "
            "episode carries its rule seed)."
        ),
    ] = None,
) -> None:
    """Take episodes from a suite's queue on this host until interrupted."""
    import asyncio
    import os

    from gptnt.rules.ruleseed import ENV, read_pools

    if pools is not None:
        read_pools(pools)
        os.environ[ENV] = str(pools.resolve())

    from gptnt.cli import ExitCode
    from services.bus import connect
    from services.manager import Interrupt
    from services.manager._queue import work

    async def main() -> str:
        interrupt = Interrupt()
        interrupt.install()
        await asyncio.gather(
            *(work(connect(redis_url), redis_url, out, interrupt=interrupt, ship=True)
              for _ in range(games))
        )  # fmt: skip
        return interrupt.reason

    typer.echo(f"worker: taking episodes from {redis_url.rsplit('@', 1)[-1]}; Ctrl-C stops")
    stopped_by = asyncio.run(main())
    typer.echo(f"worker: stopped by {stopped_by}; its episodes in flight are recorded", err=True)
    raise typer.Exit(ExitCode.INTERRUPTED)


def register(app: typer.Typer) -> None:
    suite_app.command("run")(suite_run)
    app.add_typer(suite_app, name="suite")
    app.command("worker")(worker)
