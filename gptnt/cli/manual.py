"""``gptnt manual build|import``: typeset the generated manual, or import the official PDF."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gptnt.bounded import MAX_RULE_SEED


def build(
    rule_seed: Annotated[
        int, typer.Option("--rule-seed", min=1, max=MAX_RULE_SEED, help="Rule seed of the ruleset.")
    ] = 1,
    out: Annotated[Path, typer.Option("--out", help="Directory to write.")] = Path("manual"),
    pools: Annotated[
        Path | None, typer.Option(help="Rule-seed word pools file (Morse, Password).")
    ] = None,
) -> None:
    """Typeset the manual of a rule seed: page texts, page images and manual.json.

    A seed other than 1 without word pools is refused (its manual would lack two modules)."""
    from gptnt.manual import build_manual, save
    from gptnt.preflight import check_out
    from gptnt.rules.ruleset import POOLED_KINDS, ruleset

    check_out(out)
    ruleset(rule_seed, pools=pools).require(POOLED_KINDS.values())
    manual = build_manual(rule_seed, pools=pools)
    index = save(manual, out)
    typer.echo(f"{manual.identity}: {len(manual.pages)} pages -> {index}")


def import_pdf(
    pdf: Annotated[Path, typer.Argument(help="Your copy of the Bomb Defusal Manual (PDF).")],
    out: Annotated[Path, typer.Option("--out", help="Directory to write.")] = Path(
        "manual-official"
    ),
) -> None:
    """Extract the pages the paper uses (3, 5-16, 21-23): text and page images."""
    from gptnt.manual import import_pdf as run_import
    from gptnt.manual import save
    from gptnt.preflight import check_out

    check_out(out)
    manual = run_import(pdf)
    index = save(manual, out, sha256=manual.identity.removeprefix("imported:"))
    typer.echo(f"{manual.identity}: {len(manual.pages)} pages -> {index}")


def register(app: typer.Typer) -> None:
    manual_app = typer.Typer(
        name="manual",
        help="The Expert's manual: build it from the ruleset or import the official PDF.",
        no_args_is_help=True,
    )
    manual_app.command("build")(build)
    manual_app.command("import")(import_pdf)
    app.add_typer(manual_app)
