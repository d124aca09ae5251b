"""``gptnt run``: play one episode (game + two players over Redis) and print its result.

With no player named, they are the scripted oracle pair (privileged, not a model), so
``gptnt run --mission 3 --mode async`` needs no key, no game and no Redis: the simulator runs
in the game service and an embedded Redis server is started and stopped around the run.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gptnt.cli.config import ConfigFile

if TYPE_CHECKING:
    from gptnt.missions import Mission
    from gptnt.records import Summary, TurnEvent
    from gptnt.services.manager import EpisodeSpec

# Options that are settings of the layered configuration (gptnt.config) default to None: left
# out, they set nothing, and the value in force comes from the file, the environment or the
# setting's one default (named in the help, checked against gptnt.config by a test).
RedisUrl = Annotated[
    str | None,
    typer.Option("--redis-url", help="Redis to use (admin URL); default $GPTNT_REDIS_URL, else "
                 "an embedded server started for this run (setting bus.redis_url)."),
]  # fmt: skip
Game = Annotated[
    str | None,
    typer.Option("--game", help="Game backend: sim (in the game service), sim-process, or the "
                 "URL of a protocol server (recorded stub, real game with the mod); default sim "
                 "(setting game.backend)."),
]  # fmt: skip
Out = Annotated[
    Path | None,
    typer.Option("--out", help="Directory that receives the run directories; default runs "
                 "(setting records.out)."),
]  # fmt: skip
Pools = Annotated[
    Path | None,
    typer.Option(help="Rule-seed word pools file (Morse, Password) for seeds other than 1."),
]
LaunchOption = Annotated[
    str | None,
    typer.Option("--launch", help="process: each service its own process; warm: each forked "
                 "from a server with the stack imported; task: all in this process (for "
                 "debugging); default process (setting bus.launch)."),
]  # fmt: skip


def turn_line(spec: EpisodeSpec, event: TurnEvent) -> str:
    """One live line per turn: who, which turn, the bomb clock, what was done, and why."""
    from gptnt.protocol import timer_text

    clock = timer_text(event.seconds_remaining) if event.seconds_remaining is not None else "     "
    action = event.action
    what = {
        "interact_game": f"{action.name}{' ' + action.label if action.label else ''}",
        "send_message": "message",
        "do_nothing": "wait",
    }[action.kind]
    said = event.raw_output.splitlines()[0] if event.raw_output else ""
    errors = f" [red]{'; '.join(event.errors)}[/red]" if event.errors else ""
    return (
        f"[dim]{spec.mission_id} {spec.mode}[/dim] {event.role:<7} #{event.turn:<3} {clock:>5}  "
        f"[bold]{what:<18}[/bold] {said[:80]}{errors}"
    )


def _cells(s: Summary) -> dict[str, str]:
    icon = {"solved": "[green]solved[/green]", "timeout": "[yellow]timeout[/yellow]",
            "strikeout": "[red]strikeout[/red]", "crashed": "[bold red]crashed[/bold red]",
            "interrupted": "[magenta]interrupted[/magenta]"}  # fmt: skip
    players = {p.role: p.label for p in s.players}
    return {
        "mission": s.mission_id,
        "mode": s.mode,
        "defuser": players.get("defuser", "?"),
        "expert": players.get("expert", "none (solo)"),
        "outcome": icon[s.outcome],
        "modules": f"{s.modules_solved}/{len(s.modules)} "
        + " ".join(("●" if m.solved else "○") + m.name for m in s.modules),
        "strikes": str(s.strikes),
        "clock used": ""
        if s.game_time_used is None
        else f"{s.game_time_used:.0f} of {s.time_limit:.0f} s",
        "turns D/E": f"{s.turns.get('defuser', 0)}/{s.turns.get('expert', 0)}",
        "messages D/E": f"{s.messages.get('defuser', 0)}/{s.messages.get('expert', 0)}",
        "reason": s.reason,
    }


def result_table(summaries: list[Summary]):  # type: ignore[no-untyped-def]
    """Episode results as a rich table: one row per episode, or field/value for just one."""
    from rich.table import Table

    rows = [_cells(s) for s in summaries]
    if len(rows) == 1:
        table = Table(title="Result", show_header=False)
        table.add_column("field", style="bold")
        table.add_column("value")
        for field, value in rows[0].items():
            table.add_row(field, value)
        return table
    table = Table(title="Results")
    for column in rows[0] if rows else ():
        table.add_column(column)
    for row in rows:
        table.add_row(*row.values())
    return table


def share_pools(pools: Path) -> None:
    """Check the word pools file, then hand it to every service this process starts (through
    the inherited ``GPTNT_RULESEED_POOLS``)."""
    import os

    from gptnt.rules.ruleseed import ENV, read_pools

    read_pools(pools)
    os.environ[ENV] = str(pools.resolve())


def use_rule_seed(
    flag: int | None, pools: Path | None, missions: list[Mission], *, name: str = "--rule-seed"
) -> int:
    """The rule seed in force (``flag``: ``--rule-seed`` or ``game.rule_seed`` set in a layer,
    named ``name`` in errors; else the missions' ``ruleSeed``, else 1), checked up front: it
    agrees with every mission naming one and has tables for their modules.
    The word pools file given goes to every service this process starts (``share_pools``)."""
    from gptnt.errors import ConfigError
    from gptnt.rules.ruleset import ruleset

    named = sorted({m.config.rule_seed for m in missions if m.config.rule_seed is not None})
    seed = flag if flag is not None else (named[0] if named else 1)
    clash = next((m for m in missions if m.config.rule_seed not in (None, seed)), None)
    if clash is not None:
        raise ConfigError(
            f"{name} {seed}: mission {clash.id} names ruleSeed {clash.config.rule_seed}; "
            "drop it or pick missions of one rule seed"
        )
    if pools is not None:
        share_pools(pools)
    rules = ruleset(seed, pools=pools)
    rules.require({kind for m in missions for kind in m.config.components})
    return seed


# The options of `gptnt run` that are settings of the layered configuration (gptnt.config).
RUN_SETTINGS = {
    "defuser": "players.defuser",
    "expert": "players.expert",
    "manual": "players.manual",
    "seed": "players.seed",
    "game": "game.backend",
    "rule_seed": "game.rule_seed",
    "record": "game.record",
    "launch": "bus.launch",
    "redis_url": "bus.redis_url",
    "out": "records.out",
    "step_sleep": "timing.step_sleep_s",
    "idle_sleep": "timing.idle_sleep_s",
}


def run(
    ctx: typer.Context,
    mission: Annotated[
        str, typer.Option("--mission", help="Mission id (see `gptnt missions list`).")
    ],
    mode: Annotated[
        str, typer.Option("--mode", help="sync (turn-based, paused clock) or async (real time).")
    ] = "async",
    defuser: Annotated[
        str | None,
        typer.Option(
            help="The Defuser: oracle (privileged, scripted), random (scripted), a player config "
            "in configs/players/ (claude-sonnet-4-6, gpt-5-2, gemini-3-flash, qwen3-5-27b, "
            "internvl3-5-38b), a YAML file, or a pydantic-ai model string "
            "(anthropic:claude-sonnet-4-6); default oracle (setting players.defuser)."
        ),
    ] = None,
    expert: Annotated[
        str | None,
        typer.Option(
            help="The Expert: oracle, idle or random (scripted), or a model as for --defuser; "
            "default oracle (setting players.expert)."
        ),
    ] = None,
    solo: Annotated[
        str | None,
        typer.Option(
            help="Ablation (paper §10.2): one model, named as for --defuser, holds the bomb and "
            "the manual; no Expert plays."
        ),
    ] = None,
    no_manual: Annotated[
        bool,
        typer.Option(
            "--no-manual",
            help="With --solo: the model plays without the manual (parametric knowledge only).",
        ),
    ] = False,
    manual: Annotated[
        str | None,
        typer.Option(
            help="The manual a model Expert (or solo model) reads: 'generated' (typeset for the "
            "game's rules) or a manual directory from `gptnt manual build` / `gptnt manual "
            "import`; default generated (setting players.manual)."
        ),
    ] = None,
    game: Game = None,
    redis_url: RedisUrl = None,
    out: Out = None,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed of the players' own randomness; default 0 (setting players.seed)."),
    ] = None,
    rule_seed: Annotated[
        int | None,
        typer.Option(
            help="Rule seed of game, manual and oracle together (1 = the v1 manual); default: "
            "the mission's ruleSeed, else 1 (setting game.rule_seed)."
        ),
    ] = None,
    pools: Pools = None,
    launch: LaunchOption = None,
    step_sleep: Annotated[
        float | None,
        typer.Option(
            help="sync: wall seconds to sleep after each /timestep (GPTNT used 3 for the real "
            "game); default 0.0 (setting timing.step_sleep_s)."
        ),
    ] = None,
    idle_sleep: Annotated[
        float | None,
        typer.Option(
            help="async: wall seconds between a player's turns; default 0.5 (setting timing.idle_sleep_s)."
        ),
    ] = None,
    clock: Annotated[
        str,
        typer.Option(
            help="async: wall (the bomb clock runs in real time while the players think, the "
            "paper's) or virtual (the game stays paused and each turn takes its --latency of "
            "game time; docs/virtual-clock.md)."
        ),
    ] = "wall",
    latency: Annotated[
        str | None,
        typer.Option(
            help="With --clock virtual: how long a turn takes in game time: measured (the "
            "call's own wall latency, kept in the record), fixed:SECONDS, or tokens (the player "
            "config's first_token_s + output tokens × seconds_per_token); default measured."
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option(help="No line per turn.")] = False,
    record: Annotated[
        Path | None,
        typer.Option(
            help="Write the game service's whole exchange with the game to this recording "
            "(a zip); `gptnt stub serve FILE` replays it to a sync run with the same players "
            "(setting game.record)."
        ),
    ] = None,
    config: ConfigFile = None,
) -> None:
    """Play one episode and print its result; exits non-zero if it crashed.

    Settings come from defaults < --config YAML < GPTNT_* variables < these flags
    (`gptnt config show` prints them)."""
    import asyncio
    import dataclasses

    from gptnt.errors import ConfigError
    from gptnt.protocol import MODES, ROLES

    # Every input is checked, cheapest first, before the heavy imports and any service.
    if mode not in MODES:
        raise ConfigError(f"--mode {mode!r}: use sync or async")
    latency = check_clock(clock, latency, mode)
    from gptnt.cli.config import command_config

    layered = command_config(ctx, RUN_SETTINGS, config)
    cfg = layered.config
    if solo is not None:  # one model holds both roles: a Defuser or Expert set anywhere clashes
        for key in ("players.defuser", "players.expert"):
            if key in layered.sources:
                raise ConfigError(f"--solo: one model holds both roles; drop {layered.named(key)}")
        defuser, expert = None, None
    else:
        defuser, expert = cfg.players.defuser, cfg.players.expert
    manual, seed = cfg.players.manual, cfg.players.seed
    out = cfg.records.out
    from gptnt.missions import get_mission
    from gptnt.preflight import Needs, check_inputs, preflight

    needs = Needs(game=cfg.game.backend, redis_url=cfg.bus.redis_url, out=out)
    check_inputs(needs)
    mission_obj = get_mission(mission)
    rule_seed = use_rule_seed(
        layered.given("game.rule_seed"), pools, [mission_obj], name=layered.named("game.rule_seed")
    )
    from gptnt.players.seats import attach_manual, resolve_lineup

    # Unknown players, then keys, endpoints, the game and Redis (checked and probed), then a
    # bad manual: one line each, before any service starts.
    defuser_seat, expert_seat = resolve_lineup(
        defuser, expert, solo=solo, manual=manual, no_manual=no_manual, read_manual=False,
        rule_seed=rule_seed, names={r: layered.named(f"players.{r}") for r in ROLES},
    )  # fmt: skip
    lineup = (defuser_seat, expert_seat)
    models = [c.config for c in lineup if c is not None and c.config is not None]
    preflight(dataclasses.replace(needs, players=models))
    lineup = (
        attach_manual(defuser_seat, manual),
        None if expert_seat is None else attach_manual(expert_seat, manual),
    )

    from gptnt.cli._console import make_console
    from gptnt.services.bus import redis_url as resolve_redis
    from gptnt.services.manager import (
        EpisodeSettings,
        EpisodeSpec,
        Interrupt,
        check_turns,
        play_episode,
    )

    spec = EpisodeSpec.make(
        mission_obj.id, mode, solo or cfg.players.defuser, cfg.players.expert,  # type: ignore[arg-type]
        seed=seed, solo=solo is not None, no_manual=no_manual, manual=manual, rule_seed=rule_seed,
        clock=clock, latency=latency,  # type: ignore[arg-type]
    )  # fmt: skip
    settings = EpisodeSettings.from_config(cfg)
    check_turns(lineup, settings)  # every turn leaves its model call time (the Budget)
    if cfg.game.record is not None:  # the game service may run in another directory
        game = settings.game.model_copy(update={"record": cfg.game.record.resolve()})
        settings = settings.model_copy(update={"game": game})
    run_dir = out / f"{time.strftime('%Y%m%d-%H%M%S')}-{mission_obj.id}-{mode}"
    console = make_console()
    players = ", ".join(f"{c.role if c.seat in (None, c.role) else c.seat} {c.label}"
                        for c in lineup if c is not None)  # fmt: skip
    console.print(f"[bold]{mission_obj.title}[/bold] — {mode}; {players}; records in {run_dir}")

    def on_turn(spec: EpisodeSpec, event: TurnEvent) -> None:
        if not quiet:
            console.print(
                turn_line(spec, event), highlight=False, no_wrap=True, overflow="ellipsis"
            )

    async def play() -> Summary:
        interrupt = Interrupt()
        interrupt.install()
        return await play_episode(
            spec, settings, admin_url=url, run_dir=run_dir, on_turn=on_turn, interrupt=interrupt
        )

    with resolve_redis(cfg.bus.redis_url) as url:
        summary = asyncio.run(play())
    console.print(result_table([summary]))
    exit_on(summary.outcome, summary.reason)


def check_clock(clock: str, latency: str | None, mode: str) -> str | None:
    """``--clock`` and ``--latency`` checked together: the latency model's canonical name for
    the virtual clock (default ``measured``), ``None`` for the wall clock."""
    from gptnt.errors import ConfigError
    from gptnt.players.clock import parse_latency

    if clock not in ("wall", "virtual"):
        raise ConfigError(f"--clock {clock!r}: use wall or virtual")
    if clock == "wall":
        if latency is not None:
            raise ConfigError("--latency: a latency model needs --clock virtual")
        return None
    if mode != "async":
        raise ConfigError("--clock virtual: the virtual clock times async play; add --mode async")
    return parse_latency(latency or "measured").name


def exit_on(outcome: str, reason: str) -> None:
    """End the command with the ``ExitCode`` of an episode's (or a suite's) ending: one line on
    stderr when it is not a result of the game."""
    from gptnt.cli import ExitCode

    if outcome == "interrupted":
        typer.echo(f"interrupted: {reason}; the rerun plays it again", err=True)
        raise typer.Exit(ExitCode.INTERRUPTED)
    if outcome == "crashed":
        # One line naming what broke (a replayed game's divergence says request, expected and
        # received); the result table above may have wrapped it.
        typer.echo(f"crashed: {' '.join(reason.split())}", err=True)
        raise typer.Exit(ExitCode.CRASHED)


def register(app: typer.Typer) -> None:
    app.command("run")(run)
