"""``gptnt report`` and ``gptnt export`` over the committed small run: golden tables, every
table with rows and intervals, the parked episode visible, viewer pages, exports DuckDB reads."""

from __future__ import annotations

import csv
import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gptnt.analysis import ANALYSES, REPORT_MD, load_run, paper_tables
from gptnt.cli import app

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("GPTNT_UPDATE_GOLDEN") == "1"
# Tables whose rows must carry an interval (a rate or a mean column).
ESTIMATED = ("episodes", "outcomes", "module_types", "failure_split", "crossplay", "marginals", "solo", "self_other", "action_phases", "strike_outcomes",
             "communication", "actions", "strikes", "localisation", "tokens", "timing", "cost")  # fmt: skip


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_the_tables_match_their_goldens(run_dir: Path, report_dir: Path) -> None:
    written = sorted((report_dir / "tables").glob("*.csv"))
    assert len(written) == len(ANALYSES) + len(paper_tables(load_run(run_dir).episodes))
    candidates = [*written, report_dir / REPORT_MD]
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        for path in candidates:
            (GOLDEN / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    for path in candidates:
        golden = GOLDEN / path.name
        assert golden.exists(), f"no golden for {path.name}; GPTNT_UPDATE_GOLDEN=1 writes it"
        assert path.read_text(encoding="utf-8") == golden.read_text(encoding="utf-8"), path.name


def test_every_table_has_rows_and_every_estimate_its_interval_and_n(report_dir: Path) -> None:
    for key in ESTIMATED:
        rows = _rows(report_dir / "tables" / f"{key}.csv")
        assert rows, f"{key} has no rows"
        lows = [c for c in rows[0] if c.endswith("_ci_low")]
        assert lows, f"{key} has no interval"
        for row in rows:
            for low in lows:
                stem = low.removesuffix("_ci_low")
                assert f"{stem}_n" in row
                if row[stem] == "unknown":  # an unpriced cost: no number, no interval
                    assert row[f"{stem}_n"] == row[low] == ""
                elif row[stem] and int(row[f"{stem}_n"]) > 1:
                    assert float(row[low]) <= float(row[stem]) <= float(row[f"{stem}_ci_high"])


def test_the_parked_episode_is_shown_and_kept_out_of_n(run_dir: Path, report_dir: Path) -> None:
    index = _rows(report_dir / "tables" / "episode_index.csv")
    assert len(index) == len(load_run(run_dir).episodes) == 5
    parked = [r for r in index if r["status"] == "parked"]
    assert len(parked) == 1 and parked[0]["mission"] == "Keypad-234"
    assert "not ready" in parked[0]["reason"]
    oracle = [r for r in _rows(report_dir / "tables" / "episodes.csv")
              if r["pairing"].startswith("oracle") and r["mode"] == "sync"]  # fmt: skip
    assert [(r["episodes"], r["parked"], r["solved_n"]) for r in oracle] == [("2", "1", "1")]
    outcome = next(r for r in _rows(report_dir / "tables" / "outcomes.csv")
                   if r["mission"] == "Keypad-234")  # fmt: skip
    assert outcome["outcomes"] == "crashed" and outcome["solved_n"] == "0"
    assert outcome["not_scored"] == "1"


def test_one_viewer_page_per_episode_with_every_recorded_turn(
    run_dir: Path, report_dir: Path
) -> None:
    run = load_run(run_dir)
    html = (report_dir / "report.html").read_text(encoding="utf-8")
    for episode in run.episodes:
        page = report_dir / "episodes" / run.name / f"{episode.episode_id}.html"
        text = page.read_text(encoding="utf-8")
        assert f'data-turns="{len(episode.turns)}"' in text
        assert text.count('<li class="turn ') == len(episode.turns)
        assert f'href="episodes/{run.name}/{episode.episode_id}.html"' in html
    model = next(e for e in run.episodes if "fake-defuser" in e.key)
    folder = report_dir / "episodes" / run.name / model.episode_id
    shown = {s.image[:16] for t in model.turns for s in t.shown}
    assert shown and shown <= {p.stem for p in folder.glob("*.png")}
    assert "http" not in html.replace("http://www.w3.org/2000/svg", "")  # nothing fetched


def test_exports_load_in_one_line(run_dir: Path, tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    run = load_run(run_dir)
    turns = sum(len(e.turns) for e in run.episodes)
    for fmt in ("parquet", "csv"):
        result = CliRunner().invoke(app, ["export", str(run_dir), "--format", fmt, "--out",
                                          str(tmp_path / fmt)])  # fmt: skip
        assert result.exit_code == 0, result.output
        episodes = duckdb.sql(f"from '{tmp_path / fmt / f'episodes.{fmt}'}'")
        assert len(episodes.fetchall()) == 5
        count = duckdb.sql(f"select count(*) from '{tmp_path / fmt / f'turns.{fmt}'}'").fetchall()[
            0
        ]
        assert count == (turns,)
    row = duckdb.sql(
        f"select defuser_model, defuser_temperature, defuser_prompt_hash, harness_version, "
        f"outcome, tokens_input from '{tmp_path / 'parquet' / 'episodes.parquet'}' "
        f"where defuser_kind = 'model'"
    ).fetchall()[0]
    assert row[0] == "vllm:fake-defuser" and row[1] == 0.6 and len(row[2]) == 64
    assert row[3] and row[4] == "solved" and row[5] > 0
    # The player knobs, groupable (records before schema 5 read as the defaults they played;
    # execution_feedback was not recorded before: unknown).
    knobs = duckdb.sql(
        f"select defuser_output, defuser_previous_frames, defuser_keep_thinking, "
        f"defuser_reflection, defuser_execution_feedback, count(*) "
        f"from '{tmp_path / 'parquet' / 'episodes.parquet'}' where defuser_kind = 'model' "
        f"group by all"
    ).fetchall()
    assert [k[:5] for k in knobs] == [("react", 1, False, False, None)]
    statuses = duckdb.sql(
        f"select status, count(*) from '{tmp_path / 'parquet' / 'episodes.parquet'}' group by 1 order by 1"
    ).fetchall()
    assert statuses == [("finished", 4), ("parked", 1)]
    warnings = duckdb.sql(
        f"select warnings from '{tmp_path / 'parquet' / 'turns.parquet'}' limit 1"
    ).fetchall()[0]
    assert isinstance(json.loads(warnings[0]), list)


def test_bad_arguments_are_one_line(tmp_path: Path, run_dir: Path) -> None:
    runner = CliRunner()
    for args, needle in (
        (["report", str(tmp_path), "--out", str(tmp_path / "o")], "RUN_DIR"),
        (["export", str(run_dir), "--format", "xml", "--out", str(tmp_path / "o")], "--format"),
        (["report", str(run_dir), "--out", str(run_dir / "r")], "--out"),
        (["report", str(run_dir), str(run_dir), "--out", str(tmp_path / "o")], "given twice"),
    ):
        result = runner.invoke(app, args)
        assert result.exit_code != 0 and needle in str(result.exception), (args, result.output)
        assert "\n" not in str(result.exception)
    assert not (run_dir / "r").exists() and not (tmp_path / "o").exists()


def test_terminal_report_without_out(run_dir: Path) -> None:
    result = CliRunner().invoke(app, ["report", str(run_dir)], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "Keypad-234" in result.output and "Success rates" in result.output


def test_a_capped_run_says_so_in_every_output(run_dir: Path, tmp_path: Path) -> None:
    from gptnt.records import RunInfo, write_run_info

    capped = tmp_path / "capped-run"
    shutil.copytree(run_dir, capped)
    write_run_info(capped, RunInfo(suite="single", episodes=9, max_cost_usd=1.0, spent_usd=1.25,
                                   capped=True, unscheduled=4))  # fmt: skip
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["report", str(capped), "--out", str(out)],
                                env={"COLUMNS": "250"})  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Capped run capped-run" in result.output
    for name in ("report.md", "report.html"):
        text = (out / name).read_text(encoding="utf-8")
        assert "suite single" in text and "4 of 9 episodes were not played" in text
    plain = CliRunner().invoke(app, ["report", str(run_dir)], env={"COLUMNS": "250"})
    assert "Capped" not in plain.output  # no run.json: nothing said


def _replay_under(run: Path, out: Path, *, rule_seed: int, time_factor: float) -> Path:
    """A copy of ``run`` whose episodes say they were played under ``rule_seed`` and
    ``time_factor`` (the suite records both), to group exports by them."""
    shutil.copytree(run, out)
    for folder in (out / "episodes").iterdir():
        summary = json.loads((folder / "summary.json").read_text())
        conditions = {"suite": "contamination", "time_factor": time_factor,
                      "time_limit": int(summary["time_limit"] * time_factor),
                      "pairing": summary["players"][0]["policy"]}  # fmt: skip
        summary.update(rule_seed=rule_seed, conditions=conditions)
        (folder / "summary.json").write_text(json.dumps(summary))
        lines = (folder / "events.jsonl").read_text().splitlines()
        first = json.loads(lines[0])
        first.update(rule_seed=rule_seed, conditions=conditions)
        (folder / "events.jsonl").write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    return out


def test_exports_carry_every_condition_and_group_by_rule_seed_and_time_factor(
    run_dir: Path, tmp_path: Path
) -> None:
    duckdb = pytest.importorskip("duckdb")
    other = _replay_under(run_dir, tmp_path / "seed-1764", rule_seed=1764, time_factor=2.0)
    for fmt in ("parquet", "csv"):
        out = tmp_path / fmt
        result = CliRunner().invoke(
            app, ["export", str(run_dir), str(other), "--format", fmt, "--out", str(out)]
        )
        assert result.exit_code == 0, result.output
        episodes, turns = out / f"episodes.{fmt}", out / f"turns.{fmt}"
        for path in (episodes, turns):
            assert path.stat().st_mode & 0o044 == 0o044, oct(path.stat().st_mode)  # not 0600
        grouped = duckdb.sql(
            f"select rule_seed, time_factor, count(*), "
            f"count(*) filter (where outcome = 'solved') from '{episodes}' "
            "group by all order by 1"
        ).fetchall()
        assert grouped == [(1, 1.0, 5, 3), (1764, 2.0, 5, 3)], fmt
        suites = duckdb.sql(f"select distinct suite from '{episodes}' where rule_seed = 1764")
        assert suites.fetchall() == [("contamination",)]
        by_turn = duckdb.sql(
            f"select rule_seed, time_factor, count(*) from '{turns}' group by all order by 1"
        ).fetchall()
        assert by_turn[0][2] == by_turn[1][2] > 0 and [r[:2] for r in by_turn] == [
            (1, 1.0),
            (1764, 2.0),
        ]
        names = duckdb.sql(f"select * from '{episodes}' limit 0").columns
        for column in ("suite", "repeat", "solo", "no_manual", "manual", "time_factor"):
            assert column in names, column


def test_report_csv_headers_are_snake_case(report_dir: Path) -> None:
    for path in (report_dir / "tables").glob("*.csv"):
        header = path.read_text(encoding="utf-8").splitlines()[0].split(",")
        for name in header:
            assert name == name.lower() and " " not in name and name.isascii(), (path.name, name)
        assert path.stat().st_mode & 0o044 == 0o044
