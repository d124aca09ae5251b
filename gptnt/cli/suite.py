"""``gptnt suite list|show|plan|run|status`` and ``gptnt worker``: the paper's grid on N games.

A suite (``missions/suites/*.json|yaml``, or a file by path; ``gptnt.suites``) names missions,
modes, repeats, pairings and ablations. ``plan`` prints what it will cost; ``run`` prints the same,
asks before spending more than ``--confirm-above-usd`` (``--yes`` skips), and plays it through
``gptnt.services.manager.suite.run_suite`` on a Dask distributed cluster (a local one by
default; ``--scheduler`` for game hosts elsewhere, each a ``gptnt worker``). Rerunning the same
command resumes: finished episodes are skipped. ``status`` shows a run's fleet.

Exit codes: 0 every episode finished (or the budget cap stopped the run; ``run.json`` says so),
2 bad input or the run was not confirmed, 3 episodes parked, 130 interrupted.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gptnt.bounded import MAX_COUNT, MAX_GAMES, MAX_REPEATS, MAX_SECONDS
from gptnt.cli.config import ConfigFile
from gptnt.cli.run import Game, Out, Pools, RedisUrl
from gptnt.records import usd

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from gptnt.config import Config, Layered
    from gptnt.protocol import Role
    from gptnt.services.manager import EpisodeSettings, EpisodeSpec
    from gptnt.services.manager.suite import Progress, SuiteOutcome
    from gptnt.suites import Plan, Selection, Suite, SuiteEpisode

suite_app = typer.Typer(
    help="The paper's experiment grid as suites: list, show, plan (cost) and run.",
    no_args_is_help=True,
)

SuiteRef = Annotated[
    str, typer.Argument(help="A suite name (see `gptnt suite list`) or a suite file's path.")
]
Players = Annotated[
    str | None,
    typer.Option(
        "--players",
        help="Comma list of players, named as for `gptnt run --defuser` (oracle, random, a "
        "player config, a YAML file, provider:model); self-play pairs each with itself, "
        "cross-play pairs every Defuser with every Expert. Default: the suite's players.",
    ),
]
Only = Annotated[
    str | None,
    typer.Option(
        help="Comma list: only these module kinds (the paper's names: Wires, The Button, "
        "Complicated Wires; or BigButton, Venn), mission ids (Wires-234, 3) or "
        "pairings (oracle/random, solo:oracle)."
    ),
]
Modes = Annotated[
    str | None, typer.Option(help="Comma list: only these modes of the suite (sync, async).")
]
Repeats = Annotated[
    int | None,
    typer.Option(min=1, max=MAX_REPEATS, help="Episodes per mission, mode and pairing."),
]
Limit = Annotated[
    int | None,
    typer.Option(
        min=1,
        help="Only the first N episodes of the grid, in play order: mission by "
        "mission, each with all its pairings and modes.",
    ),
]
Solo = Annotated[
    bool, typer.Option("--solo", help="Ablation: each player alone with the bomb (and manual).")
]
NoManual = Annotated[
    bool, typer.Option("--no-manual", help="Ablation: alone and without the manual (implies --solo).")
]  # fmt: skip
Manual = Annotated[
    str | None,
    typer.Option(help="The manual models read: 'paper' (the official manual if imported with "
                 "`gptnt manual import`, else the generated one), 'official', 'generated' or a "
                 "manual directory; default the suite's (setting players.manual)."),
]  # fmt: skip
Defuser = Annotated[
    str | None,
    typer.Option(help="With --expert: play this one Defuser/Expert pairing instead of the "
                 "suite's pairings (names as for `gptnt run`) (setting players.defuser)."),
]  # fmt: skip
Expert = Annotated[
    str | None, typer.Option(help="The Expert of the --defuser pairing (setting players.expert).")
]

# The options of `gptnt suite plan|run` that are settings of the layered configuration. A
# players.* value set in any layer (not its default) counts as the option, and so does
# game.rule_seed for --rule-seed (which, repeatable, is not in the flag layer but beats it): a
# suite plays its own players, manual, pairings and rule seeds unless told otherwise.
PLAN_SETTINGS = {
    "defuser": "players.defuser",
    "expert": "players.expert",
    "manual": "players.manual",
}
SUITE_SETTINGS = {
    **PLAN_SETTINGS,
    "game": "game.backend",
    "launch": "bus.launch",
    "redis_url": "bus.redis_url",
    "scheduler": "bus.scheduler",
    "out": "records.out",
}
WORKER_SETTINGS = {"scheduler": "bus.scheduler", "redis_url": "bus.redis_url", "out": "records.out"}


RuleSeed = Annotated[
    list[int] | None,
    typer.Option(
        "--rule-seed",
        help="Play every mission under this rule seed (repeatable; replaces the suite's "
        "rule_seeds, e.g. --rule-seed 1 --rule-seed 1764).",
    ),
]


def _selection(players: str | None, only: str | None, modes: str | None, repeats: int | None,
               limit: int | None, solo: bool, no_manual: bool, rule_seed: list[int] | None,
               layered: Layered) -> Selection:  # fmt: skip
    from gptnt.errors import ConfigError
    from gptnt.suites import Selection

    defuser, expert = layered.given("players.defuser"), layered.given("players.expert")
    manual = layered.given("players.manual")
    seeds = None if layered.given("game.rule_seed") is None else [layered.config.game.rule_seed]
    if (defuser is None) != (expert is None):
        given = layered.named("players.defuser" if defuser is not None else "players.expert")
        raise ConfigError(
            f"{given}: --defuser and --expert go together (one pairing); or use --players"
        )
    if defuser is not None and players is not None:
        raise ConfigError(
            f"--players or --defuser/--expert, not both ({layered.named('players.defuser')})"
        )
    if defuser is not None and expert is not None:  # an unknown player, named by its layer
        from gptnt.players.seats import resolve_seat

        pairs: tuple[tuple[Role, str], ...] = (("defuser", defuser), ("expert", expert))
        for role, ref in pairs:
            resolve_seat(role, ref, read_manual=False, name=layered.named(f"players.{role}"))

    def items(text: str | None) -> list[str]:
        return [t.strip() for t in (text or "").split(",") if t.strip()]

    return Selection(
        players=items(players) or None, only=items(only), modes=items(modes) or None,
        repeats=repeats, limit=limit, solo=solo, no_manual=no_manual, manual=manual,
        rule_seeds=rule_seed or seeds, pair=(defuser, expert) if defuser and expert else None,
    )  # fmt: skip


# ----------------------------------------------------------------------------- list, show


def suite_list() -> None:
    """The shipped suites: episodes with their default players, modes, pairings."""
    from rich.table import Table

    from gptnt.cli._console import make_console
    from gptnt.suites import expand, load_suite, suite_names

    table = Table(title="Suites (missions/suites/)")
    for column in ("suite", "episodes", "modes", "pairings", "players"):
        table.add_column(column, overflow="fold")
    described = []
    for name in suite_names():
        suite = load_suite(name)
        pairings = suite.pairings + (" (no manual)" if suite.no_manual else "")
        if suite.time_factors != [1.0]:
            pairings += ", time ×" + "/".join(f"{f:g}" for f in suite.time_factors)
        table.add_row(name, str(len(expand(suite))), ", ".join(suite.modes), pairings,
                      ", ".join(suite.players))  # fmt: skip
        described.append(f"[bold]{name}[/bold]: {suite.description}")
    console = make_console()
    console.print(table)
    for line in described:
        console.print(line, highlight=False)


def suite_show(ref: SuiteRef) -> None:
    """A suite's settings and its missions."""
    from gptnt.cli._console import make_console
    from gptnt.suites import expand, load_suite

    suite = load_suite(ref)
    console = make_console()
    console.print(f"[bold]{suite.name}[/bold] — {suite.description}", highlight=False)
    for label, value in [
        ("modes", ", ".join(suite.modes)),
        ("pairings", suite.pairings),
        ("players", ", ".join(suite.players)),
        ("repeats", str(suite.repeats)),
        ("manual", "none (no_manual)" if suite.no_manual else suite.manual),
        ("time factors", ", ".join(f"×{f:g}" for f in suite.time_factors)),
        ("rule seeds", ", ".join(map(str, suite.rule_seeds))),
        ("episodes", f"{len(expand(suite))} with the default players"),
        (f"missions ({len(suite.missions)})", " ".join(suite.missions)),
    ]:
        console.print(f"  [bold]{label:<15}[/bold] {value}", highlight=False)


