"""A suite on a fleet of game hosts, with the faults a queue exists for: three ``gptnt worker``s
(separate processes, each in its own working directory with its own Redis, as on other hosts),
one SIGKILLed mid-episode and one that sends back a result with an absolute path and then one
with a ``..`` path. The suite finishes; every episode has exactly one final attempt; the dead
attempt is recorded ``crashed: worker lost``, the rogue ones as refused; nothing is written
outside the run directory; ``gptnt suite status`` shows the fleet while it plays. And a host that
stops answering without dying (SIGSTOP) is lost after ``worker-ttl`` and its episode played
again by another worker."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from child_server import GPTNT
from dask.utils import parse_timedelta
from dask_scheduler import dask_scheduler
from distributed import Client

from gptnt.records import Ledger, read_fleet, read_summary
from gptnt.services.manager import EpisodeSettings, EpisodeSpec
from gptnt.services.manager.host import START_TOPIC
from gptnt.services.manager.suite import WORKER_TTL, SuiteOutcome, run_suite

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


CUT_TTL_S = 10
"""The test's ``worker-ttl``, half the suite's: Dask's own floor (5 s: it never waits fewer than
10 of its heartbeats, 0.5 s apart with up to 10 workers) dropped the healthy worker too, busy
with its episode, on a machine at load 13–19 on 2 cores."""


@pytest.mark.slow
def test_a_frozen_hosts_episode_is_played_again_by_another_worker(tmp_path: Path) -> None:
    """A host that stops answering without dying (SIGSTOP of its worker and its games: the
    connection stays open, heartbeats stop) is lost after ``worker-ttl``: its attempt is
    recorded ``crashed: worker lost`` within twice the ttl (the scheduler looks every ttl) and
    played again, as the next attempt, by the other worker."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPTNT_")}
    specs = [EpisodeSpec.make(mission, "sync") for mission in MISSIONS[:2]]
    run_dir = tmp_path / "runs" / "cut"
    hosts = {name: tmp_path / name for name in ("host-a", "host-b")}
    frozen: dict[str, object] = {}
    outcome: list[SuiteOutcome] = []
    policy = {"DASK_DISTRIBUTED__SCHEDULER__WORKER_TTL": f"{CUT_TTL_S}s"}
    with dask_scheduler(**policy) as scheduler:
        procs = {}
        for name, folder in hosts.items():
            folder.mkdir()
            procs[name] = subprocess.Popen(
                [*GPTNT, "worker", "--scheduler", scheduler, "--out", "staging"], cwd=folder,
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True,
            )  # fmt: skip
        victim = procs["host-b"]

        def freeze(event: tuple[float, dict]) -> None:  # on the watcher's thread, at once
            msg = event[1]
            if not frozen and str(msg["name"]).endswith(f"-{victim.pid}"):
                os.killpg(victim.pid, signal.SIGSTOP)
                frozen.update(
                    at=time.time(), key=msg["key"], attempt=msg["attempt"], run=msg["run"]
                )

        try:
            with Client(scheduler, timeout=30) as watcher:
                _wait_for("two workers", time.monotonic() + 120,
                          lambda: len(watcher.scheduler_info(n_workers=-1)["workers"]) == 2)  # fmt: skip
                watcher.subscribe_topic(START_TOPIC, freeze)
                # The suite in this process (the library call of `gptnt suite run --scheduler`),
                # on a thread so that a suite that never ends fails the test instead of hanging it.
                suite = threading.Thread(target=lambda: outcome.append(run_suite(
                    run_dir, specs, EpisodeSettings(launch="task"), retries=1,
                    scheduler=scheduler)), daemon=True)  # fmt: skip
                suite.start()
                suite.join(timeout=300)
                assert not suite.is_alive(), f"the suite did not end; frozen: {frozen}"
        finally:
            for proc in procs.values():
                os.killpg(proc.pid, signal.SIGKILL)  # a stopped process dies of it too
                proc.wait(timeout=60)
    assert outcome and not outcome[0].interrupted and not outcome[0].parked, outcome
    assert frozen, "host b was given no episode"
    latest = Ledger(run_dir).latest()
    assert {e.status for e in latest.values()} == {"finished"} and len(latest) == 2
    attempts = [e for e in Ledger(run_dir).entries() if e.episode_key == frozen["key"]]
    assert [(e.attempt, e.status) for e in attempts] == [(1, "crashed"), (2, "finished")]
    assert attempts[0].reason == f"worker lost ({socket.gethostname()}-{victim.pid})"
    assert outcome[0].progress.counts["crashed"] == 1
    # Played again by host a, which staged it; host b (frozen) staged nothing of attempt 2.
    retry = f"{frozen['key']}-a2"
    assert (
        hosts["host-a"] / "staging" / str(frozen["run"]) / "episodes" / retry / "summary.json"
    ).is_file()
    assert not (hosts["host-b"] / "staging" / str(frozen["run"]) / "episodes" / retry).exists()
    lost_after = attempts[0].at - float(frozen["at"])  # type: ignore[arg-type]
    played_after = attempts[1].at - float(frozen["at"])  # type: ignore[arg-type]
    print(f"frozen host: loss recorded {lost_after:.1f} s, retry finished {played_after:.1f} s "
          f"after SIGSTOP (worker-ttl {CUT_TTL_S} s)")  # fmt: skip
    # Held to the bound documented for the suite's own policy (docs/suites.md: twice its
    # worker-ttl); with this test's ttl it is expected within twice CUT_TTL_S (printed above).
    assert lost_after <= 2 * parse_timedelta(WORKER_TTL), lost_after
