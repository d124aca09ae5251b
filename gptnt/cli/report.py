"""``gptnt report RUN_DIR...`` and ``gptnt export RUN_DIR...``: results from records.

Without ``--out`` the report prints the outcome and success-rate tables on the terminal; with
``--out DIR`` it writes the whole report (Markdown, CSV per table, one offline HTML page with
plots, and a viewer page per episode). ``export`` writes the tidy ``episodes`` and ``turns``
tables as Parquet or CSV. Both read only the run directories' records (``gptnt.analysis``).

Exit codes (``gptnt.cli.ExitCode``): 0 written; 2 a bad argument or usage (one line naming
it and the fix). An episode the ledger names without its records (a worker on another host
whose records never arrived) is warned of, one line each, and so is every record file with
lines that could not be read (``2 lines unreadable in …``): they are skipped, and every table
is still written from the rest.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gptnt.analysis import wilson

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table as RichTable

    from gptnt.analysis import Run, Table

__all__ = ["refuse_inside", "register", "run_tables", "unreadable", "warn_missing", "wilson"]

RunDirs = Annotated[
    list[Path], typer.Argument(help="Run directories (each has ledger.jsonl and episodes/).")
]


def _rich(table: Table) -> RichTable:
    from rich.table import Table as RichTable

    from gptnt.analysis import text

    out = RichTable(title=f"{table.title} — {table.source}")
    for column in table.columns:
        out.add_column(column)
    for row in table.rows:
        out.add_row(*(text(c) for c in row))
    if table.note:
        out.caption = table.note
        out.caption_justify = "left"
    return out


def _tables(runs: list[Run], keys: tuple[str, ...]) -> list[Table]:
    from gptnt.analysis import ANALYSES

    episodes = [e for r in runs for e in r.episodes]
    return [a(episodes) for a in ANALYSES if a.__name__ in keys]


def run_tables(run_dir: Path) -> list[RichTable]:
    """The per-mission outcomes (paper Tables 2–3) and the solved / timeout / strikeout rates
    (Appendix M) of one run, for the terminal; the run's records are read once for both."""
    from gptnt.analysis import load_run

    return [_rich(t) for t in _tables([load_run(run_dir)], ("outcomes", "failure_split"))]


def warn_missing(run_dir: Path, console: Console) -> None:
    """One warning line per episode the ledger names but whose records are not in the run
    (e.g. played by a worker on another host whose records never arrived)."""
    from gptnt.records import Ledger

    for entry in Ledger(run_dir).missing():
        console.print(f"[yellow]warning:[/yellow] {entry.episode_key} attempt {entry.attempt} "
                      f"({entry.status}) has no records in {run_dir / entry.episode_dir}",
                      highlight=False)  # fmt: skip


def report(
    run_dirs: RunDirs,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the full report here (Markdown, CSV, HTML, viewer)."),
    ] = None,
    viewer: Annotated[
        bool, typer.Option(help="Write an episode viewer page per episode (with --out).")
    ] = True,
) -> None:
    """The paper's tables with 95 % intervals, over one or many runs (--out: Markdown, CSV, HTML
    and an episode viewer). Exit 2: a bad argument (one line naming it)."""
    from gptnt.analysis import REPORT_HTML, load_runs, write_report
    from gptnt.cli._console import make_console

    console = make_console()
    for run_dir in run_dirs:
        warn_missing(run_dir, console)
    runs = load_runs(run_dirs)
    for line in unreadable(runs):
        console.print(f"[yellow]warning:[/yellow] {line}", highlight=False, soft_wrap=True)
    for run in runs:
        if run.capped:
            console.print(f"[bold yellow]{run.capped}[/bold yellow]", highlight=False)
    if out is None:
        for table in _tables(runs, ("episode_status", "outcomes", "failure_split")):
            console.print(_rich(table))
        return
    refuse_inside(out, run_dirs)
    written = write_report(runs, out, viewer=viewer)
    episodes = sum(len(r.episodes) for r in runs)
    console.print(f"report of {len(runs)} run(s), {episodes} episodes: {len(written.tables)} "
                  f"tables, {written.episode_pages} episode pages → {out / REPORT_HTML}")  # fmt: skip


def export(
    run_dirs: RunDirs,
    out: Annotated[Path, typer.Option("--out", help="Directory that receives the tables.")],
    fmt: Annotated[str, typer.Option("--format", help="parquet or csv.")] = "parquet",
) -> None:
    """Tidy episodes and turns tables (Parquet or CSV) for pandas, DuckDB, R. Exit 2: a bad
    argument (one line naming it)."""
    from gptnt.analysis import FORMATS, export, load_runs
    from gptnt.errors import ConfigError

    if fmt not in FORMATS:
        raise ConfigError(f"--format {fmt!r}: use one of {', '.join(FORMATS)}")
    if fmt == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise ConfigError(
                "--format parquet needs pyarrow: pip install pyarrow, or use --format csv"
            ) from None
    runs = load_runs(run_dirs)
    refuse_inside(out, run_dirs)
    for line in unreadable(runs):
        typer.echo(f"warning: {line}", err=True)
    written = export(runs, out, fmt)
    for name, path in written.items():
        typer.echo(f"{name}: {path}")


def unreadable(runs: list[Run]) -> list[str]:
    """One line per record file whose unreadable items were skipped (``2 lines unreadable in
    …``): the tables are made from everything else."""
    return [line for run in runs for line in run.unreadable]


def refuse_inside(out: Path, run_dirs: list[Path]) -> None:
    """The outputs go to a folder (or where one can be made), never inside a run directory:
    records stay what the run wrote."""
    from gptnt.errors import ConfigError

    for at in (out, *out.parents):
        if at.exists() or at.is_symlink():
            if not at.is_dir():
                raise ConfigError(f"--out {out}: {at} is not a directory; give a folder")
            break
    target = out.resolve()
    for run_dir in run_dirs:
        if target == run_dir.resolve() or run_dir.resolve() in target.parents:
            raise ConfigError(f"--out {out}: inside run directory {run_dir}; choose another folder")


def register(app: typer.Typer) -> None:
    app.command("report")(report)
    app.command("export")(export)