# ----------------------------------------------------------------------------- plan


def _tokens(value: float) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= size:
            return f"{value / size:.1f}{unit}"
    return f"{value:.0f}"


def plan_line(p: Plan) -> str:
    """The plan in one line (``suite run`` prints it before asking)."""
    t = p.total
    if not p.rows:
        return (f"{p.episodes} episodes; no model calls, no cost (scripted players only: "
                f"{', '.join(sorted(p.scripted))})")  # fmt: skip
    cost = usd(t.cost)
    if t.cost is not None:
        cost += f" (range {usd(t.low)}–{usd(t.high)}), {usd(t.cost_cached)} with prompt caching"
    scripted = f"; scripted, free: {', '.join(sorted(p.scripted))}" if p.scripted else ""
    unpriced = (f"; no price in configs/prices.yaml for {', '.join(sorted(p.unpriced))}"
                if p.unpriced else "")  # fmt: skip
    return (f"{p.episodes} episodes; ~{t.calls:,.0f} model calls; ~{_tokens(t.input)} input and "
            f"~{_tokens(t.output)} output tokens; estimated cost {cost}{scripted}{unpriced}")  # fmt: skip


def plan_table(p: Plan) -> Table:
    from rich.table import Table

    table = Table(title="Plan per experiment and model player")
    for column in ("experiment", "player", "n", "calls", "input", "output", "cost (range)",
                   "cached"):  # fmt: skip
        table.add_column(column, justify="left" if column in ("experiment", "player") else "right")
    for (group, player), row in sorted(p.rows.items()):
        cost = usd(row.cost)
        if row.cost is not None:
            cost += f" ({usd(row.low)}–{usd(row.high)})"
        table.add_row(group, player, str(row.seats), f"{row.calls:,.0f}", _tokens(row.input),
                      _tokens(row.output), cost, usd(row.cost_cached))  # fmt: skip
    table.caption = (
        "n: seat-episodes (an episode counts once per seat a model holds, as the paper's Table "
        "H.24 counts). cached: the cost with prompt caching. Assumptions: configs/plan.yaml; "
        "prices: configs/prices.yaml."
    )
    table.caption_justify = "left"
    return table


