"""``gptnt suite list|show|plan|run`` and ``gptnt worker``: the paper's grid on N parallel games.

A suite (``missions/suites/*.json|yaml``, or a file by path; ``gptnt.suites``) names missions,
modes, repeats, pairings and ablations. ``plan`` prints what it will cost; ``run`` prints the same,
asks before spending more than ``--confirm-above-usd`` (``--yes`` skips), and plays it: episodes
wait in a Redis Stream with a consumer group (``gptnt.services.manager._queue``), fed a few at a time
so that ``--max-cost-usd`` can stop scheduling once the recorded cost reaches the cap. Rerunning
the same command resumes: finished episodes are skipped. ``gptnt worker`` on another host,
pointed at the same Redis, takes episodes from the same queue.

Exit codes: 0 every episode finished (or the budget cap stopped the run; ``run.json`` says so),
1 bad input or the run was not confirmed.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gptnt.bounded import MAX_GAMES, MAX_REPEATS
from gptnt.cli.config import ConfigFile
from gptnt.cli.run import Game, Out, Pools, RedisUrl
from gptnt.records import usd

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from gptnt.config import Layered
    from gptnt.services.manager import EpisodeSpec, Job
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
    "out": "records.out",
}
WORKER_SETTINGS = {"redis_url": "bus.redis_url", "out": "records.out"}


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

        for role, ref in (("defuser", defuser), ("expert", expert)):
            resolve_seat(role, ref, read_manual=False, name=layered.named(f"players.{role}"))  # type: ignore[arg-type]

    def items(text: str | None) -> list[str]:
        return [t.strip() for t in (text or "").split(",") if t.strip()]

    return Selection(
        players=items(players) or None, only=items(only), modes=items(modes) or None,
        repeats=repeats, limit=limit, solo=solo, no_manual=no_manual, manual=manual,
        rule_seeds=rule_seed or seeds, pair=(defuser, expert) if defuser and expert else None,
    )  # fmt: skip


def _expand(ref: str, selection: Selection) -> tuple[Suite, list[SuiteEpisode]]:
    """The suite's episodes, each with the manual it will read resolved (``paper``: the
    official manual if imported, else the generated one, said once on stderr)."""
    from gptnt.manual import resolve_source
    from gptnt.suites import expand, load_suite

    suite = load_suite(ref)
    episodes = []
    said: set[str] = set()
    for ep in expand(suite, selection):
        source, notice = resolve_source(ep.manual, ep.rule_seed)
        if notice and notice not in said and not ep.no_manual:
            said.add(notice)
            typer.echo(notice)  # a condition of the run, not an error: stdout
        episodes.append(ep.model_copy(update={"manual": source}) if source != ep.manual else ep)
    return suite, episodes


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
    from gptnt.suites import plan

    layered = command_config(ctx, PLAN_SETTINGS, config)
    selection = _selection(players, only, modes, repeats, limit, solo, no_manual, rule_seed,
                           layered)  # fmt: skip
    suite, episodes = _expand(ref, selection)
    _check_rule_seeds(episodes, pools)
    p = plan(episodes)
    console = make_console()
    print_plan(console, suite.name, p)


# ----------------------------------------------------------------------------- run


def _check_rule_seeds(episodes: list[SuiteEpisode], pools: Path | None) -> None:
    """Every rule seed agrees with the missions played under it and has its tables (one line
    naming the flag otherwise); the pools file reaches every service started from here."""
    from gptnt.missions import get_mission
    from gptnt.preflight import use_rule_seed

    by_seed: dict[int, set[str]] = {}
    for ep in episodes:
        by_seed.setdefault(ep.rule_seed, set()).add(ep.mission_id)
    for seed, missions in by_seed.items():
        use_rule_seed(seed, pools, [get_mission(m) for m in sorted(missions)])


def _spec(ep: SuiteEpisode) -> EpisodeSpec:
    from gptnt.services.manager import EpisodeSpec

    return EpisodeSpec.make(
        ep.mission_id, ep.mode, ep.defuser, ep.expert or ep.defuser, repeat=ep.repeat,
        seed=ep.repeat, solo=ep.solo, no_manual=ep.no_manual, manual=ep.manual,
        rule_seed=ep.rule_seed, time_factor=ep.time_factor, suite=ep.suite,
    )  # fmt: skip


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
    games: Annotated[
        int, typer.Option("--games", min=1, max=MAX_GAMES, help="Games played in parallel.")
    ] = 2,
    retries: Annotated[
        int, typer.Option(min=0, max=20, help="Re-runs of a crashed episode before it is parked.")
    ] = 2,
    max_cost_usd: Annotated[
        float | None,
        typer.Option(
            min=0,
            help="Budget cap: schedule no new episode once the recorded cost "
            "reaches it (episodes already started finish).",
        ),
    ] = None,
    confirm_above_usd: Annotated[
        float, typer.Option(min=0, help="Ask before a run estimated to cost more than this.")
    ] = 20.0,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask; run.")] = False,
    queue_depth: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Episodes queued ahead (default --games); raise it when "
            "`gptnt worker`s on other hosts take from the queue.",
        ),
    ] = None,
    progress_every: Annotated[
        float, typer.Option(min=0.5, help="Seconds between progress lines when output is piped.")
    ] = 5.0,
    run_name: Annotated[
        str | None,
        typer.Option(
            "--run",
            help="Run directory name under --out (default: "
            "suite-<name>-<players>; rerun it to resume).",
        ),
    ] = None,
    out: Out = None,
    redis_url: RedisUrl = None,
    game: Game = None,
    launch: Annotated[
        str | None,
        typer.Option(
            "--launch",
            help="warm: each service its own process, forked from a warm server that has the "
            "game and player stack imported; process: a fresh interpreter per service; task: "
            "all in this process; default warm (setting bus.launch).",
        ),
    ] = None,
    config: ConfigFile = None,
) -> None:
    """Plan a suite, confirm its cost, and play it on N parallel games; resumable.

    Settings come from defaults < --config YAML < GPTNT_* variables < these flags
    (`gptnt config show` prints them)."""
    import asyncio

    from gptnt.cli._console import make_console
    from gptnt.cli.config import command_config
    from gptnt.preflight import Needs, preflight
    from gptnt.records import Ledger, RunInfo, RunLock, write_run_info
    from gptnt.services.bus import redis_url as resolve_redis
    from gptnt.services.manager import EpisodeSettings, Job, check_turns, player_infos
    from gptnt.services.manager.api import player_slug
    from gptnt.suites import plan

    layered = command_config(ctx, SUITE_SETTINGS, config)
    cfg = layered.config
    out = cfg.records.out
    selection = _selection(players, only, modes, repeats, limit, solo, no_manual, rule_seed,
                           layered)  # fmt: skip
    suite, episodes = _expand(ref, selection)
    _check_rule_seeds(episodes, pools)
    specs = [_spec(ep) for ep in episodes]
    lineups = {(s.defuser, s.expert, s.solo, s.no_manual, s.manual, s.rule_seed): s for s in specs}
    for spec in lineups.values():  # a bad player or manual fails here, before anything starts
        player_infos(spec)
    p = plan(episodes)
    console = make_console()
    print_plan(console, suite.name, p)
    _confirm(p.total.cost, confirm_above_usd, yes)
    # Keys, endpoints, the game, Redis and --out: checked and probed before anything starts.
    models = {c.config.model_dump_json(): c.config for spec in lineups.values()
              for c in spec.lineup() if c is not None and c.config is not None}  # fmt: skip
    preflight(Needs(players=list(models.values()), game=cfg.game.backend,
                    redis_url=cfg.bus.redis_url, out=out))  # fmt: skip

    names = list(dict.fromkeys(n for ep in episodes for n in (ep.defuser, ep.expert) if n))
    run = run_name or f"suite-{suite.name}-{'-'.join(player_slug(n) for n in names)}"
    settings = EpisodeSettings.from_config(cfg, suite=True)
    for spec in lineups.values():  # every turn leaves its model call time (the Budget)
        check_turns(spec.lineup(), settings)
    run_dir = out / run
    ctx.with_resource(RunLock(run_dir))  # one writer per run directory, until the command ends
    ledger = Ledger(run_dir)
    ledger.reconcile()
    latest, done = ledger.latest(), ledger.done()
    todo = []
    for spec in specs:
        if spec.key in done:
            continue
        attempt = latest[spec.key].attempt + 1 if spec.key in latest else 1
        todo.append(Job(run=run, spec=spec.model_copy(update={"attempt": attempt}),
                        settings=settings, retries=retries))  # fmt: skip
    spent, unpriced = ledger.spent()
    info = RunInfo(suite=suite.name, episodes=len(specs), estimated_cost_usd=p.total.cost,
                   max_cost_usd=max_cost_usd, spent_usd=spent, unpriced=unpriced)  # fmt: skip
    write_run_info(run_dir, info)
    console.print(f"{len(specs) - len(todo)} already done, {len(todo)} to play on {games} "
                  f"game(s); records in {run_dir}", highlight=False)  # fmt: skip
    progress = Progress(total=len(todo), spent=spent, cap=max_cost_usd, unpriced=unpriced)
    with resolve_redis(cfg.bus.redis_url) as url:
        interrupted = asyncio.run(_drive(url, out, run, todo, games, queue_depth or games,
                                         progress, console, progress_every))  # fmt: skip
    info = info.model_copy(update={"spent_usd": progress.spent, "unpriced": progress.unpriced,
                                   "capped": progress.capped,
                                   "unscheduled": progress.unscheduled})  # fmt: skip
    write_run_info(run_dir, info)
    if progress.capped:
        console.print(f"[bold yellow]budget cap reached[/bold yellow]: {usd(progress.spent, partly_unknown=progress.unpriced)} "
                      f"recorded of --max-cost-usd {max_cost_usd:g}; {progress.unscheduled} "
                      "episode(s) not scheduled (rerun with a higher cap to continue)",
                      highlight=False)  # fmt: skip
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


_STALL_LIMIT_S = 120.0  # wall seconds the results stream may stay unreadable before giving up


@dataclass
class Progress:
    """What the suite run has seen so far; ``line`` is the piped progress line."""

    total: int
    spent: float = 0.0  # recorded cost, settled attempts plus the turns of episodes in play
    unpriced: bool = False  # a model call had no price: the cost is partly unknown
    cap: float | None = None
    counts: dict[str, int] = field(
        default_factory=lambda: {"solved": 0, "timeout": 0, "strikeout": 0, "crashed": 0,
                                 "parked": 0}
    )  # fmt: skip
    settled: set[str] = field(default_factory=set)
    playing: dict[str, str] = field(default_factory=dict)  # worker → episode key
    live_cost: dict[str, float] = field(default_factory=dict)  # key → cost of turns so far
    started: float = field(default_factory=time.monotonic)
    capped: bool = False
    unscheduled: int = 0

    @property
    def cost(self) -> float:
        return self.spent + sum(self.live_cost.values())

    @property
    def over_budget(self) -> bool:
        return self.cap is not None and self.cost >= self.cap

    def spent_text(self) -> str:
        """``$1.23``, ``$1.23 + unknown`` or ``unknown`` (nothing priced, something unpriced)."""
        if self.unpriced and not self.cost:
            return usd(None)
        return usd(self.cost, partly_unknown=self.unpriced)

    def eta(self) -> str:
        done = len(self.settled)
        if not done or done >= self.total:
            return "–"
        left = (time.monotonic() - self.started) / done * (self.total - done)
        return f"{left / 60:.0f} min" if left >= 90 else f"{left:.0f} s"

    def line(self) -> str:
        c = self.counts
        cap = f" of {self.cap:g}" if self.cap is not None else ""
        return (f"{len(self.settled)}/{self.total} done, {c['solved']} solved, {c['timeout']} "
                f"timeout, {c['strikeout']} strikeout, {c['crashed']} crashed, {c['parked']} "
                f"parked, {self.spent_text()}{cap} spent, {time.monotonic() - self.started:.0f} s, "
                f"ETA {self.eta()}")  # fmt: skip


async def _drive(url: str, out: Path, run: str, todo: list[Job], games: int, depth: int,
                 progress: Progress, console: Console, every: float) -> str:  # fmt: skip
    """Play ``todo`` on ``games`` local workers; what interrupted the run ("" if nothing).

    On SIGINT/SIGTERM, or when Redis goes away, the workers still end their episodes (as
    ``interrupted`` or ``crashed: redis …``) and write their summaries and ledger lines before
    this returns or raises; the run's queued episodes that were not started are removed.
    Records that workers on other hosts ship with their results are written into the run.
    """
    import asyncio
    import contextlib

    from redis.exceptions import TimeoutError as RedisTimeout
    from rich.live import Live
    from rich.table import Table

    from gptnt.records import TurnEvent
    from gptnt.services.bus import REDIS_CALL_S, connect, within
    from gptnt.services.manager import Interrupt, enqueue, purge, receive, results_key, work

    redis = connect(url)
    pending = list(todo)
    scheduled = 0

    def view() -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_row(progress.line())
        for worker, key in sorted(progress.playing.items()):
            table.add_row(f"  [dim]{worker}[/dim] {key}")
        return table

    def on_turn(spec: EpisodeSpec, event: TurnEvent) -> None:
        if event.cost_usd is None:
            progress.unpriced = True
        else:
            progress.live_cost[spec.key] = progress.live_cost.get(spec.key, 0.0) + event.cost_usd

    async def schedule() -> None:
        nonlocal scheduled
        while pending and scheduled - len(progress.settled) < depth:
            if progress.over_budget:
                progress.capped = True
                progress.unscheduled = len(pending)
                return
            await enqueue(redis, [pending.pop(0)])
            scheduled += 1

    stop = asyncio.Event()
    interrupt = Interrupt()
    interrupt.install()
    workers: list[asyncio.Task[None]] = []
    terminal = console.is_terminal
    try:
        async with within(60, "starting the suite"):
            # Records a remote worker shipped while no suite was reading are kept first.
            for _entry_id, fields in await redis.xrange(results_key(run)):
                receive(out / run, fields)
            await redis.delete(results_key(run))
        workers = [
            asyncio.create_task(work(connect(url), url, out, name=f"{run}-game{i}", stop=stop,
                                     on_turn=on_turn, interrupt=interrupt,
                                     on_start=lambda w, j: progress.playing.__setitem__(w, j.spec.key),
                                     on_end=lambda w, j, s: progress.playing.pop(w, None)))
            for i in range(games)
        ]  # fmt: skip
        last_id = "0"
        last_line = time.monotonic()
        last_read = time.monotonic()
        live = Live(view(), console=console, refresh_per_second=4) if terminal else None
        with live or contextlib.nullcontext():
            await schedule()
            while len(progress.settled) < scheduled and not interrupt.is_set():
                try:
                    async with within(10, "reading the suite's results"):
                        got = await redis.xread({results_key(run): last_id}, block=500)
                    last_read = time.monotonic()
                except RedisTimeout:  # the loop was busy with in-process players; bounded
                    if time.monotonic() - last_read > _STALL_LIMIT_S:
                        raise
                    got = None
                for _stream, entries in got or []:
                    for entry_id, fields in entries:
                        last_id = entry_id
                        entry = receive(out / run, fields)
                        progress.live_cost.pop(entry.episode_key, None)
                        if entry.cost_usd is None:
                            progress.unpriced = True
                        else:
                            progress.spent += entry.cost_usd
                        if entry.status == "crashed":
                            progress.counts["crashed"] += 1
                            continue
                        progress.counts[
                            "parked" if entry.status == "parked" else entry.outcome
                        ] += 1
                        progress.settled.add(entry.episode_key)
                for task in workers:
                    if task.done() and task.exception():
                        raise task.exception()  # type: ignore[misc]
                await schedule()
                if live is not None:
                    live.update(view())
                elif time.monotonic() - last_line >= every:
                    last_line = time.monotonic()
                    console.print(progress.line(), highlight=False, soft_wrap=True)
            progress.playing.clear()
            if live is not None:
                live.update(view())
        if live is None:
            console.print(progress.line(), highlight=False, soft_wrap=True)
    finally:
        stop.set()
        if workers:  # bounded: each episode's own waits are
            await asyncio.wait(workers, timeout=120)
        with contextlib.suppress(Exception):
            await purge(redis, run)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(REDIS_CALL_S):
                await redis.aclose()
    return interrupt.reason


def _print_report(run_dir: Path, console: Console) -> None:
    from gptnt.cli.report import run_tables, warn_missing

    warn_missing(run_dir, console)
    for table in run_tables(run_dir):
        console.print(table)


def worker(
    ctx: typer.Context,
    redis_url: Annotated[
        str | None,
        typer.Option(
            "--redis-url",
            help="The suite's Redis (admin URL); default $GPTNT_REDIS_URL (setting bus.redis_url).",
        ),
    ] = None,
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
    """Take episodes from a suite's queue on this host until interrupted.

    Each episode is played with the settings the suite queued it with (game, timing, launch);
    from defaults < --config YAML < GPTNT_* variables < these flags the worker takes where to
    meet (bus.redis_url) and where to stage records (records.out)."""
    import asyncio

    from gptnt.cli.config import command_config

    cfg = command_config(ctx, WORKER_SETTINGS, config).config
    url = cfg.bus.queue_url("a worker")
    if pools is not None:
        from gptnt.preflight import share_pools

        share_pools(pools)

    from gptnt.cli import ExitCode
    from gptnt.services.manager import serve

    typer.echo(f"worker: taking episodes from {url.rsplit('@', 1)[-1]}; Ctrl-C stops")
    stopped_by = asyncio.run(serve(url, cfg.records.out, games))
    typer.echo(f"worker: stopped by {stopped_by}; its episodes in flight are recorded", err=True)
    raise typer.Exit(ExitCode.INTERRUPTED)


def register(app: typer.Typer) -> None:
    suite_app.command("list")(suite_list)
    suite_app.command("show")(suite_show)
    suite_app.command("plan")(suite_plan)
    suite_app.command("run")(suite_run)
    app.add_typer(suite_app, name="suite")
    app.command("worker")(worker)
