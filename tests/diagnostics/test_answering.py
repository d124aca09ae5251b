"""Answering datasets: the ground truth scores 100 %, random lands on chance, a model run
over loopback carries the manual or the frame as in play, and runs resume."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fake_openai import FakeServer, completion

from gptnt.analysis import wilson
from gptnt.diagnostics import (
    ModelAnswerer,
    RandomAnswerer,
    TruthAnswerer,
    read_answers,
    read_dataset,
    report_rows,
    run,
)
from gptnt.manual import build_manual
from gptnt.players.config import PlayerConfig

GPTNT = str(Path(sys.executable).with_name("gptnt"))


@pytest.mark.parametrize(
    "task,paradigm,coordinates",
    [
        ("manual_vqa", "set-of-marks", "absolute"),
        ("sim_vqa", "set-of-marks", "absolute"),
        ("contamination", "set-of-marks", "absolute"),
        ("localisation", "set-of-marks", "absolute"),
        ("localisation", "coordinates", "absolute"),
        ("localisation", "coordinates", "scaled"),
        ("localisation", "coordinates", "relative"),
    ],
)
async def test_ground_truth_scores_everything(
    datasets: dict[str, Path], tmp_path: Path, task: str, paradigm: str, coordinates: str
) -> None:
    spec = {"paradigm": paradigm, "coordinates": coordinates}
    await run(datasets[task], tmp_path, TruthAnswerer(), spec, concurrency=16)
    answers = read_answers(tmp_path)
    assert len(answers) == len(read_dataset(datasets[task])[1])
    wrong = [a.id for a in answers if not a.correct]
    assert not wrong


@pytest.mark.parametrize("task", ["manual_vqa", "sim_vqa", "localisation"])
async def test_random_lands_on_chance(datasets: dict[str, Path], tmp_path: Path, task: str) -> None:
    await run(datasets[task], tmp_path, RandomAnswerer(seed=5), {}, concurrency=16)
    (overall,) = [r for r in report_rows(read_answers(tmp_path), "category") if r.group == "all"]
    low, high = wilson(overall.correct, overall.n)
    assert overall.chance is not None and low <= overall.chance <= high
    assert overall.accuracy < 0.6  # far from the truth's 100 %


async def test_model_run_carries_the_manual_and_frames(
    datasets: dict[str, Path], tmp_path: Path, server: FakeServer
) -> None:
    config = PlayerConfig(
        model="vllm:m", base_url=server.url, transport_retries=0, image_size=(320, 240)
    )
    pages = build_manual(1).pages
    server.replies = [(200, completion("<thoughts>x</thoughts><answer>A</answer>"))] * 3
    await run(
        datasets["manual_vqa"],
        tmp_path / "m",
        ModelAnswerer(config, manual_pages=pages),
        {},
        limit=3,
    )
    for body in server.received:
        parts = [
            p
            for m in body["messages"]
            for p in (m["content"] if isinstance(m["content"], list) else [])
        ]
        images = [p for p in parts if p.get("type") == "image_url"]
        texts = " ".join(p.get("text", "") for p in parts)
        assert len(images) == len(pages)  # every manual page as an image, as in play
        assert f"Manual page {pages[0].number}:" in texts and "\nA. " in texts
    server.received.clear()
    server.replies = [(200, completion("<answer>B</answer>"))] * 2
    await run(datasets["sim_vqa"], tmp_path / "s", ModelAnswerer(config), {}, limit=2)
    for body in server.received:
        parts = [
            p
            for m in body["messages"]
            for p in (m["content"] if isinstance(m["content"], list) else [])
        ]
        assert sum(p.get("type") == "image_url" for p in parts) == 1  # the frame, no manual
    answers = read_answers(tmp_path / "s")
    assert [a.parsed for a in answers] == ["B", "B"]
    server.received.clear()
    server.replies = [(200, completion("<answer>A</answer>"))] * 2
    await run(datasets["localisation"], tmp_path / "l", ModelAnswerer(config), {}, limit=2)
    for body in server.received:
        parts = [
            p
            for m in body["messages"]
            for p in (m["content"] if isinstance(m["content"], list) else [])
        ]
        assert sum(p.get("type") == "image_url" for p in parts) == 1  # the marked frame
        assert "set-of-marks" in body["messages"][0]["content"]
    assert len(read_answers(tmp_path / "l")) == 2


async def test_a_run_resumes_where_it_stopped(datasets: dict[str, Path], tmp_path: Path) -> None:
    await run(datasets["sim_vqa"], tmp_path, TruthAnswerer(), {}, limit=10)
    with (tmp_path / "answers.jsonl").open("a") as f:
        f.write('{"id": "svqa-cut-off')  # a line a crash cut short
    await run(datasets["sim_vqa"], tmp_path, TruthAnswerer(), {})
    ids = [a.id for a in read_answers(tmp_path)]
    assert len(ids) == len(set(ids)) == len(read_dataset(datasets["sim_vqa"])[1])


async def test_a_rerun_asks_failed_calls_again_and_counts_unparsed_apart(
    datasets: dict[str, Path], tmp_path: Path, server: FakeServer
) -> None:
    config = PlayerConfig(model="vllm:m", base_url=server.url, transport_retries=0)
    dataset = datasets["sim_vqa"]
    server.replies = [(200, completion("<answer>A</answer>")), (500, b"down"),
                      (200, completion("no tags at all"))]  # fmt: skip
    told: list[tuple[int, int, int]] = []

    def on_start(*a):
        return told.append(a)

    await run(dataset, tmp_path, ModelAnswerer(config), {}, limit=3, concurrency=1,
              on_start=on_start)  # fmt: skip
    (first,) = [r for r in report_rows(read_answers(tmp_path), "category") if r.group == "all"]
    assert (first.n, first.failures, first.unparsed, first.scored) == (3, 1, 1, 2)
    failed = next(a.id for a in read_answers(tmp_path) if a.failure is not None)
    server.received.clear()
    server.replies = [(200, completion("<answer>B</answer>"))]
    await run(dataset, tmp_path, ModelAnswerer(config), {}, limit=1, concurrency=1,
              on_start=on_start)  # fmt: skip
    assert told == [(3, 0, 0), (1, 2, 1)]  # the rerun asks only the failed call
    assert len(server.received) == 1
    answers = {a.id: a for a in read_answers(tmp_path)}
    assert len(answers) == 3 and answers[failed].failure is None  # replaced, not duplicated
    (second,) = [r for r in report_rows(list(answers.values()), "category") if r.group == "all"]
    assert (second.failures, second.unparsed, second.scored) == (0, 1, 3)


def test_cli_build_run_report(tmp_path: Path) -> None:
    build = subprocess.run(
        [
            GPTNT,
            "diag",
            "build",
            "--out",
            str(tmp_path),
            "--task",
            "manual_vqa",
            "--n",
            "30",
            "--module",
            "Wires",
            "--module",
            "Simon",
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr
    # Progress while it works, and what could not be made for two modules said in one line.
    assert "manual_vqa: generating 30 questions" in build.stderr
    assert "element_grounding: 0 of 3" in build.stderr.replace("\n", " ")
    dataset = Path(build.stdout.strip().splitlines()[-1])
    manifest = json.loads((dataset / "dataset.json").read_text())
    assert manifest["modules"] == ["Wires", "Simon"]
    ran = subprocess.run(
        [GPTNT, "diag", "run", str(dataset), "--player", "truth"],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.returncode == 0, ran.stderr
    results = Path(ran.stdout.strip().splitlines()[-1])
    assert "already answered; asking" in ran.stderr and "0 unparsed, 0 failed calls" in ran.stderr
    again = subprocess.run([GPTNT, "diag", "run", str(dataset), "--player", "truth"],
                           check=False, capture_output=True, text=True, timeout=300)  # fmt: skip
    asked = sum(manifest["written"].values())
    assert again.returncode == 0 and f"{asked} of {asked} questions answered" in again.stderr
    assert "asking 0" in again.stderr and " right of " in again.stderr  # a summary on rerun too
    ablation = subprocess.run(
        [GPTNT, "diag", "run", str(dataset), "--player", "truth", "--no-manual"],
        check=False, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert ablation.returncode == 0, ablation.stderr
    apart = Path(ablation.stdout.strip().splitlines()[-1])
    assert apart != results and apart.name.endswith("--no-manual")
    shown = subprocess.run(
        [GPTNT, "diag", "report", str(results)],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        env={"COLUMNS": "160", "PATH": "/usr/bin"},
    )
    assert shown.returncode == 0, shown.stderr
    assert "100.0%" in shown.stdout and "procedural" in shown.stdout
    bad = subprocess.run(
        [GPTNT, "diag", "build", "--task", "vqa"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0 and "--task 'vqa'" in bad.stderr
