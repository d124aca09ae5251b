"""``gptnt ruleseed …``: rule seeds' word pools and tables.

The Morse Code and Password generators of rule seeds index word pools gptnt does not ship;
``pools import`` checks a user's file against the pools' digests and stores a copy in the user
data directory, where every later command finds it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gptnt.bounded import MAX_RULE_SEED

ruleseed_app = typer.Typer(
    name="ruleseed",
    help="Rule seeds: import the word pools, show a seed's tables.",
    no_args_is_help=True,
)
pools_app = typer.Typer(name="pools", help="The rule-seed word pools.", no_args_is_help=True)


@pools_app.command("import")
def pools_import(
    file: Annotated[Path, typer.Argument(help="The rule-seed word pools JSON (Morse, Password).")],
) -> None:
    """Check FILE and store it in the user data directory for every later command."""
    from gptnt.rules.ruleseed import import_pools

    target = import_pools(file)
    typer.echo(f"pools checked and stored: {target}")


@pools_app.command("show")
def pools_show(
    pools: Annotated[Path | None, typer.Option(help="A pools file to check instead.")] = None,
) -> None:
    """Say which pools file is in force (``--pools``, ``GPTNT_RULESEED_POOLS``, imported)."""
    from gptnt.errors import ConfigError
    from gptnt.rules.ruleseed import HOW_TO, pools_in_force

    found = pools_in_force(pools)
    if found is None:
        raise ConfigError(f"pools: none found; {HOW_TO}")
    typer.echo(f"{found.source}: {len(found.morse)} Morse words, {len(found.password)} passwords")


@ruleseed_app.command("show")
def show(
    rule_seed: Annotated[
        int, typer.Option("--rule-seed", min=1, max=MAX_RULE_SEED, help="The rule seed.")
    ] = 1,
    pools: Annotated[Path | None, typer.Option(help="Rule-seed word pools file.")] = None,
) -> None:
    """Print a rule seed's identity and which module tables it has."""
    from gptnt.rules.ruleset import ruleset

    rules = ruleset(rule_seed, pools=pools)
    missing = ", ".join(rules.missing) or "none"
    typer.echo(f"{rules.identity}: tables missing (no word pools): {missing}")


def register(app: typer.Typer) -> None:
    ruleseed_app.add_typer(pools_app)
    app.add_typer(ruleseed_app)
