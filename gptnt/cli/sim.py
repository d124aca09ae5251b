"""``gptnt sim …``: the embedded simulator. This file adds ``selfcheck``; ``serve`` and ``record``
come from ``gptnt.cli.sim_server``, which adds its commands to ``sim_app``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gptnt.bounded import MAX_COUNT, MAX_RULE_SEED, MAX_SEED

sim_app = typer.Typer(
    name="sim",
    help="The embedded KTANE simulator: self-check, serve over HTTP, record sessions.",
    no_args_is_help=True,
)


_SELFCHECK_COLUMNS = ("module", "bombs", "solved without strike", "mistakes checked",
                      "solved after a mistake", "misses")  # fmt: skip


@sim_app.command("selfcheck")
def selfcheck(
    episodes: Annotated[
        int, typer.Option(help="Bombs per module kind.", min=1, max=MAX_COUNT)
    ] = 500,
    module: Annotated[
        list[str] | None,
        typer.Option(
            "--module", "-m", help='Only this module kind (repeatable), e.g. Wires or "The Button".'
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option(min=0, max=MAX_SEED, help="Seed of the first bomb; then seed+1, …")
    ] = 1,
    rule_seed: Annotated[
        int, typer.Option(min=1, max=MAX_RULE_SEED, help="Rule seed of the manual (1 = v1).")
    ] = 1,
    pools: Annotated[
        Path | None, typer.Option(help="Rule-seed word pools file (Morse, Password).")
    ] = None,
) -> None:
    """Play one-module bombs with the oracle: no strike when following it, one per mistake.

    Exits with code 4 when any bomb or mistake disagrees (a *miss*); the first misses are shown
    with their seeds.
    """
    from rich.table import Table

    from gptnt.cli._console import make_console
    from gptnt.protocol import MODULE_KINDS, module_kind
    from gptnt.rules.ruleset import ruleset
    from gptnt.sim.selfcheck import check_module

    kinds = [module_kind(k, field="--module") for k in module] if module else list(MODULE_KINDS)
    rules = ruleset(rule_seed, pools=pools)
    rules.require(kinds)
    console = make_console()
    table = Table(title=f"Simulator self-check: {episodes} bombs per module, seeds from {seed}")
    for column in _SELFCHECK_COLUMNS:
        table.add_column(column, justify="left" if column == "module" else "right")
    misses: list[str] = []
    with console.status("checking…") as status:
        for kind in kinds:
            status.update(f"checking {kind}…")
            report = check_module(kind, episodes, seed, rules)
            miss_count = len(report.misses)
            table.add_row(kind, str(report.bombs), str(report.clean),
                          str(report.mistakes_checked), str(report.recovered),
                          f"[red]{miss_count}[/red]" if miss_count else "0")  # fmt: skip
            misses += [f"{kind}: {m}" for m in report.misses]
    console.print(table)
    for line in misses[:20]:
        console.print(line, markup=False, highlight=False)
    if misses:
        from gptnt.cli import ExitCode

        console.print(f"[red]{len(misses)} misses[/red]")
        raise typer.Exit(ExitCode.MISSES)


def register(app: typer.Typer) -> None:
    app.add_typer(sim_app, name="sim")
    from gptnt.cli import sim_server  # adds serve/record to sim_app, and the stub group

    sim_server.register(app)
