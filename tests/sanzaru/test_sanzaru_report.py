"""``sanzaru report``: an oracle, a random and a stand-in model team (over the loopback
OpenAI-compatible server, as a trio and solo) play into ONE run directory; the report prints and
writes the paper's tables with every team on its own rows — never pooled — crashed episodes
shown and kept out of n, and the Markdown, CSV and offline HTML files."""

from __future__ import annotations

import csv
import re
import subprocess
import sys
from pathlib import Path

from fake_openai import FakeServer, completion
from typer.testing import CliRunner

from gptnt.analysis import wilson
from gptnt.cli import app
from gptnt.players.config import PlayerConfig
from gptnt.records import Ledger, LedgerEntry, SanzaruResult, Summary, write_summary
from gptnt.sanzaru import FAILURE_MODES, Team, read_summaries, suite

GPTNT = str(Path(sys.executable).with_name("gptnt"))
VARIANTS = ["base-1", "carving-1", "haystack-2"]
TABLES = {"team_x_family", "variant_x_team", "trio_solo_gap", "by_hints", "by_thinking",
          "endings", "failures_by_team", "failures_by_family", "flags_by_team"}  # fmt: skip


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open() as f:
        return list(csv.DictReader(f))


async def _run(server: FakeServer, run: Path) -> None:
    await suite(Team("oracle", "oracle"), run, variant_ids=VARIANTS, instances=2, repeats=1)
    await suite(Team("random", "random"), run, variant_ids=VARIANTS, instances=2, repeats=2)
    reply = completion('<calls>[{"call": "speak", "text": "cut 1"}, '
                       '{"call": "act", "op": "cut", "position": 1}]</calls>')  # fmt: skip
    server.replies = [(200, reply)] * 400
    config = PlayerConfig(model="vllm:stand-in", base_url=server.url, transport_retries=0)
    for solo in (False, True):
        model = Team("model", "stand-in", config, "none" if solo else "weak", solo=solo)
        await suite(model, run, variant_ids=VARIANTS, instances=2, repeats=1, concurrency=2)


def _crash(run: Path) -> None:
    """A crashed episode as the harness leaves one: in the ledger, shown, never scored."""
    source = next(s for s in read_summaries([run]) if _result(s).team == "random")
    key = "base-1-i9-r1-random.weak.dmb"
    crashed = source.model_copy(update={
        "episode_id": f"{key}-a1", "outcome": "crashed", "reason": "RuntimeError: stand-in",
        "sanzaru": _result(source).model_copy(update={"outcome": "crashed", "ending": "crashed"}),
    })  # fmt: skip
    folder = run / "episodes" / crashed.episode_id
    folder.mkdir(parents=True)
    write_summary(folder, crashed)
    Ledger(run).append(LedgerEntry(episode_key=key, attempt=1, status="crashed",
                                   outcome="crashed", episode_dir=f"episodes/{folder.name}",
                                   at=0.0))  # fmt: skip


def _result(s: Summary) -> SanzaruResult:
    assert s.sanzaru is not None
    return s.sanzaru