def print_plan(console: Console, suite: str, p: Plan) -> None:
    """The plan's line and, with model players, what the spending is for per experiment and
    player (``suite plan`` prints it, ``suite run`` before it asks to spend)."""
    console.print(f"[bold]suite {suite}[/bold]: {plan_line(p)}", highlight=False)
    if p.rows:
        console.print(plan_table(p))


def suite_plan(
    ctx: typer.Context, ref: SuiteRef, players: Players = None, only: Only = None,
    modes: Modes = None, repeats: Repeats = None, limit: Limit = None, solo: Solo = False,
    no_manual: NoManual = False, manual: Manual = None, rule_seed: RuleSeed = None,
    pools: Pools = None, defuser: Defuser = None, expert: Expert = None, config: ConfigFile = None,
) -> None:  # fmt: skip
    """Episodes, model calls, tokens and cost per player, before anything runs."""
    from gptnt.cli._console import make_console
    from gptnt.cli.config import command_config
    from gptnt.suites import check_rule_seeds, plan, resolve_episodes

    layered = command_config(ctx, PLAN_SETTINGS, config)
    suite, episodes, notices = resolve_episodes(ref, _selection(
        players, only, modes, repeats, limit, solo, no_manual, rule_seed, layered))  # fmt: skip
    check_rule_seeds(episodes, pools)
    p = plan(episodes)
    console = make_console()
    print_plan(console, suite.name, p)
    for notice in notices:
        typer.echo(notice, err=True)


# ----------------------------------------------------------------------------- run


