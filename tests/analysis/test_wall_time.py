"""The report's wall-time table over the committed timing run (``tests/data/timing-run``,
record schema 5: every turn's game calls timed): a golden, and each share recomputed here from
the raw record files, so the table is a function of the records alone."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gptnt.analysis import load_run, wall_time
from gptnt.cli import app

RUN = Path(__file__).resolve().parents[1] / "data" / "timing-run"
REPORT_RUN = RUN.parent / "report-run"
GOLDEN = Path(__file__).parent / "golden" / "timing-run" / "wall_time.csv"
UPDATE = os.environ.get("GPTNT_UPDATE_GOLDEN") == "1"


@pytest.fixture(scope="module")
def table_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wall")
    result = CliRunner().invoke(app, ["report", str(RUN), "--out", str(out), "--no-viewer"])
    assert result.exit_code == 0, result.output
    return out / "tables" / "wall_time.csv"


def test_the_wall_time_table_matches_its_golden(table_csv: Path) -> None:
    if UPDATE:
        GOLDEN.write_text(table_csv.read_text(encoding="utf-8"), encoding="utf-8")
    assert table_csv.read_text(encoding="utf-8") == GOLDEN.read_text(encoding="utf-8")


def _raw(episode: Path) -> tuple[dict, list[dict]]:
    summary = json.loads((episode / "summary.json").read_text(encoding="utf-8"))
    lines = (episode / "events.jsonl").read_text(encoding="utf-8").splitlines()
    return summary, [json.loads(line) for line in lines]


def test_each_share_is_the_records_sums_over_the_seat_time(table_csv: Path) -> None:
    with table_csv.open(newline="", encoding="utf-8") as f:
        rows = {r["mode"]: r for r in csv.DictReader(f)}
    assert set(rows) == {"sync", "async"}
    for episode in sorted((RUN / "episodes").iterdir()):
        summary, events = _raw(episode)
        turns = [e for e in events if e["kind"] == "turn"]
        steps = [e for e in events if e["kind"] == "game_step"]
        seats = len({t["role"] for t in turns}) if summary["mode"] == "async" else 1
        seat = (summary["ended_at"] - summary["started_at"]) * seats
        model = sum(t["latency_s"] for t in turns)  # both seats are models here
        game = sum(t["game_s"] for t in turns if t["role"] == "defuser")
        game += sum(s["wall_s"] for s in steps if s["what"] in ("timestep", "advance"))
        start = next(s["at"] for s in steps if s["what"] == "start")
        startup = (start - summary["started_at"]) * seats
        row = rows[summary["mode"]]
        assert float(row["seat_seconds"]) == pytest.approx(seat, abs=1e-3)
        assert float(row["model_calls"]) == pytest.approx(100 * model / seat, abs=0.051)
        assert float(row["game_calls"]) == pytest.approx(100 * game / seat, abs=0.051)
        assert float(row["harness_start_up"]) == pytest.approx(100 * startup / seat, abs=0.051)
        rest = 100 * (seat - model - game - startup) / seat
        assert float(row["harness_rest"]) == pytest.approx(rest, abs=0.051)
        assert game > 0 and model > 0  # the records timed both


def test_records_without_game_times_say_unknown_not_zero() -> None:
    table = wall_time(load_run(REPORT_RUN).episodes)
    assert table.rows
    game, rest = table.columns.index("game calls (%)"), table.columns.index("harness, rest (%)")
    for row in table.rows:
        assert row[game] == row[rest] == "unknown"
