"""The commands end to end, as a user runs them: ``gptnt run``, ``suite run`` (killed and
resumed), ``report`` and ``baseline random``."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from child_server import GPTNT

from gptnt.cli.report import wilson
from gptnt.records import Ledger, read_summary


def _gptnt(*args: str, **kwargs) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    env = {k: v for k, v in os.environ.items() if k != "GPTNT_REDIS_URL"}
    return subprocess.run(
        [*GPTNT, *args], check=False, capture_output=True, text=True, env=env, timeout=300, **kwargs
    )


@pytest.mark.slow
def test_gptnt_run_defuses_with_processes_and_embedded_redis(tmp_path: Path) -> None:
    done = _gptnt("run", "--mission", "Wires-849", "--mode", "sync", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr + done.stdout
    assert "solved" in done.stdout
    assert "#0" in done.stdout  # a live line per turn
    (run_dir,) = tmp_path.iterdir()
    (entry,) = Ledger(run_dir).entries()
    assert entry.outcome == "solved"
    # Every service ran as its own process and left a log.
    logs = run_dir / entry.episode_dir / "logs"
    assert sorted(p.name for p in logs.iterdir()) == ["defuser.log", "expert.log", "game.log"]


def test_gptnt_run_names_a_bad_policy_in_one_line(tmp_path: Path) -> None:
    done = _gptnt("run", "--mission", "3", "--defuser", "gpt-9", "--out", str(tmp_path))
    assert done.returncode == 2  # ExitCode.BAD_INPUT
    assert done.stderr.strip().count("\n") == 0 and "--defuser" in done.stderr


@pytest.mark.slow
def test_suite_killed_and_rerun_skips_finished_and_duplicates_nothing(tmp_path: Path) -> None:
    args = [
        "suite",
        "run",
        "single",
        "--only",
        "Wires-234,Keypad-286,Wires-337,Memory-561",
        "--modes",
        "sync",
        "--games",
        "1",
        "--launch",
        "task",
        "--out",
        str(tmp_path),
    ]
    env = {k: v for k, v in os.environ.items() if k != "GPTNT_REDIS_URL"}
    proc = subprocess.Popen(
        [*GPTNT, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )
    run_dir = tmp_path / "suite-single-oracle"
    ledger = Ledger(run_dir)
    deadline = time.monotonic() + 120
    while not ledger.done() and time.monotonic() < deadline:
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)  # the whole run: CLI, workers, embedded Redis
    proc.wait()
    first = {e.episode_key: e for e in ledger.entries()}
    assert first, "nothing finished before the kill"
    stamps = {
        k: (run_dir / e.episode_dir / "summary.json").stat().st_mtime_ns for k, e in first.items()
    }

    done = _gptnt(*args)
    assert done.returncode == 0, done.stderr
    assert f"{len(first)} already done" in done.stdout
    entries = list(ledger.entries())
    finished = [e.episode_key for e in entries if e.status == "finished"]
    assert sorted(finished) == sorted(set(finished))  # none played twice
    assert len(finished) == 4
    for key, entry in first.items():  # the finished ones were not touched
        assert (run_dir / entry.episode_dir / "summary.json").stat().st_mtime_ns == stamps[key]
    # Every counted episode has a complete record; no half-written attempt is left.
    for entry in ledger.latest().values():
        assert read_summary(run_dir / entry.episode_dir) is not None
    for path in (run_dir / "episodes").iterdir():
        assert read_summary(path) is not None, f"{path.name} was left half-written"

    report = _gptnt("report", str(run_dir))
    assert report.returncode == 0, report.stderr
    assert "Wires-234" in report.stdout and "Success rates" in report.stdout


def test_report_refuses_a_directory_without_ledger(tmp_path: Path) -> None:
    done = _gptnt("report", str(tmp_path))
    assert done.returncode == 2 and "ledger.jsonl" in done.stderr


def test_wilson_interval() -> None:
    assert wilson(0, 0) == (0.0, 0.0)
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.27 < high < 0.29
    low, high = wilson(10, 10)
    assert 0.71 < low < 0.73 and high == pytest.approx(1.0)
    low, high = wilson(5, 10)
    assert low == pytest.approx(1 - high)


def test_baseline_random_for_one_module_type(tmp_path: Path) -> None:
    done = _gptnt(
        "baseline", "random", "--module", "Wires", "--repeats", "2", "--out", str(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if "Wires" in line and "%" in line)
    assert "20" in row  # ten single-module Wires missions, twice
    assert "20 episodes in" in done.stdout  # the runtime is printed
    (run_dir,) = tmp_path.iterdir()  # the same records as a served run: the report reads them
    entries = list(Ledger(run_dir).entries())
    assert len(entries) == 20 and {e.status for e in entries} == {"finished"}
    assert all(read_summary(run_dir / e.episode_dir) is not None for e in entries)
    report = _gptnt("report", str(run_dir))
    assert report.returncode == 0, report.stderr


def test_baseline_random_names_a_bad_module() -> None:
    done = _gptnt("baseline", "random", "--module", "Wire")
    assert done.returncode != 0
    assert "--module 'Wire'" in done.stderr + done.stdout and "Wires" in done.stderr + done.stdout


def test_baseline_random_on_fresh_bombs_prints_both_intervals(tmp_path: Path) -> None:
    done = _gptnt(
        "baseline", "random", "--module", "Keypad", "--fresh-bombs", "3", "--repeats", "2",
        "--workers", "1", "--out", str(tmp_path),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "binomial 95 %" in done.stdout and "10-bomb cluster 95 %" in done.stdout
    row = next(line for line in done.stdout.splitlines() if "Keypad" in line and "%" in line)
    assert row.count("%") >= 6  # rate, two intervals, min–max
    (run_dir,) = tmp_path.iterdir()
    summaries = [read_summary(run_dir / e.episode_dir) for e in Ledger(run_dir).entries()]
    missions = {s.mission_id for s in summaries if s is not None}
    assert missions == {f"Keypad-fresh-{seed}" for seed in (100_000, 100_001, 100_002)}
