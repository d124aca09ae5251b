"""``sanzaru report --out``: the report's Markdown, CSV and offline HTML page — success per
family, variant, subset, hints, thinking, team and family × team with Wilson intervals and n,
crashed episodes shown and kept out of n, and the failure modes and flags of the losses."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from typer.testing import CliRunner

from gptnt.analysis import wilson
from gptnt.cli import app
from gptnt.sanzaru import Summary, Team, read_summaries, suite

VARIANTS = ["base-1", "carving-1"]


def _csv(path: Path) -> dict[str, dict[str, str]]:
    with path.open() as f:
        return {row[next(iter(row))]: row for row in csv.DictReader(f)}


async def test_report_files(tmp_path: Path) -> None:
    await suite(Team("oracle", "oracle"), tmp_path / "oracle", variant_ids=VARIANTS, instances=2,
                repeats=1)  # fmt: skip
    await suite(Team("random", "random"), tmp_path / "random", variant_ids=VARIANTS, instances=2,
                repeats=2)  # fmt: skip
    # A crashed episode, as the harness leaves one: shown, never scored.
    played = Summary.model_validate_json(
        next((tmp_path / "random").glob("*/summary.json")).read_text()
    )
    crashed = played.model_copy(update={"episode_id": "x-crashed", "outcome": "crashed",
                                        "error": "RuntimeError: stand-in"})  # fmt: skip
    (tmp_path / "random" / "x-crashed").mkdir()
    (tmp_path / "random" / "x-crashed" / "summary.json").write_text(crashed.model_dump_json())
    summaries = read_summaries([tmp_path / "oracle", tmp_path / "random"])
    out = tmp_path / "report"
    result = CliRunner().invoke(
        app,
        [
            "sanzaru",
            "report",
            str(tmp_path / "oracle"),
            str(tmp_path / "random"),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    tables = {p.stem for p in (out / "tables").glob("*.csv")}
    assert tables == {"by_family", "by_variant", "by_subset", "by_hints", "by_thinking", "by_team",
                      "by_family_x_team", "failure_modes"}  # fmt: skip

    team = _csv(out / "tables" / "by_team.csv")
    assert team["oracle"]["defused_k"] == team["oracle"]["defused_n"] == "4"
    random = [s for s in summaries if s.team == "random"]
    scored = [s for s in random if s.outcome != "crashed"]
    k = sum(s.outcome == "defused" for s in scored)
    assert team["random"]["defused_n"] == str(len(scored)) == "8"
    assert team["random"]["crashed_not_scored"] == "1"
    low, high = wilson(k, len(scored))
    assert abs(float(team["random"]["defused_ci_low"]) - low) < 1e-5
    assert abs(float(team["random"]["defused_ci_high"]) - high) < 1e-5

    cross = _csv(out / "tables" / "by_family_x_team.csv")
    assert set(cross) == {
        f"{f} · {t} (trio)" for f in ("base", "carving") for t in ("oracle", "random")
    }
    assert cross["base · oracle (trio)"]["defused_n"] == "2"
    family = f"{played.family} · random (trio)"
    assert cross[family]["defused_n"] == "4" and cross[family]["crashed_not_scored"] == "1"

    failures = list(csv.DictReader((out / "tables" / "failure_modes.csv").open()))
    losses = [s for s in scored if s.outcome != "defused"]
    modes = [r for r in failures if r["kind"] == "mode"]
    assert sum(int(r["share_of_losses_k"]) for r in modes) == len(losses) > 0
    assert all(r["share_of_losses_n"] == str(len(losses)) for r in failures)
    for r in modes:
        coded = sum(int(x.rsplit(" ", 1)[1]) for x in r["coded_by"].split(", "))
        assert coded == int(r["share_of_losses_k"])

    md = (out / "report.md").read_text()
    assert "## SANZARU success by family × team" in md and "(n=8)" in md
    page = (out / "report.html").read_text()
    assert page.count("<table data-table=") == len(tables) and page.count("<svg") == 2
    assert not re.search(r'(src|href)="(https?:)?//', page)  # nothing fetched: works offline


def test_out_inside_a_run_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["sanzaru", "report", str(tmp_path), "--out", str(tmp_path / "r")]
    )
    assert "--out" in str(result.exception) and not (tmp_path / "r").exists()
