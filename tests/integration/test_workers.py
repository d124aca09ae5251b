"""Records from every host reach the run: a ``gptnt worker`` in another process, in another
working directory (its own disk and its own Redis, as on another host), joins the suite's Dask
scheduler and plays episodes of a suite; their events, frames and summaries arrive in the
suite's run directory, and a rerun replays none of them."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from child_server import GPTNT
from dask_scheduler import dask_scheduler
from standin_players import Latency, wait_in_flight, waiting_player

from gptnt.records import Ledger, read_events, read_summary

MISSIONS = "Wires-234,Keypad-286,Wires-337"


@contextlib.contextmanager
def _worker(scheduler: str, cwd: Path, env: dict[str, str]) -> Iterator[subprocess.Popen[str]]:
    """A ``gptnt worker`` of the scheduler, in its own working directory (another host's
    disk), stopped when the block ends."""
    worker = subprocess.Popen(
        [*GPTNT, "worker", "--scheduler", scheduler, "--out", "staging"], cwd=cwd,
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        yield worker
    finally:
        worker.terminate()
        worker.communicate(timeout=60)


@pytest.mark.slow
def test_a_remote_workers_records_reach_the_run_and_are_not_replayed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "other-host"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "GPTNT_REDIS_URL"}
    with dask_scheduler() as scheduler, _worker(scheduler, elsewhere, env) as worker:
        suite = [*GPTNT, "suite", "run", "single", "--only", MISSIONS, "--modes", "sync",
                 "--launch", "task", "--run", "multi", "--out", str(tmp_path / "runs"),
                 "--scheduler", scheduler]  # fmt: skip
        run = {"env": env, "capture_output": True, "text": True, "timeout": 300}
        done = subprocess.run(suite, check=False, **run)  # type: ignore[call-overload]
        assert done.returncode == 0, done.stderr + done.stdout
        again = subprocess.run(suite, check=False, **run)  # type: ignore[call-overload]
        assert again.returncode == 0, again.stderr
    assert worker.returncode == 130  # SIGTERM: interrupted, as documented
    # Staged per suite invocation (the run's name and a mark): ``staging/multi-<hex>``.
    played_elsewhere = list((elsewhere / "staging").glob("multi-*/episodes/*"))
    assert played_elsewhere, "the remote worker played nothing"
    run_dir = tmp_path / "runs" / "multi"
    ledger = Ledger(run_dir)
    assert {e.status for e in ledger.latest().values()} == {"finished"}
    assert len(ledger.latest()) == 3 and not ledger.missing()
    for folder in played_elsewhere:
        here = run_dir / "episodes" / folder.name
        assert read_summary(here) == read_summary(folder)
        turns = [e for e in read_events(here) if e.kind == "turn" and e.frames]
        assert turns and all((here / "frames" / f"{h}.png").is_file() for h in turns[0].frames)
    assert "0 to play" in again.stdout
    assert len(list(ledger.entries())) == 3  # the rerun added nothing


@pytest.mark.slow
def test_two_workers_never_share_a_staging_directory(tmp_path: Path) -> None:
    """One writer per directory: a second ``gptnt worker`` on the same ``--out`` is refused in
    one line (exit 2) while the first stages there; once the first stops, the lock is gone."""
    env = {k: v for k, v in os.environ.items() if k != "GPTNT_REDIS_URL"}
    lock = tmp_path / "staging" / ".writer.lock"
    with dask_scheduler() as scheduler:
        argv = [*GPTNT, "worker", "--scheduler", scheduler, "--out", "staging"]
        first = subprocess.Popen(argv, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)  # fmt: skip
        try:
            assert first.stdout is not None
            assert first.stdout.readline().startswith("worker: taking episodes from")
            assert lock.is_file()
            second = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True,
                                    timeout=120, check=False)  # fmt: skip
        finally:
            first.terminate()
            _, first_err = first.communicate(timeout=60)
    assert second.returncode == 2, second.stderr
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --out staging: another run writes")
    assert f"pid {first.pid}" in lines[0] and second.stdout == ""
    assert first.returncode == 130, first_err
    assert not lock.exists()


@pytest.mark.slow
def test_a_suite_stopped_with_ctrl_c_resumes_on_the_same_workers(tmp_path: Path) -> None:
    """SIGINT to a suite stops its episodes on every worker; a rerun of the same command on the
    same (long-lived) ``gptnt worker`` plays the rest. The stop is the stopped suite's alone: it
    must not stay on the worker for the next suite of that run name (which then got every task
    back unplayed, for ever)."""
    import signal

    elsewhere = tmp_path / "other-host"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "GPTNT_REDIS_URL"}
    # Players that wait, answering in about half a second: the first suite's episodes last long
    # enough to be seen in flight (the oracle's can end between two rewrites of fleet.json).
    with waiting_player(tmp_path, Latency(0.5, 0.2, 0.2, 1.0)) as (player, reach):
        env.update(reach)
        with dask_scheduler() as scheduler, _worker(scheduler, elsewhere, env):
            suite = [*GPTNT, "suite", "run", "single", "--only", "Wires-234,Keypad-286",
                     "--modes", "sync", "--launch", "task", "--run", "again",
                     "--out", str(tmp_path / "runs"), "--scheduler", scheduler,
                     "--players", str(player), "--yes"]  # fmt: skip
            first = subprocess.Popen(suite, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)  # fmt: skip
            run_dir = tmp_path / "runs" / "again"
            wait_in_flight(first, run_dir)
            first.send_signal(signal.SIGINT)
            _, first_err = first.communicate(timeout=240)
            assert first.returncode == 130, first_err
            again = subprocess.run(suite, env=env, capture_output=True, text=True,
                                   timeout=300, check=False)  # fmt: skip
    assert again.returncode == 0, again.stderr[-3000:]
    latest = Ledger(run_dir).latest()
    assert len(latest) == 2 and {e.status for e in latest.values()} == {"finished"}, latest
