"""``gptnt sanzaru run|suite|report|judge|variants``: the SANZARU mode (three agents, split senses)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from gptnt.bounded import MAX_GAMES, MAX_REPEATS

if TYPE_CHECKING:
    from gptnt.records import Summary
    from gptnt.sanzaru import Judgement, SanzaruRole, Team

THINKING_ON_TOKENS = 4096
TEAM_HELP = "'oracle', 'random', or a player config / YAML / provider:model for every role"


THINKING: dict[str, dict[str, Any]] = {
    "off": {"thinking": "off", "thinking_budget": None},
    "on": {"thinking": "medium", "thinking_budget": THINKING_ON_TOKENS},
    "max": {"thinking": "max", "thinking_budget": None},
}
"""The paper's thinking budgets (Table 11): off; on caps thinking at 4,096 tokens — a budget
where the provider takes one (Anthropic, Google), a medium effort where it takes only a level
(OpenAI, vLLM); max leaves it uncapped at the provider's highest effort."""
ORDER_HELP = (
    "Turn order as a configuration: the three roles' initials, e.g. dmb (Deaf, Mute, Blind: "
    "the paper's default), bdm"
)


def _order(order: str) -> tuple[SanzaruRole, ...]:
    from gptnt.errors import ConfigError
    from gptnt.sanzaru import TURN_ORDERS

    by_initials = {"".join(r[0] for r in o): o for o in TURN_ORDERS}
    if order not in by_initials:
        raise ConfigError(f"--order {order!r}: use one of {', '.join(by_initials)}")
    return by_initials[order]