def _confirm(estimate: float | None, threshold: float, yes: bool) -> None:
    from gptnt.errors import ConfigError

    if yes or (estimate is not None and estimate <= threshold):
        return
    why = ("the cost is unknown (a model has no price)" if estimate is None
           else f"the estimate {usd(estimate)} exceeds --confirm-above-usd {threshold:g}")  # fmt: skip
    if not sys.stdin.isatty():
        raise ConfigError(f"{why}; pass --yes to run anyway (or --max-cost-usd to cap it)")
    if not typer.confirm(f"{why}. Run it?", default=False):
        raise typer.Abort()


Scheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="A Dask scheduler (tcp://HOST:8786) whose `gptnt worker`s on game hosts play the "
        "episodes; default a local cluster of --games workers (setting bus.scheduler).",
    ),
]


Games = Annotated[
    int,
    typer.Option("--games", min=1, max=MAX_GAMES, help="Games played in parallel (local cluster)."),
]
Retries = Annotated[
    int, typer.Option(min=0, max=20, help="Re-runs of a crashed episode before it is parked.")
]
MaxCost = Annotated[
    float | None,
    typer.Option(
        min=0,
        help="Budget cap: schedule no new episode once the recorded cost "
        "reaches it (episodes already started finish).",
    ),
]
ConfirmAbove = Annotated[
    float, typer.Option(min=0, help="Ask before a run estimated to cost more than this.")
]
Yes = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask; run.")]
QueueDepth = Annotated[
    int | None,
    typer.Option(
        min=1,
        max=MAX_COUNT,
        help="Episodes handed to the cluster ahead (default: its game slots); the budget "
        "cap is checked before each.",
    ),
]
ProgressEvery = Annotated[
    float,
    typer.Option(
        min=0.5, max=MAX_SECONDS, help="Seconds between progress lines when output is piped."
    ),
]
RunName = Annotated[
    str | None,
    typer.Option(
        "--run",
        help="Run directory name under --out (default: "
        "suite-<name>-<players>; rerun it to resume).",
    ),
]
SuiteLaunch = Annotated[
    str | None,
    typer.Option(
        "--launch",
        help="warm: each service its own process, forked from a warm server that has the "
        "game and player stack imported; process: a fresh interpreter per service; task: "
        "all in this process; default warm (setting bus.launch).",
    ),
]


def suite_run(
    ctx: typer.Context,
    ref: SuiteRef,
    players: Players = None,
    only: Only = None,
    modes: Modes = None,
    repeats: Repeats = None,
    limit: Limit = None,
    solo: Solo = False,
    no_manual: NoManual = False,
    manual: Manual = None,
    rule_seed: RuleSeed = None,
    pools: Pools = None,
    defuser: Defuser = None,
    expert: Expert = None,
    games: Games = 2,
    retries: Retries = 2,
    max_cost_usd: MaxCost = None,
    confirm_above_usd: ConfirmAbove = 20.0,
    yes: Yes = False,
    queue_depth: QueueDepth = None,
    progress_every: ProgressEvery = 5.0,
    run_name: RunName = None,
    out: Out = None,
    redis_url: RedisUrl = None,
    game: Game = None,
    launch: SuiteLaunch = None,
    scheduler: Scheduler = None,
    config: ConfigFile = None,
) -> None:
    """Plan a suite, confirm its cost, and play it on N parallel games; resumable.

    Settings come from defaults < --config YAML < GPTNT_* variables < these flags
    (`gptnt config show` prints them). Exit codes: 0 every episode finished (or the budget cap
    stopped the run), 2 bad input, 3 episodes parked after repeated crashes, 130 interrupted."""
    from gptnt.cli._console import make_console
    from gptnt.cli.config import command_config
    from gptnt.services.manager import EpisodeSettings
    from gptnt.services.manager.suite import run_suite
    from gptnt.suites import resolve_episodes

    layered = command_config(ctx, SUITE_SETTINGS, config)
    cfg = layered.config
    suite, episodes, notices = resolve_episodes(ref, _selection(
        players, only, modes, repeats, limit, solo, no_manual, rule_seed, layered))  # fmt: skip
    console = make_console()
    settings = EpisodeSettings.from_config(cfg, suite=True)
    run_dir, specs, estimate = _prepare(suite, episodes, pools, cfg, settings, run_name, console,
                                        confirm_above_usd, yes)  # fmt: skip
    for notice in notices:  # every input checked: the conditions of the run
        typer.echo(notice, err=True)
    where = cfg.bus.scheduler or f"{games} local game(s)"
    with _progress_view(console, progress_every, len(specs), run_dir, where) as on_progress:
        outcome = run_suite(
            run_dir, specs, settings, suite=suite.name,
            estimated_cost_usd=estimate, games=games, retries=retries,
            max_cost_usd=max_cost_usd, queue_depth=queue_depth, scheduler=cfg.bus.scheduler,
            redis_url=cfg.bus.redis_url, on_progress=on_progress,
        )  # fmt: skip
    _print_outcome(run_dir, outcome, max_cost_usd, console)


