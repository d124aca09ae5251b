"""``gptnt diag build|run|report``: the offline diagnostics (Manual VQA, Simulator VQA,
Localisation, contamination probes)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gptnt.bounded import MAX_COUNT, MAX_GAMES, MAX_RULE_SEED, MAX_SEED

if TYPE_CHECKING:
    from gptnt.diagnostics import Answer, Plan

_TASKS = "manual_vqa, sim_vqa, localisation, contamination"


_Questions = Annotated[
    int | None,
    typer.Option(min=1, max=MAX_COUNT, help="Questions per task, split in the paper's "
                 "proportions (default: the paper's sizes)."),
]  # fmt: skip
_RuleSeed = Annotated[
    int, typer.Option(min=1, max=MAX_RULE_SEED, help="Rule seed of the ruleset (1 = v1).")
]


def build(
    out: Annotated[Path, typer.Option(help="Folder to write the dataset folders into.")] = Path(
        "diag"
    ),
    task: Annotated[
        list[str] | None, typer.Option(help=f"Only these tasks ({_TASKS}); repeatable.")
    ] = None,
    n: _Questions = None,
    seed: Annotated[int, typer.Option(min=0, max=MAX_SEED, help="Generation seed.")] = 0,
    rule_seed: _RuleSeed = 1,
    modules: Annotated[
        list[str] | None,
        typer.Option(
            "--module",
            help='Only these module kinds (the paper\'s names, e.g. "The Button", or the wire names); repeatable.',
        ),
    ] = None,
    pools: Annotated[
        Path | None,
        typer.Option(
            help="Rule-seed word pools file (Morse and Password under a seed other "
            "than 1; default: GPTNT_RULESEED_POOLS or the imported copy)."
        ),
    ] = None,
) -> None:
    """Generate the datasets: JSONL + images per task, named by a hash of their inputs."""
    from gptnt.cli._console import make_console
    from gptnt.diagnostics import TASKS, build_datasets
    from gptnt.errors import ConfigError
    from gptnt.protocol import MODULE_KINDS, module_kind
    from gptnt.rules.ruleset import ruleset

    for t in task or ():
        if t not in TASKS:
            raise ConfigError(f"--task {t!r}: unknown; use one of {_TASKS}")
    tasks = tuple(TASKS[TASKS.index(t)] for t in task) if task else TASKS  # as Task values
    kinds = tuple(module_kind(k, field="--module") for k in modules) if modules else MODULE_KINDS
    rules = ruleset(rule_seed, pools=pools)
    rules.require(kinds)
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out}: exists and is not a folder; name a folder")
    console = make_console(stderr=True)
    paths = build_datasets(
        tasks,
        out,
        rules,
        seed=seed,
        n=n,
        modules=kinds,
        progress=lambda text: console.print(f"[dim]{text}[/dim]"),
    )
    for path in paths:
        typer.echo(str(path))


Dataset = Annotated[Path, typer.Argument(help="A dataset folder written by `diag build`.")]
Answerer = Annotated[
    str,
    typer.Option(
        help="A player config, YAML file or provider:model; or the scripted "
        "'truth' / 'random' answerers."
    ),
]
ResultsOut = Annotated[
    Path | None,
    typer.Option(
        help="Results folder (default: beside the dataset, named by dataset, player, "
        "paradigm and --no-manual, so an ablation never shares the folder of the run with "
        "the manual)."
    ),
]
Paradigm = Annotated[
    str | None,
    typer.Option(
        help="Localisation: set-of-marks or coordinates (default: the player's interaction)."
    ),
]


def run(
    dataset: Dataset,
    player: Answerer,
    out: ResultsOut = None,
    concurrency: Annotated[
        int, typer.Option(min=1, max=MAX_GAMES, help="Questions in flight at once.")
    ] = 4,
    limit: Annotated[
        int | None, typer.Option(min=1, max=MAX_COUNT, help="Ask at most this many.")
    ] = None,
    paradigm: Paradigm = None,
    no_manual: Annotated[
        bool, typer.Option("--no-manual", help="Manual VQA without the manual.")
    ] = False,
) -> None:
    """Ask a dataset's questions; resumable: answered questions are skipped on rerun, failed
    calls are asked again. Prints progress and, at the end, right / unparsed / failed counts.

    Exit codes: 0 done, 2 a bad argument (one line naming it and the fix)."""
    from gptnt.cli._console import make_console
    from gptnt.diagnostics import ask

    console = make_console(stderr=True)
    count = {"todo": 0, "done": 0, "right": 0, "unparsed": 0, "failed": 0}

    def start(plan: Plan) -> None:
        count["todo"] = plan.todo
        again = f" ({plan.failed} failed calls asked again)" if plan.failed else ""
        console.print(f"{plan.out}: {plan.answered} of {plan.questions} already answered; "
                      f"asking {plan.todo}{again}")  # fmt: skip

    def tick(answer: Answer) -> None:
        count["done"] += 1
        count["right"] += answer.correct
        count["unparsed"] += answer.unparsed
        count["failed"] += answer.failure is not None
        step = max(1, min(50, count["todo"] // 10))
        if count["done"] % step == 0 or count["done"] == count["todo"]:
            console.print(f"[dim]{count['done']}/{count['todo']} asked: {count['right']} right, "
                          f"{count['unparsed']} unparsed, {count['failed']} failed calls[/dim]")  # fmt: skip

    asked = ask(
        dataset, player, out=out, concurrency=concurrency, limit=limit, paradigm=paradigm,
        manual=not no_manual, on_notice=lambda text: typer.echo(text, err=True),
        on_start=start, on_answer=tick,
    )  # fmt: skip
    overall = asked.overall
    console.print(
        f"{overall.n} of {asked.questions} questions answered: {overall.correct} right of "
        f"{overall.scored} replies, {overall.unparsed} unparsed, {overall.failures} failed calls "
        f"(not scored{'; rerun to ask them again' if overall.failures else ''})"
    )
    typer.echo(str(asked.out))


def report(
    results: Annotated[list[Path], typer.Argument(help="Results folders written by `diag run`.")],
    out: Annotated[
        Path | None,
        typer.Option(
            help="Also write report.md, report.html (offline) and tables/<table>.csv here, "
            "every results folder side by side."
        ),
    ] = None,
) -> None:
    """Accuracy per category and module kind, with 95 % Wilson CIs and the chance level.

    Exit codes: 0 printed (and written), 2 a bad argument (one line naming it)."""

    from rich.table import Table

    from gptnt.cli._console import make_console
    from gptnt.diagnostics import GROUPINGS, read_results, report_rows

    if out is not None:
        from gptnt.cli.report import refuse_inside

        refuse_inside(out, results)
    found = read_results(results)
    console = make_console()
    for r in found:
        spec = r.spec
        for by in GROUPINGS:
            table = Table(
                title=f"{spec.task} — {spec.answerer} ({spec.paradigm}"
                f"{'' if spec.manual else ', no manual'}) — by {by}"
            )
            for column in (by, "n", "accuracy", "95 % CI", "chance", "vanilla", "unparsed",
                           "failed calls"):  # fmt: skip
                table.add_column(column, justify="left" if column == by else "right")
            for row in report_rows(r.answers, by):
                low, high = row.ci
                table.add_row(
                    row.group,
                    str(row.scored),
                    f"{row.accuracy:.1%}",
                    f"{low:.1%}–{high:.1%}",
                    "—" if row.chance is None else f"{row.chance:.1%}",
                    str(row.vanilla) if spec.task == "contamination" else "—",
                    str(row.unparsed),
                    str(row.failures),
                )
            console.print(table)
    if out is not None:
        from gptnt.diagnostics import write_report

        typer.echo(str(write_report(found, out)))


def register(app: typer.Typer) -> None:
    diag = typer.Typer(
        help="Offline diagnostics generated from the ruleset and the simulator.",
        no_args_is_help=True,
    )
    diag.command("build")(build)
    diag.command("run")(run)
    diag.command("report")(report)
    app.add_typer(diag, name="diag")