def _team(team: str, hints: str, solo: bool, thinking: str | None, order: str = "dmb") -> Team:
    from gptnt.errors import ConfigError
    from gptnt.sanzaru import HINTS, Team

    turns = _order(order)
    if hints not in HINTS:
        raise ConfigError(f"--hints {hints!r}: use one of {', '.join(HINTS)}")
    if thinking not in (None, "off", "on", "max"):
        raise ConfigError(f"--thinking {thinking!r}: use off, on or max")
    if team in ("oracle", "random"):
        if solo:
            raise ConfigError("--solo needs a model team; the oracle and random teams are trios")
        # team and hints are option texts, checked above against the names Team takes
        return Team(team, team, hints=hints, order=turns)  # type: ignore[arg-type]
    from gptnt.players.backends import check_endpoint
    from gptnt.players.config import load_player_config

    config = load_player_config(team)
    if thinking is not None:
        config = config.model_copy(update=THINKING[thinking])
    check_endpoint(config)
    return Team("model", config.name or config.model, config, hints, solo, thinking, turns)


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
    order: Annotated[str, typer.Option(help=ORDER_HELP + ".")] = "dmb",
    out: Annotated[Path, typer.Option(help="Run directory for the episode's records.")] = Path(
        "runs/sanzaru"
    ),
) -> None:
    """Play one episode and print how it ended."""
    import asyncio

    from gptnt.records import RunLock
    from gptnt.sanzaru import play
    from gptnt.sanzaru import variant as find

    t = _team(team, hints, solo, thinking, order)
    chosen = find(variant)  # checked before the run directory is made
    with RunLock(out):
        summary = asyncio.run(play(chosen, instance, t, out))
    s = summary.sanzaru
    assert s is not None  # play() writes a SANZARU summary
    typer.echo(
        f"{summary.episode_id}: {s.ending} after {s.rounds_used} of {s.rounds} rounds"
        + (f" ({s.failure_mode})" if s.failure_mode else "")
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
    repeats: Annotated[
        int, typer.Option(min=1, max=MAX_REPEATS, help="Episodes per instance.")
    ] = 3,
    hints: Annotated[str, typer.Option(help="none, weak, strong or playbook.")] = "weak",
    solo: Annotated[
        bool, typer.Option("--solo", help="One agent with every view, no hints.")
    ] = False,
    thinking: Annotated[str | None, typer.Option(help="off, on or max.")] = None,
    order: Annotated[
        list[str] | None, typer.Option(help=ORDER_HELP + "; repeatable (default dmb).")
    ] = None,
    concurrency: Annotated[
        int, typer.Option(min=1, max=MAX_GAMES, help="Episodes in flight at once.")
    ] = 4,
) -> None:
    """The bank: every variant × instance × repeat (the paper: 24 × 3 × 3 = 216 per model)."""
    import asyncio

    from gptnt.cli._console import make_console
    from gptnt.sanzaru import suite as run_suite

    teams = [_team(team, hints, solo, thinking, o) for o in (order or ["dmb"])]
    console = make_console(stderr=True)
    done = {"n": 0, "defused": 0}

    def tick(summary: Summary) -> None:
        done["n"] += 1
        done["defused"] += summary.outcome == "solved"
        if done["n"] % 10 == 0:
            console.print(f"{done['n']} episodes played, {done['defused']} defused")

    summaries = [
        s
        for t in teams
        for s in asyncio.run(
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
    ]
    defused = sum(s.outcome == "solved" for s in summaries)
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
    """The paper's SANZARU tables, one team per row: success by team × family (Table 3),
    variant × team (Table 12), Trio / Solo / Gap (Table 4), hint level (Table 10), thinking
    (Table 11), endings (Figure 6), failure stages and modes by team (Figure 4) and by family
    (Figure 13), perspective flags (Table 6); 95 % intervals and n on every rate.

    Exit codes: 0 printed (and written), 2 a bad argument or usage (one line naming it)."""

    from rich.table import Table

    from gptnt.analysis import text
    from gptnt.bounded import Tally
    from gptnt.cli._console import make_console
    from gptnt.errors import ConfigError
    from gptnt.sanzaru import read_summaries, report_tables

    if out is not None:
        from gptnt.cli.report import refuse_inside

        refuse_inside(out, runs)
    skipped = Tally()
    summaries = [s.sanzaru for s in read_summaries(runs, tally=skipped) if s.sanzaru]
    for line in skipped.lines():  # a torn or missing summary is left out, and said so
        make_console(stderr=True).print(f"warning: {line}", markup=False, highlight=False)
    if not summaries:
        raise ConfigError(f"runs={' '.join(map(str, runs))}: no SANZARU summaries there")
    console = make_console()
    tables = report_tables(summaries)
    for t in tables:
        shown = Table(title=f"{t.title} ({t.source})", caption=t.note)
        for i, col in enumerate(t.columns):
            shown.add_column(col, justify="left" if i == 0 else "right")
        for row in t.rows:
            shown.add_row(*(text(c) for c in row))
        console.print(shown)
    if out is not None:
        from gptnt.analysis import write_tables
        from gptnt.sanzaru import report_figures

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
    concurrency: Annotated[
        int, typer.Option(min=1, max=MAX_GAMES, help="Episodes judged at once.")
    ] = 4,
) -> None:
    """Let a model judge the losses whose mode only the gestures' meaning decides.

    Each pick is written into the episode's summary (``coded_by: judge:<model>``; the coder's
    guess stays in ``heuristic_mode``); a rerun judges only what is left. Exit codes: 0 every
    such loss judged, 2 a bad argument or usage, 3 some left unjudged (failed call or no mode
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

    def tick(j: Judgement) -> None:
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
    """The 24 variants: family, subset, wires, cuts, manual, round budget, and whether the
    paper states the variant (paper, with where) or the design is ours."""
    from rich.table import Table

    from gptnt.cli._console import make_console
    from gptnt.sanzaru import variants

    table = Table(title="SANZARU variants")
    for col in ("variant", "family", "subset", "wires", "cuts", "manual", "rounds", "source",
                "note"):  # fmt: skip
        table.add_column(col)
    for v in variants().values():
        source = f"paper: {v.basis}" if v.source == "paper" else "ours"
        table.add_row(v.id, v.family, v.subset, str(v.wires), str(v.cuts or v.code), v.manual,
                      str(v.rounds), source, v.note)  # fmt: skip
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