def _prepare(suite: Suite, episodes: list[SuiteEpisode], pools: Path | None, cfg: Config,
             settings: EpisodeSettings, run_name: str | None, console: Console, threshold: float,
             yes: bool) -> tuple[Path, list[EpisodeSpec], float | None]:  # fmt: skip
    """Every check before anything starts (rule seeds, players, the cost, keys and
    endpoints): the run directory, the episodes' specs and the plan's estimate."""
    from gptnt.preflight import Needs, preflight
    from gptnt.records import RunLock
    from gptnt.services.manager import check_turns, player_infos
    from gptnt.services.manager.api import player_slug
    from gptnt.services.manager.suite import episode_spec
    from gptnt.suites import check_rule_seeds, plan

    names = list(dict.fromkeys(n for ep in episodes for n in (ep.defuser, ep.expert) if n))
    run = run_name or f"suite-{suite.name}-{'-'.join(player_slug(n) for n in names)}"
    run_dir = cfg.records.out / run
    RunLock(run_dir).check()  # a second writer is refused first (run_suite takes the lock)
    check_rule_seeds(episodes, pools)
    specs = [episode_spec(ep) for ep in episodes]
    lineups = {(s.defuser, s.expert, s.solo, s.no_manual, s.manual, s.rule_seed): s for s in specs}
    for spec in lineups.values():  # a bad player or manual fails here, before anything starts
        player_infos(spec)
        check_turns(spec.lineup(), settings)  # every turn leaves its model call time (Budget)
    p = plan(episodes)
    print_plan(console, suite.name, p)
    _confirm(p.total.cost, threshold, yes)
    models = {c.config.model_dump_json(): c.config for spec in lineups.values()
              for c in spec.lineup() if c is not None and c.config is not None}  # fmt: skip
    needs = Needs(players=list(models.values()), out=cfg.records.out)
    if cfg.bus.scheduler is None:  # else the game hosts bring their own game and Redis
        needs = Needs(players=needs.players, game=cfg.game.backend, redis_url=cfg.bus.redis_url,
                      out=needs.out)  # fmt: skip
    preflight(needs)
    return run_dir, specs, p.total.cost


@contextmanager
def _progress_view(console: Console, every: float, episodes: int, run_dir: Path,
                   where: str) -> Iterator[Callable[[Progress], None]]:  # fmt: skip
    """What ``run_suite`` reports, shown live on a terminal or as a line every ``every`` s,
    after one line of what there is to play."""
    from rich.live import Live
    from rich.table import Table

    last = [0.0]
    seen: list[Progress] = []

    def first(progress: Progress) -> None:
        if not seen:
            console.print(f"{episodes - progress.total} already done, {progress.total} to play "
                          f"on {where}; records in {run_dir}", highlight=False)  # fmt: skip

    def view(progress: Progress) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_row(progress.line())
        for f in progress.in_flight:
            table.add_row(f"  [dim]{f.host} {f.worker}[/dim] {f.key} "
                          f"({time.time() - f.started_at:.0f} s)")  # fmt: skip
        return table

    if console.is_terminal:
        with Live(Table.grid(), console=console, refresh_per_second=4) as live:

            def show(progress: Progress) -> None:
                first(progress)
                seen[:] = [progress]
                live.update(view(progress))

            yield show
        return

    def line(progress: Progress) -> None:
        first(progress)
        seen[:] = [progress]
        if time.monotonic() - last[0] >= every:
            last[0] = time.monotonic()
            console.print(progress.line(), highlight=False, soft_wrap=True)

    yield line
    if seen:
        console.print(seen[0].line(), highlight=False, soft_wrap=True)


