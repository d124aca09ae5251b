"""The exports' ``manual`` column names an imported manual by its identity, not by the folder
the run read it from: the records hold that folder's local path, which is the recording
machine's and must not leak into shared exports (maintainer review, session 5)."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import Any

from gptnt.analysis import load_run
from gptnt.analysis._export import export

RUN = Path(__file__).resolve().parents[1] / "data" / "paper-run"
IDENTITY = "imported:" + "ab" * 32


def _import_manual(episode: Path, folder: Path, *, read: bool) -> None:
    """Rewrite the episode's start and summary as if it had been played with the manual at
    ``folder`` (and, if ``read``, by an Expert that read it)."""

    def edit(record: dict[str, Any]) -> str:
        record["conditions"]["manual"] = str(folder)
        if read:
            record["players"][-1]["manual"] = IDENTITY
        return json.dumps(record)

    events = episode / "events.jsonl"
    lines = events.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[0] = edit(json.loads(lines[0])) + "\n"
    events.write_text("".join(lines), encoding="utf-8")
    summary = episode / "summary.json"
    summary.write_text(edit(json.loads(summary.read_text(encoding="utf-8"))), encoding="utf-8")


def test_an_imported_manual_is_exported_by_identity_not_local_path(tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(RUN, run)
    folder = tmp_path / "machine-local" / "manual-official"
    read, unread = sorted(
        d for d in (run / "episodes").iterdir() if "solo" not in d.name and d.is_dir()
    )[:2]
    _import_manual(read, folder, read=True)
    _import_manual(unread, folder, read=False)
    export([load_run(run)], tmp_path / "csv", "csv")
    text = (tmp_path / "csv" / "episodes.csv").read_text(encoding="utf-8")
    assert str(tmp_path) not in text
    rows = {r["episode_id"]: r for r in csv.DictReader(text.splitlines())}
    assert rows[read.name]["manual"] == IDENTITY == rows[read.name]["manual_read"]
    assert rows[unread.name]["manual"] == "manual-official"
    others = {r["manual"] for k, r in rows.items() if k not in (read.name, unread.name)}
    assert others == {"generated"}
