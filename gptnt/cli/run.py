"""``gptnt run``: play one episode (game + two players over Redis) and print its result.

With no player named, they are the scripted oracle pair (privileged, not a model), so
``gptnt run --mission 3 --mode async`` needs no key, no game and no Redis: the simulator runs
in the game service and an embedded Redis server is started and stopped around the run.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gptnt.cli.config import ConfigFile

if TYPE_CHECKING:
    from rich.table import Table

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
        else f"{s.game_time_used:.0f} of {s.time_limit or 0:.0f} s",
        "turns D/E": f"{s.turns.get('defuser', 0)}/{s.turns.get('expert', 0)}",
        "messages D/E": f"{s.messages.get('defuser', 0)}/{s.messages.get('expert', 0)}",
        "reason": s.reason,
    }


def result_table(summaries: list[Summary]) -> Table:
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


# The options of `gptnt run` that are settings of the layered configuration (gptnt.config).
RUN_SETTINGS = {
    "defuser": "players.defuser",
    "expert": "players.expert",
    "defuser_base_url": "players.defuser_base_url",
    "expert_base_url": "players.expert_base_url",
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


# The options of `gptnt run`.
_Mission = Annotated[str, typer.Option("--mission", help="Mission id (see `gptnt missions list`).")]
_Mode = Annotated[
    str, typer.Option("--mode", help="sync (turn-based, paused clock) or async (real time).")
]
_Defuser = Annotated[
    str | None,
    typer.Option(
        help="The Defuser: oracle (privileged, scripted), random (scripted), a player config "
        "in configs/players/ (claude-sonnet-4-6, gpt-5-2, gemini-3-flash, qwen3-5-27b, "
        "internvl3-5-38b), a YAML file, or a pydantic-ai model string "
        "(anthropic:claude-sonnet-4-6); default oracle (setting players.defuser)."
    ),
]
_Expert = Annotated[
    str | None,
    typer.Option(
        help="The Expert: oracle, idle or random (scripted), or a model as for --defuser; "
        "default oracle (setting players.expert)."
    ),
]
_DefuserBaseUrl = Annotated[
    str | None,
    typer.Option(
        help="The Defuser model's endpoint, over its config's base_url: an OpenAI-compatible "
        "server (http://127.0.0.1:8000/v1), or another endpoint of its provider (Azure: the "
        "resource). OPENAI_BASE_URL does the same for every openai: model "
        "(setting players.defuser_base_url)."
    ),
]
_ExpertBaseUrl = Annotated[
    str | None,
    typer.Option(
        help="The Expert model's endpoint, as --defuser-base-url (setting players.expert_base_url)."
    ),
]
_Solo = Annotated[
    str | None,
    typer.Option(
        help="Ablation (paper §10.2): one model, named as for --defuser, holds the bomb and "
        "the manual; no Expert plays."
    ),
]
_NoManual = Annotated[
    bool,
    typer.Option(
        "--no-manual",
        help="With --solo: the model plays without the manual (parametric knowledge only).",
    ),
]
_Manual = Annotated[
    str | None,
    typer.Option(
        help="The manual a model Expert (or solo model) reads: 'generated' (typeset for the "
        "game's rules) or a manual directory from `gptnt manual build` / `gptnt manual "
        "import`; default generated (setting players.manual)."
    ),
]
_Seed = Annotated[
    int | None,
    typer.Option(help="Seed of the players' own randomness; default 0 (setting players.seed)."),
]
_RuleSeed = Annotated[
    int | None,
    typer.Option(
        help="Rule seed of game, manual and oracle together (1 = the v1 manual); default: "
        "the mission's ruleSeed, else 1 (setting game.rule_seed)."
    ),
]
_StepSleep = Annotated[
    float | None,
    typer.Option(
        help="sync: wall seconds to sleep after each /timestep (GPTNT used 3 for the real "
        "game); default 0.0 (setting timing.step_sleep_s)."
    ),
]
_IdleSleep = Annotated[
    float | None,
    typer.Option(
        help="async: wall seconds between a player's turns; default 0.5 (setting timing.idle_sleep_s)."
    ),
]
_Clock = Annotated[
    str,
    typer.Option(
        help="async: wall (the bomb clock runs in real time while the players think, the "
        "paper's) or virtual (the game stays paused and each turn takes its --latency of "
        "game time; docs/virtual-clock.md)."
    ),
]
_Latency = Annotated[
    str | None,
    typer.Option(
        help="With --clock virtual: how long a turn takes in game time: measured (the "
        "call's own wall latency, kept in the record), fixed:SECONDS, or tokens (the player "
        "config's first_token_s + output tokens × seconds_per_token); default measured."
    ),
]
_Quiet = Annotated[bool, typer.Option(help="No line per turn.")]
_Record = Annotated[
    Path | None,
    typer.Option(
        help="Write the game service's whole exchange with the game to this recording "
        "(a zip); `gptnt stub serve FILE` replays it to a sync run with the same players "
        "(setting game.record)."
    ),
]


def run(
    ctx: typer.Context,
    mission: _Mission,
    mode: _Mode = "async",
    defuser: _Defuser = None,
    expert: _Expert = None,
    defuser_base_url: _DefuserBaseUrl = None,
    expert_base_url: _ExpertBaseUrl = None,
    solo: _Solo = None,
    no_manual: _NoManual = False,
    manual: _Manual = None,
    game: Game = None,
    redis_url: RedisUrl = None,
    out: Out = None,
    seed: _Seed = None,
    rule_seed: _RuleSeed = None,
    pools: Pools = None,
    launch: LaunchOption = None,
    step_sleep: _StepSleep = None,
    idle_sleep: _IdleSleep = None,
    clock: _Clock = "wall",
    latency: _Latency = None,
    quiet: _Quiet = False,
    record: _Record = None,
    config: ConfigFile = None,
) -> None:
    """Play one episode and print its result; exits non-zero if it crashed.

    Settings come from defaults < --config YAML < GPTNT_* variables < these flags
    (`gptnt config show` prints them)."""
    from gptnt.api import Starting, run_episode
    from gptnt.cli._console import make_console
    from gptnt.cli.config import command_config
    from gptnt.errors import ConfigError
    from gptnt.protocol import MODES

    if mode not in MODES:  # checked before the layered configuration is read
        raise ConfigError(f"--mode {mode!r}: use sync or async")
    console = make_console()

    def on_start(start: Starting) -> None:
        console.print(f"[bold]{start.mission.title}[/bold] — {mode}; {start.players}; "
                      f"records in {start.run_dir}")  # fmt: skip

    def on_turn(spec: EpisodeSpec, event: TurnEvent) -> None:
        if not quiet:
            console.print(
                turn_line(spec, event), highlight=False, no_wrap=True, overflow="ellipsis"
            )

    # --clock is the option's text: run_episode refuses one that is not wall or virtual
    summary = run_episode(
        mission, mode, solo=solo, no_manual=no_manual, pools=pools, clock=clock,  # type: ignore[arg-type]
        latency=latency,
        config=command_config(ctx, RUN_SETTINGS, config), on_start=on_start, on_turn=on_turn,
    )  # fmt: skip
    console.print(result_table([summary]))
    exit_on(summary.outcome, summary.reason)


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
