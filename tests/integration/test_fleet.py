"""A suite on a fleet of game hosts, with the faults a queue exists for: three ``gptnt worker``s
(separate processes, each in its own working directory with its own Redis, as on other hosts),
one SIGKILLed mid-episode and one that sends back a result with an absolute path and then one
with a ``..`` path. The suite finishes; every episode has exactly one final attempt; the dead
attempt is recorded ``crashed: worker lost``, the rogue ones as refused; nothing is written
outside the run directory; ``gptnt suite status`` shows the fleet while it plays."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from child_server import GPTNT
from dask_scheduler import dask_scheduler
from distributed import Client

from gptnt.records import Ledger, read_fleet, read_summary

MISSIONS = ["Wires-234", "Wires-286", "Wires-337", "Wires-798", "Keypad-286", "Keypad-337",
            "Password-234", "Password-286", "BigButton-234", "BigButton-286", "Memory-234",
            "Memory-286"]  # fmt: skip
ROGUE = Path(__file__).with_name("rogue_worker.py")
LOSS_BOUND_S = 60.0  # the stated bound (docs/suites.md): a lost worker's attempt is recorded


def _wait_for(what: str, until: float, check) -> object:  # type: ignore[no-untyped-def]
    while time.monotonic() < until:
        got = check()
        if got:
            return got
        time.sleep(0.2)
    pytest.fail(f"timed out waiting for {what}")


@pytest.mark.slow
def test_a_suite_survives_a_killed_worker_and_a_rogue_one(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPTNT_")}
    suite_file = tmp_path / "fleet.json"
    suite_file.write_text(json.dumps({"name": "fleet", "missions": MISSIONS, "modes": ["sync"]}))
    outside = tmp_path / "outside"
    outside.mkdir()
    out = tmp_path / "suite-host" / "runs"
    out.parent.mkdir()
    run_dir = out / "fleet"
    hosts = {name: tmp_path / name for name in ("host-a", "host-b", "host-c")}
    for folder in hosts.values():
        folder.mkdir()
    with dask_scheduler() as scheduler:
        worker = ["worker", "--scheduler", scheduler, "--out", "staging", "--games", "1"]
        argv = {"host-a": [*GPTNT, *worker], "host-b": [*GPTNT, *worker],
                "host-c": [sys.executable, str(ROGUE), str(outside), "--", *worker]}  # fmt: skip
        procs = {name: subprocess.Popen(argv[name], cwd=hosts[name], env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)
                 for name in hosts}  # fmt: skip
        suite = None
        try:
            with Client(scheduler, timeout=30) as client:
                _wait_for("three workers", time.monotonic() + 120,
                          lambda: len(client.scheduler_info(n_workers=-1)["workers"]) == 3)  # fmt: skip
            suite = subprocess.Popen(
                [*GPTNT, "suite", "run", str(suite_file), "--scheduler", scheduler, "--run",
                 "fleet", "--out", str(out), "--launch", "task", "--retries", "3",
                 "--progress-every", "1"],
                cwd=tmp_path / "suite-host", env=env, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True,
            )  # fmt: skip
            # The fleet view, while it plays: queued, in flight (host, worker, elapsed), done.
            _wait_for("episodes in flight", time.monotonic() + 240,
                      lambda: (fleet := read_fleet(run_dir)) and fleet.in_flight)  # fmt: skip
            status = subprocess.run([*GPTNT, "suite", "status", str(run_dir)],
                                    env={**env, "COLUMNS": "200"}, capture_output=True,
                                    text=True, timeout=60, check=False)  # fmt: skip
            # Mid-episode: the fleet view names an attempt just started on host b's worker.
            victim = f"-{procs['host-b'].pid}"
            _wait_for("an episode just started on host b", time.monotonic() + 240, lambda: [
                f for f in (read_fleet(run_dir).in_flight if read_fleet(run_dir) else [])
                if f.worker.endswith(victim) and time.time() - f.started_at < 2
            ])  # fmt: skip
            os.killpg(procs["host-b"].pid, signal.SIGKILL)
            killed_at = time.monotonic()
            _wait_for("the lost attempt in the ledger", killed_at + LOSS_BOUND_S, lambda: any(
                "worker lost" in e.reason for e in Ledger(run_dir).entries()
            ))  # fmt: skip
            print(f"worker loss recorded {time.monotonic() - killed_at:.1f} s after SIGKILL")
            stdout, stderr = suite.communicate(timeout=600)
        finally:
            for proc in [*procs.values(), *([suite] if suite else [])]:
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGTERM) if proc is not suite else proc.kill()
            for proc in procs.values():
                proc.wait(timeout=120)
    assert suite.returncode == 0, stderr[-3000:] + stdout[-2000:]
    assert status.returncode == 0, status.stderr
    assert "In flight" in status.stdout and "elapsed" in status.stdout, status.stdout
    assert any(key in status.stdout for key in (f"{m}.sync" for m in MISSIONS)), status.stdout

    entries = list(Ledger(run_dir).entries())
    by_key: dict[str, list] = {}
    for entry in entries:
        by_key.setdefault(entry.episode_key, []).append(entry)
    assert len(by_key) == len(MISSIONS)
    for key, attempts in by_key.items():
        numbers = [e.attempt for e in attempts]
        assert numbers == list(range(1, len(attempts) + 1)), (key, numbers)  # each counted once
        finals = [e for e in attempts if e.status == "finished"]
        assert len(finals) == 1 and attempts[-1] is finals[0], (key, attempts)
        assert all(read_summary(run_dir / e.episode_dir) for e in attempts)
    crashed = [e for e in entries if e.status == "crashed"]
    dead = [e for e in crashed if e.reason.startswith("worker lost")]
    assert len(dead) == 1 and dead[0].reason.endswith(f"{victim})"), dead  # host b's worker
    refused = [e for e in crashed if e.reason.startswith("bad result")]
    assert len(refused) == 2 and all("leaves the episode directory" in e.reason for e in refused)
    assert "refused the result" in stderr
    # Nothing outside the run directory: not the rogue paths, not a stray file beside the run.
    assert not list(outside.iterdir())
    assert not list(tmp_path.rglob("dotdot.txt")) and not list(tmp_path.rglob("absolute.txt"))
    assert [p.name for p in out.iterdir()] == ["fleet"]
    assert {p.name for p in run_dir.iterdir()} == {"episodes", "ledger.jsonl", "run.json",
                                                   "fleet.json"}  # fmt: skip
    fleet = read_fleet(run_dir)
    assert fleet is not None and not fleet.active and fleet.done == len(MISSIONS)
