"""The paper's results tables, in its layout, from the committed scripted run
``tests/data/paper-run`` (see ``tests/data/README.md``): one golden CSV and Markdown section
per table, and the layout itself — rows, columns, Avg., Average, markers — checked."""

from __future__ import annotations

import csv
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gptnt.analysis import Rate, load_run, paper_tables
from gptnt.analysis._paper import DOWN, UP, _mark
from gptnt.cli import app

RUN = Path(__file__).resolve().parents[1] / "data" / "paper-run"
GOLDEN = Path(__file__).parent / "golden" / "paper-run"
UPDATE = os.environ.get("GPTNT_UPDATE_GOLDEN") == "1"
TABLES = ("paper_table2_async", "paper_table3_sync", "paper_table4_async", "paper_table5_sync",
          "paper_table6_async", "paper_table6_sync", "paper_table11_async", "paper_table11_sync")  # fmt: skip


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("runs") / RUN.name
    shutil.copytree(RUN, run)
    out = tmp_path_factory.mktemp("report")
    result = CliRunner().invoke(app, ["report", str(run), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _section(markdown: str, source: str) -> str:
    """The Markdown of the table whose source line is ``*<source>*``."""
    blocks = markdown.split("\n## ")
    return next("## " + b for b in blocks if f"\n*{source}*\n" in b).strip() + "\n"


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("key", TABLES)
def test_each_paper_table_matches_its_golden(report: Path, key: str) -> None:
    table = next(t for t in paper_tables(load_run(RUN).episodes) if t.key == key)
    written = {
        f"{key}.csv": (report / "tables" / f"{key}.csv").read_text(encoding="utf-8"),
        f"{key}.md": _section((report / "report.md").read_text(encoding="utf-8"), table.source)
        if key.endswith(("2_async", "3_sync", "4_async", "5_sync"))
        else "",
    }
    for name, text in written.items():
        if not text:
            continue
        golden = GOLDEN / name
        if UPDATE:
            GOLDEN.mkdir(parents=True, exist_ok=True)
            golden.write_text(text, encoding="utf-8")
        assert golden.exists(), f"no golden for {name}; GPTNT_UPDATE_GOLDEN=1 writes it"
        assert text == golden.read_text(encoding="utf-8"), name


def test_the_layouts_are_the_papers(report: Path) -> None:
    tables = report / "tables"
    # Tables 2-3: one row per player, one column per mission, then Overall.
    multi = _rows(tables / "paper_table3_sync.csv")
    assert [r["player"] for r in multi] == ["oracle (privileged, scripted), self-play",
                                            "random (scripted), self-play"]  # fmt: skip
    assert multi[0]["mission_1"] == "solved ●●●" and multi[1]["mission_1"].endswith("○○○")
    assert multi[0]["overall_missions_solved_n"] == "1"
    # Tables 4-5: module types in the paper's order and names, Avg. column, Average row.
    single = _rows(tables / "paper_table5_sync.csv")
    header = list(single[0])
    assert header.index("wires") < header.index("the_button") < header.index("avg")
    assert single[-1]["player"] == "Average"
    k = sum(int(r["avg_k"]) for r in single[:-1])
    assert (int(single[-1]["avg_k"]), int(single[-1]["avg_n"])) == (
        k, sum(int(r["avg_n"]) for r in single[:-1]))  # fmt: skip
    # Table 6: Defuser rows × Expert columns, each with an Average.
    pairs = _rows(tables / "paper_table6_sync.csv")
    assert pairs[-1]["defuser_expert"] == "Average" and "average_n" in pairs[0]
    # Table 11: the random baseline its own row, never pooled into Pairwise; markers.
    solo = _rows(tables / "paper_table11_sync.csv")
    assert solo[0]["player"] == "Random baseline" and solo[0]["setting"] == ""
    assert [r["setting"] for r in solo[1:]] == ["Pairwise"] * 2 + ["No partner"] * 2 + [
        "No manual"
    ] * 2
    pairwise = next(r for r in solo if r["setting"] == "Pairwise" and r["player"] == "oracle")
    run = load_run(RUN)
    oracle_pairs = [e for e in run.episodes if e.mode == "sync" and e.scored and "-" in e.mission_id
                    and e.player("defuser").policy == "oracle"  # type: ignore[union-attr]
                    and e.player("defuser").seat not in ("solo", "solo-no-manual")]  # type: ignore[union-attr]  # fmt: skip
    assert int(pairwise["avg_n"]) == len(oracle_pairs)
    alone = next(r for r in solo if r["setting"] == "No partner" and r["player"] == "oracle")
    assert alone["avg_change"] == UP  # solved more alone than in pairs, by a mission or more
    text = (report / "report.md").read_text(encoding="utf-8")
    for symbol in ("✅", "⏰", "💥", "⚠"):
        assert symbol not in text  # words and plain symbols only: any font prints them


def test_a_change_is_marked_from_one_mission() -> None:
    assert _mark(Rate(8, 10), Rate(6, 10)).mark == UP
    assert _mark(Rate(5, 10), Rate(6, 10)).mark == DOWN
    assert _mark(Rate(6, 10), Rate(6, 10)).mark == ""
    assert _mark(Rate(1, 1), Rate(1, 2)).mark == ""  # half a mission at n=1: not a change
    assert _mark(Rate(3, 4), Rate(0, 0)).mark == ""  # nothing to compare with
