"""``gptnt sanzaru run|suite|report|judge|variants``: the SANZARU mode (three agents, split senses)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

TEAM_HELP = "'oracle', 'random', or a player config / YAML / provider:model for every role"


def _team(team: str, hints: str, solo: bool, thinking: str | None):  # type: ignore[no-untyped-def]
    from gptnt.errors import ConfigError
    from gptnt.sanzaru import HINTS, Team

    if hints not in HINTS:
        raise ConfigError(f"--hints {hints!r}: use one of {', '.join(HINTS)}")
    if thinking not in (None, "off", "on", "max"):
        raise ConfigError(f"--thinking {thinking!r}: use off, on or max")
    if team in ("oracle", "random"):
        if solo:
            raise ConfigError("--solo needs a model team; the oracle and random teams are trios")
        return Team(team, team, hints=hints)  # type: ignore[arg-type]
    from gptnt.players.backends import check_endpoint
    from gptnt.players.config import load_player_config

    config = load_player_config(team)
    if thinking is not None:
        # The paper's budgets: off; on (capped, about 4,096 tokens) → a medium effort; max
        # (uncapped) → the provider's highest effort.
        level = {"off": "off", "on": "medium", "max": "max"}[thinking]
        config = config.model_copy(update={"thinking": level})
    check_endpoint(config)
    return Team("model", config.name or config.model, config, hints, solo, thinking)  # type: ignore[arg-type]


def run(
    variant: Annotated[
        str, typer.Argument(help="A variant id, e.g. base-1 (see `sanzaru variants`).")
    ],
    team: Annotated[str, typer.Option(help=f"Who plays: {TEAM_HELP}.")] = "oracle",
    instance: Annotated[int, typer.Option(min=1, max=5, help="Instance of the variant (1–5).")] = 1,
    hints: Annotated[str, typer.Option(help="none, weak, strong or playbook.")] = "weak",
    solo: Annotated[
        bool, typer.Option("--solo", help="One agent with every view, no hints.")
    ] = False,
    thinking: Annotated[
        str | None, typer.Option(help="off, on or max (models that support it).")
    ] = None,
    out: Annotated[Path, typer.Option(help="Run directory for the episode's records.")] = Path(
        "runs/sanzaru"
    ),
) -> None:
    """Play one episode and print how it ended."""
    import asyncio

    from gptnt.sanzaru import play
    from gptnt.sanzaru import variant as find

    summary = asyncio.run(play(find(variant), instance, _team(team, hints, solo, thinking), out))
    typer.echo(
        f"{summary.episode_id}: {summary.outcome} after {summary.rounds_used} of "
        f"{summary.rounds} rounds" + (f" ({summary.failure_mode})" if summary.failure_mode else "")
    )
    if summary.outcome == "crashed":
        raise typer.Exit(3)


def suite(
    team: Annotated[str, typer.Option(help=f"Who plays: {TEAM_HELP}.")] = "oracle",
    out: Annotated[Path, typer.Option(help="Run directory (resumable).")] = Path("runs/sanzaru"),
    variant: Annotated[
        list[str] | None, typer.Option(help="Only these variants; repeatable.")
    ] = None,
    instances: Annotated[int, typer.Option(min=1, max=5, help="Instances per variant.")] = 3,
    repeats: Annotated[int, typer.Option(min=1, help="Episodes per instance.")] = 3,
    hints: Annotated[str, typer.Option(help="none, weak, strong or playbook.")] = "weak",
    solo: Annotated[
        bool, typer.Option("--solo", help="One agent with every view, no hints.")
    ] = False,
    thinking: Annotated[str | None, typer.Option(help="off, on or max.")] = None,
    concurrency: Annotated[int, typer.Option(min=1, help="Episodes in flight at once.")] = 4,
) -> None:
    """The bank: every variant × instance × repeat (the paper: 24 × 3 × 3 = 216 per model)."""
    import asyncio

    from gptnt.cli._console import make_console
    from gptnt.sanzaru import suite as run_suite

    t = _team(team, hints, solo, thinking)
    console = make_console(stderr=True)
    done = {"n": 0, "defused": 0}

    def tick(summary) -> None:  # type: ignore[no-untyped-def]
        done["n"] += 1
        done["defused"] += summary.outcome == "defused"
        if done["n"] % 10 == 0:
            console.print(f"{done['n']} episodes played, {done['defused']} defused")

    summaries = asyncio.run(
        run_suite(
            t,
            out,
            variant_ids=variant,
            instances=instances,
            repeats=repeats,
            concurrency=concurrency,
            on_done=tick,
        )
    )
    defused = sum(s.outcome == "defused" for s in summaries)
    typer.echo(f"{len(summaries)} episodes in {out}: {defused} defused")


def report(
    runs: Annotated[list[Path], typer.Argument(help="SANZARU run directories.")],
    out: Annotated[
        Path | None,
        typer.Option(
            help="Also write report.md, report.html (offline) and tables/<table>.csv here."
        ),
    ] = None,
) -> None:
    """Success by family, variant, subset, hint level and team with 95 % intervals; failure modes.

    Exit codes: 0 printed (and written), 1 a bad argument (one line naming it), 2 usage."""

    from rich.table import Table

    from gptnt.cli._console import make_console
    from gptnt.errors import ConfigError
    from gptnt.sanzaru import KEYS, failure_table, lines, read_summaries

    if out is not None:
        from gptnt.cli.report import refuse_inside

        refuse_inside(out, runs)
    summaries = read_summaries(runs)
    if not summaries:
        raise ConfigError(f"runs={' '.join(map(str, runs))}: no SANZARU summaries there")
    console = make_console()
    for by in KEYS:
        table = Table(title=f"SANZARU success by {by}")
        for col in (by, "n", "defused", "rate", "95 % CI", "timed out", "wrong action", "crashed"):
            table.add_column(col, justify="left" if col == by else "right")
        for line in lines(summaries, KEYS[by]):
            low, high = line.ci
            table.add_row(
                line.group,
                str(line.n),
                str(line.defused),
                f"{line.rate:.1%}",
                f"{low:.1%}–{high:.1%}",
                str(line.timed_out),
                str(line.wrong_action),
                str(line.crashed),
            )
        console.print(table)
    modes, flags, lost = failure_table(summaries)
    table = Table(title=f"Failure modes and perspective flags of {lost} lost episodes")
    for col in ("coded as", "episodes", "share"):
        table.add_column(col, justify="left" if col == "coded as" else "right")
    for name, k in [*modes.most_common(), *((f"flag: {f}", k) for f, k in flags.most_common())]:
        table.add_row(name, str(k), f"{k / lost:.0%}" if lost else "—")
    console.print(table)
    if out is not None:
        from gptnt.analysis import write_tables
        from gptnt.sanzaru import report_figures, report_tables

        tables = report_tables(summaries)
        teams = ", ".join(dict.fromkeys(s.team for s in summaries))
        write_tables(
            tables,
            out,
            title=f"gptnt SANZARU — {teams}",
            intro=[f"{len(summaries)} episodes from {', '.join(str(r) for r in runs)}."],
            figures=report_figures(tables),
        )
        typer.echo(str(out / "report.html"))


def judge(
    run_dir: Annotated[Path, typer.Argument(metavar="RUN", help="A SANZARU run directory.")],
    player: Annotated[
        str, typer.Option(help="The judge: a player config, YAML or provider:model.")
    ],
    concurrency: Annotated[int, typer.Option(min=1, help="Episodes judged at once.")] = 4,
) -> None:
    """Let a model judge the losses coded by heuristic (misalignment vs wrong_answer).

    Each pick is written into the episode's summary (``coded_by: judge:<model>``; the coder's
    guess stays in ``heuristic_mode``); a rerun judges only what is left. Exit codes: 0 every
    such loss judged, 1 a bad argument, 2 usage, 3 some left unjudged (failed call or no mode
    in the reply: rerun)."""
    import asyncio

    from gptnt.errors import ConfigError
    from gptnt.players.backends import check_endpoint
    from gptnt.players.config import load_player_config
    from gptnt.sanzaru import judge as run_judge
    from gptnt.sanzaru import read_summaries

    if not run_dir.is_dir() or not read_summaries([run_dir]):
        raise ConfigError(f"run_dir={run_dir}: no SANZARU summaries there; name a run directory")
    config = load_player_config(player)
    check_endpoint(config)

    def tick(j) -> None:  # type: ignore[no-untyped-def]
        verdict = j.mode if j.mode else f"not judged ({j.failure})"
        typer.echo(f"{j.episode_id}: heuristic {j.heuristic} → {verdict}")

    verdicts = asyncio.run(run_judge(run_dir, config, concurrency=concurrency, on_done=tick))
    left = sum(j.mode is None for j in verdicts)
    changed = sum(j.mode is not None and j.mode != j.heuristic for j in verdicts)
    typer.echo(f"{len(verdicts) - left} of {len(verdicts)} heuristic losses judged, "
               f"{changed} recoded, {left} left")  # fmt: skip
    if left:
        raise typer.Exit(3)


def variants_cmd() -> None:
    """The 24 variants: family, subset, wires, cuts, manual, round budget."""
    from rich.table import Table

    from gptnt.cli._console import make_console
    from gptnt.sanzaru import variants

    table = Table(title="SANZARU variants")
    for col in ("variant", "family", "subset", "wires", "cuts", "manual", "rounds", "note"):
        table.add_column(col)
    for v in variants().values():
        table.add_row(
            v.id,
            v.family,
            v.subset,
            str(v.wires),
            str(v.cuts or v.code),
            v.manual,
            str(v.rounds),
            v.note,
        )
    make_console().print(table)


def register(app: typer.Typer) -> None:
    sanzaru = typer.Typer(
        help="SANZARU: Deaf, Mute and Blind defuse bombs together.", no_args_is_help=True
    )
    sanzaru.command("run")(run)
    sanzaru.command("suite")(suite)
    sanzaru.command("report")(report)
    sanzaru.command("judge")(judge)
    sanzaru.command("variants")(variants_cmd)
    app.add_typer(sanzaru, name="sanzaru")