def _print_outcome(run_dir: Path, outcome: SuiteOutcome, cap: float | None,
                   console: Console) -> None:  # fmt: skip
    """The cap's line, the report's tables, and the suite's ``ExitCode``: interrupted, or
    crashed when episodes were parked."""
    from gptnt.cli import ExitCode
    from gptnt.cli.report import run_tables, warn_missing

    progress = outcome.progress
    if progress.capped:
        spent = usd(progress.spent, partly_unknown=progress.unpriced)
        console.print(f"[bold yellow]budget cap reached[/bold yellow]: {spent} "
                      f"recorded of --max-cost-usd {cap:g}; {progress.unscheduled} "
                      "episode(s) not scheduled (rerun with a higher cap to continue)",
                      highlight=False)  # fmt: skip
    warn_missing(run_dir, console)
    for table in run_tables(run_dir):
        console.print(table)
    if outcome.interrupted:
        typer.echo(f"interrupted by {outcome.interrupted}; rerun the same command to resume",
                   err=True)  # fmt: skip
        raise typer.Exit(ExitCode.INTERRUPTED)
    parked = outcome.parked
    if parked:
        typer.echo(f"crashed: {len(parked)} episode(s) parked after repeated crashes "
                   f"({', '.join(parked[:3])}{', …' if len(parked) > 3 else ''})", err=True)  # fmt: skip
        raise typer.Exit(ExitCode.CRASHED)


# ----------------------------------------------------------------------------- status


def suite_status(
    run: Annotated[str, typer.Argument(help="The run directory, or its name under --out.")],
    out: Out = None,
) -> None:
    """The fleet of a suite run: queued, in flight (host, episode, elapsed), done, parked.

    Read from the run's fleet.json (the running suite rewrites it every second) and ledger.
    Exit codes: 0 shown, 2 no such run."""
    from rich.table import Table

    from gptnt.bounded import Tally
    from gptnt.cli import ExitCode
    from gptnt.cli._console import make_console
    from gptnt.records import Ledger, RunLock, read_fleet

    run_dir = Path(run) if Path(run).is_dir() else (out or Path("runs")) / run
    ledger = Ledger(run_dir)
    # A torn fleet.json or ledger line is named, never taken for "no fleet" or fewer episodes.
    torn_fleet, torn_lines = Tally(), Tally()
    fleet = read_fleet(run_dir, tally=torn_fleet)
    if not ledger.path.exists() and fleet is None and not torn_fleet.total:
        typer.echo(f"error: {run}: no suite run there (no ledger.jsonl or fleet.json in "
                   f"{run_dir}); name a run directory", err=True)  # fmt: skip
        raise typer.Exit(ExitCode.BAD_INPUT)
    latest = ledger.latest(tally=torn_lines)
    done = sum(e.status == "finished" for e in latest.values())
    parked = sorted(k for k, e in latest.items() if e.status == "parked")
    for line in torn_fleet.lines() + torn_lines.lines():
        make_console(stderr=True).print(f"warning: {line}", markup=False, highlight=False)
    console = make_console()
    if fleet is None and torn_fleet.total:
        console.print(f"{run_dir}: fleet view unreadable; done {done}, parked {len(parked)}",
                      highlight=False)  # fmt: skip
    elif fleet is None:
        console.print(f"{run_dir}: no fleet view (not run by `suite run`); done {done}, "
                      f"parked {len(parked)}", highlight=False)  # fmt: skip
    else:
        age = time.time() - fleet.updated_at
        # A suite killed mid-run leaves its view active: the writer's lock tells a live one.
        live = fleet.active and age < 30 and RunLock(run_dir).held()
        state = "running" if live else "not running"
        console.print(f"[bold]{run_dir.name}[/bold]: {state} (updated {age:.0f} s ago), cluster "
                      f"{fleet.scheduler}, {fleet.workers} worker(s), {fleet.slots} game "
                      f"slot(s); {fleet.episodes} episodes", highlight=False)  # fmt: skip
        console.print(f"queued {len(fleet.queued) if live else 0}, in flight "
                      f"{len(fleet.in_flight) if live else 0}, done {done}, parked {len(parked)}",
                      highlight=False)  # fmt: skip
        if live and fleet.in_flight:
            table = Table(title="In flight")
            for column in ("host", "worker", "episode", "attempt", "elapsed"):
                table.add_column(column)
            for f in fleet.in_flight:
                table.add_row(f.host, f.worker, f.key, str(f.attempt),
                              f"{time.time() - f.started_at:.0f} s")  # fmt: skip
            console.print(table)
    if parked:
        console.print("parked: " + ", ".join(parked), highlight=False)


