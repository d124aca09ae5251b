"""``diag report --out``: the report's Markdown, CSV and offline HTML page, several results
folders side by side, rates with their Wilson interval and n, the chance level, and a failed
call counted apart from the accuracy."""

from __future__ import annotations

import asyncio
import csv
import re
from pathlib import Path

import pytest
from fake_openai import FakeServer, completion
from typer.testing import CliRunner

from gptnt.analysis import wilson
from gptnt.analysis.browser import chromium_path
from gptnt.cli import app
from gptnt.diagnostics import ModelAnswerer, RandomAnswerer, TruthAnswerer, read_dataset, run
from gptnt.errors import ConfigError
from gptnt.players.config import PlayerConfig


def _csv(path: Path) -> dict[str, dict[str, str]]:
    with path.open() as f:
        return {row[next(iter(row))]: row for row in csv.DictReader(f)}


async def test_report_files_set_results_side_by_side(
    datasets: dict[str, Path], tmp_path: Path, server: FakeServer
) -> None:
    dataset = datasets["sim_vqa"]
    questions = read_dataset(dataset)[1]
    await run(dataset, tmp_path / "truth", TruthAnswerer(), {}, concurrency=16)
    await run(dataset, tmp_path / "random", RandomAnswerer(seed=3), {}, concurrency=16)
    config = PlayerConfig(model="vllm:m", base_url=server.url, transport_retries=0)
    server.replies = [(200, completion("<answer>A</answer>")), (500, b"down"),
                      (200, completion("<answer>B</answer>"))]  # fmt: skip
    await run(dataset, tmp_path / "model", ModelAnswerer(config), {}, limit=3, concurrency=1)
    out = tmp_path / "report"
    folders = [str(tmp_path / name) for name in ("truth", "random", "model")]
    result = CliRunner().invoke(app, ["diag", "report", *folders, "--out", str(out)])
    assert result.exit_code == 0, result.output

    table = _csv(out / "tables" / "sim_vqa_by_category.csv")
    categories = {q.category for q in questions}
    assert set(table) == categories | {"all"}
    overall = table["all"]
    truth = "truth_set_of_marks"
    assert overall[f"{truth}_k"] == overall[f"{truth}_n"] == str(len(questions))
    assert float(overall[truth]) == 1.0
    k, n = int(overall["random_set_of_marks_k"]), int(overall["random_set_of_marks_n"])
    low, high = wilson(k, n)
    assert abs(float(overall["random_set_of_marks_ci_low"]) - low) < 1e-5
    assert abs(float(overall["random_set_of_marks_ci_high"]) - high) < 1e-5
    assert low <= float(overall["chance"]) <= high  # random lands on the chance column
    # The failed call is not a wrong answer: 2 of 3 questions scored.
    assert overall["vllm_m_set_of_marks_n"] == "2"
    runs = _csv(out / "tables" / "runs.csv")
    assert runs["vllm:m (set-of-marks)"]["failed_calls_not_scored"] == "1"
    assert set(_csv(out / "tables" / "sim_vqa_by_module.csv")) == {q.module for q in questions} | {
        "all"
    }

    md = (out / "report.md").read_text()
    assert "## sim_vqa by category" in md and "100% [" in md and f"(n={len(questions)})" in md
    page = (out / "report.html").read_text()
    assert not re.search(r'(src|href)="(https?:)?//', page)  # nothing fetched: works offline
    assert page.count("<table data-table=") == 3 and "<svg" in page


@pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed")
def test_report_page_loads_in_chromium(datasets: dict[str, Path], tmp_path: Path) -> None:
    pytest.importorskip("playwright.sync_api")
    from gptnt.analysis.browser import browser, visit

    dataset = datasets["manual_vqa"]
    asyncio.run(run(dataset, tmp_path / "truth", TruthAnswerer(), {}, concurrency=16))
    out = tmp_path / "report"
    result = CliRunner().invoke(app, ["diag", "report", str(tmp_path / "truth"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    categories = {q.category for q in read_dataset(dataset)[1]}
    with browser() as context:
        seen = visit(context, out / "report.html")
        rows = seen.page.locator('table[data-table="manual_vqa_by_category"] tbody tr')
        assert rows.count() == len(categories) + 1
        assert "100% [" in rows.last.inner_text()
        assert seen.page.locator("svg").count() == 1
        assert seen.errors == []


def test_out_inside_a_results_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "r").mkdir()
    result = CliRunner().invoke(
        app, ["diag", "report", str(tmp_path / "r"), "--out", str(tmp_path / "r" / "rep")]
    )
    assert isinstance(result.exception, ConfigError)  # the CLI prints its one line, exit 1
    assert "--out" in str(result.exception) and not (tmp_path / "r" / "rep").exists()