async def test_report_keeps_every_team_apart(server: FakeServer, tmp_path: Path) -> None:
    run = tmp_path / "run"
    await _run(server, run)
    _crash(run)
    summaries = [_result(s) for s in read_summaries([run])]
    teams = {s.team for s in summaries}
    assert teams == {"oracle", "random", "stand-in"}
    # Issue 22: oracle and random share a directory and episode numbers, and neither skips the other.
    assert sum(s.team == "oracle" for s in summaries) == 6
    assert sum(s.team == "random" for s in summaries) == 12 + 1

    out = tmp_path / "report"
    result = CliRunner().invoke(app, ["sanzaru", "report", str(run), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert {p.stem for p in (out / "tables").glob("*.csv")} == TABLES

    family = {r["team"]: r for r in _csv(out / "tables" / "team_x_family.csv")}
    assert set(family) == {"oracle", "random", "stand-in", "stand-in · solo"}
    assert family["oracle"]["all_k"] == family["oracle"]["all_n"] == "6"
    random = [s for s in summaries if s.team == "random" and s.outcome != "crashed"]
    k = sum(s.outcome == "defused" for s in random)
    assert family["random"]["all_n"] == "12" and family["random"]["crashed_not_scored"] == "1"
    low, high = wilson(k, 12)
    assert abs(float(family["random"]["all_ci_low"]) - low) < 1e-5
    assert abs(float(family["random"]["all_ci_high"]) - high) < 1e-5
    assert family["stand-in"]["base_n"] == "2" and family["stand-in"]["core_n"] == "6"

    variant = {r["variant"]: r for r in _csv(out / "tables" / "variant_x_team.csv")}
    assert set(variant) == set(VARIANTS)
    assert variant["base-1"]["source"] == "paper" and variant["carving-1"]["source"] == "ours"
    assert variant["base-1"]["oracle_n"] == "2" and variant["base-1"]["random_n"] == "4"

    gap = _csv(out / "tables" / "trio_solo_gap.csv")
    assert {r["model"] for r in gap} == {"stand-in"}  # the only team with a solo run
    for r in gap:
        trio, solo = float(r["trio"] or 0), float(r["solo"] or 0)
        assert r["gap_points"] == f"{100 * (solo - trio):+.1f}"

    endings = {r["team"]: r for r in _csv(out / "tables" / "endings.csv")}
    for name, r in endings.items():
        assert sum(int(r[f"{e}_k"]) for e in ("defused", "timed_out", "wrong_action",
                                               "never_acted")) == int(r["defused_n"]), name  # fmt: skip

    failures = {r["team"]: r for r in _csv(out / "tables" / "failures_by_team.csv")}
    for name, r in failures.items():
        losses = int(r["losses"])
        assert sum(int(r[f"{m}_k"]) for m in FAILURE_MODES) == losses, name
        assert sum(int(r[f"{st}_k"]) for st in ("communication", "reasoning", "action")) == losses
    assert failures["random"]["no_shared_code_k"] == failures["random"]["losses"]
    by_family = _csv(out / "tables" / "failures_by_family.csv")
    assert {r["team"] for r in by_family} <= set(family) and len({r["team"] for r in by_family}) > 1

    md = (out / "report.md").read_text()
    assert "## SANZARU success by team and family" in md
    page = (out / "report.html").read_text()
    assert page.count("<table data-table=") == len(TABLES) and page.count("<svg") == 1
    assert not re.search(r'(src|href)="(https?:)?//', page)  # nothing fetched: works offline

    shown = subprocess.run(  # the real binary, once, after the suites
        [GPTNT, "sanzaru", "report", str(run)], check=False, capture_output=True, text=True,
        timeout=60, env={"COLUMNS": "400", "PATH": ""},
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    for title in ("(Table 3)", "(Table 12)", "(Table 4)", "(Table 10)", "(Table 11)",
                  "(Figure 6)", "(Table 5, Figure 4)", "(Figure 13)", "(Table 6)"):  # fmt: skip
        assert title in shown.stdout, title
    assert "stand-in · solo" in shown.stdout


def test_out_inside_a_run_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["sanzaru", "report", str(tmp_path), "--out", str(tmp_path / "r")]
    )
    assert "--out" in str(result.exception) and not (tmp_path / "r").exists()


def test_a_version_1_run_is_refused_naming_a_summary(tmp_path: Path) -> None:
    """SANZARU's first format wrote ``<run>/<variant>-i<n>-r<k>/summary.json`` and no ledger;
    it is no longer read: one line naming the file and the fix, exit 2."""
    folder = tmp_path / "base-1-i1-r1"
    folder.mkdir()
    (folder / "summary.json").write_text(
        '{"schema_version": 1, "episode_id": "base-1-i1-r1", "variant": "base-1", '
        '"family": "base", "subset": "core", "instance": 1, "repeat": 1, "team": "oracle", '
        '"hints": "weak", "solo": false, "thinking": null, "outcome": "defused", '
        '"rounds_used": 3, "rounds": 8, "bounces": 0}'
    )
    result = CliRunner().invoke(app, ["sanzaru", "report", str(tmp_path)])
    message = str(result.exception)
    assert str(folder / "summary.json") in message and "first format" in message
    assert "gptnt sanzaru suite --out NEW" in message and "\n" not in message


async def test_a_version_1_run_beside_a_run_of_today_is_refused_not_left_out(
    tmp_path: Path,
) -> None:
    """A folder of runs holding a run of today's format and one of the first format: the old
    run is refused by name (it was left out in silence, the report's n short by its episodes)."""
    await suite(Team("oracle", "oracle"), tmp_path / "new", variant_ids=["base-1"], instances=1,
                repeats=1)  # fmt: skip
    folder = tmp_path / "old" / "base-1-i1-r1"
    folder.mkdir(parents=True)
    (folder / "summary.json").write_text('{"schema_version": 1, "episode_id": "base-1-i1-r1"}')
    result = CliRunner().invoke(app, ["sanzaru", "report", str(tmp_path)])
    assert str(folder / "summary.json") in str(result.exception), result.output
    shown = CliRunner().invoke(app, ["sanzaru", "report", str(tmp_path / "new")])
    assert shown.exit_code == 0, shown.output
