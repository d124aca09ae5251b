"""``gptnt submission RUN_DIR...``: the bundle GPTNT's leaderboard takes, from a run's records.

Writes ``<out>/<YYYYMMDD>_<model>_<fingerprint[:8]>_<suite>_<revision>/`` with
``submission.yaml`` and ``experiments.parquet`` (docs/submission.md), read back and checked
before the command reports it. ``--check BUNDLE`` only reads a bundle and checks it.

Exit codes (``gptnt.cli.ExitCode``): 0 written (or checked); 2 bad input, one line naming it and
the fix: an unknown run, an unfinished one (an episode crashed, parked, interrupted or still
playing), mixed runs (two Defuser setups, suites, modes or harnesses, or one mission twice), a
model without an ``identity`` in its records, a record with lines or files that cannot be read
(torn, not JSON), or a bundle that does not check.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gptnt.bounded import MAX_REPEATS

if TYPE_CHECKING:
    from gptnt.analysis import RecordedEpisode


def submission(
    run_dirs: Annotated[
        list[Path] | None,
        typer.Argument(help="Run directories (each has ledger.jsonl and episodes/)."),
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", help="Folder that receives the bundle directory.")
    ] = Path("submissions"),
    mode: Annotated[
        str | None, typer.Option("--mode", help="Only the episodes of this mode (sync, async).")
    ] = None,
    repeat: Annotated[
        int | None,
        typer.Option("--repeat", min=0, max=MAX_REPEATS, help="Only this repeat (the key's rN)."),
    ] = None,
    defuser: Annotated[
        str | None, typer.Option("--defuser", help="Only the episodes of this Defuser (its name).")
    ] = None,
    name: Annotated[str, typer.Option("--name", help="Submitter's name.")] = "",
    contact: Annotated[
        str, typer.Option("--contact", help="Submitter's GitHub handle or e-mail.")
    ] = "",
    affiliation: Annotated[
        str | None, typer.Option("--affiliation", help="Submitter's affiliation.")
    ] = None,
    check: Annotated[
        Path | None, typer.Option("--check", help="Only check this bundle directory.")
    ] = None,
) -> None:
    """Write the leaderboard bundle (submission.yaml + experiments.parquet) of one Defuser's
    runs on one suite in one mode. Exit 2: bad input (one line naming it and the fix)."""
    from gptnt.analysis import load_runs
    from gptnt.cli.report import refuse_inside
    from gptnt.errors import ConfigError
    from gptnt.submission import Submitter, build, read_bundle, refuse_damaged, write_bundle

    if check is not None:
        if run_dirs:
            raise ConfigError("--check BUNDLE takes no RUN_DIR; give one or the other")
        bundle = read_bundle(check)
        typer.echo(f"{check}: a valid bundle of {len(bundle.experiments)} experiments")
        return
    if mode is not None and mode not in ("sync", "async"):
        raise ConfigError(f"--mode {mode!r}: use sync or async")
    runs = load_runs(run_dirs or [])
    refuse_damaged(runs)
    refuse_inside(out, list(run_dirs or []))
    episodes = [e for r in runs for e in r.episodes
                if (mode is None or e.recorded_mode == mode)
                and (repeat is None or e.repeat == repeat)
                and (defuser is None or _defuser(e) == defuser)]  # fmt: skip
    manifest, rows = build(episodes, Submitter(name=name, contact=contact, affiliation=affiliation))
    folder = write_bundle(out, manifest, rows)
    read_bundle(folder)  # what was written reads back whole
    typer.echo(f"{folder}: {len(rows)} experiments of {manifest.defuser.identity.display_name} "
               f"on {manifest.measured.target}")  # fmt: skip
    if not (name and contact):
        typer.echo("fill in the submitter block of submission.yaml (or pass --name and "
                   "--contact) before submitting")  # fmt: skip


def _defuser(episode: RecordedEpisode) -> str | None:
    player = episode.player("defuser")
    return player.policy if player else None


def register(app: typer.Typer) -> None:
    app.command("submission")(submission)