# ----------------------------------------------------------------------------- worker


WorkerScheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="The suite's Dask scheduler, tcp://HOST:8786, or $GPTNT_BUS_SCHEDULER "
        "(setting bus.scheduler).",
    ),
]
HostRedis = Annotated[
    str | None,
    typer.Option(
        "--redis-url",
        help="This host's Redis (admin URL), where its games meet; default "
        "$GPTNT_REDIS_URL, else an embedded server (setting bus.redis_url).",
    ),
]


def worker(
    ctx: typer.Context,
    scheduler: WorkerScheduler = None,
    redis_url: HostRedis = None,
    out: Out = None,
    games: Annotated[
        int, typer.Option("--games", min=1, max=MAX_GAMES, help="Games played in parallel.")
    ] = 1,
    pools: Annotated[
        Path | None,
        typer.Option(
            help="Rule-seed word pools file, for episodes whose rule seed needs them (each "
            "episode carries its rule seed)."
        ),
    ] = None,
    config: ConfigFile = None,
) -> None:
    """Play a suite's episodes on this host (a game host of its Dask cluster) until interrupted.

    Each episode is played with the settings the suite sent with it (game, timing, launch) and
    its records shipped back to the suite (a copy stays under --out). From defaults < --config
    YAML < GPTNT_* variables < these flags the worker takes its scheduler (bus.scheduler), its
    Redis (bus.redis_url) and where to stage records (records.out). Exit codes: 130 stopped by
    SIGINT/SIGTERM (episodes in flight recorded as interrupted), 1 the scheduler went away,
    2 bad input (also: another worker stages in the same --out)."""
    import asyncio

    from gptnt.cli import ExitCode
    from gptnt.cli.config import command_config
    from gptnt.records import RunLock
    from gptnt.services.bus import redis_url as resolve_redis
    from gptnt.services.manager.host import serve

    cfg = command_config(ctx, WORKER_SETTINGS, config).config
    address = cfg.bus.scheduler_address("a worker")
    if pools is not None:
        from gptnt.preflight import share_pools

        share_pools(pools)
    # One writer per staging directory: a second worker on the same --out would stage its
    # attempts among this one's (and both keep them), so it is refused before it joins.
    with RunLock(cfg.records.out, flag="--out"):
        typer.echo(f"worker: taking episodes from {address}; Ctrl-C stops")
        with resolve_redis(cfg.bus.redis_url) as url:
            stopped_by = asyncio.run(serve(address, url, cfg.records.out, games))
    typer.echo(f"worker: stopped by {stopped_by}; its episodes in flight are recorded", err=True)
    raise typer.Exit(ExitCode.INTERRUPTED if stopped_by.startswith("SIG") else ExitCode.FAILED)


def register(app: typer.Typer) -> None:
    suite_app.command("list")(suite_list)
    suite_app.command("show")(suite_show)
    suite_app.command("plan")(suite_plan)
    suite_app.command("run")(suite_run)
    suite_app.command("status")(suite_status)
    app.add_typer(suite_app, name="suite")
    app.command("worker")(worker)
