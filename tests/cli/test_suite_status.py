"""``gptnt suite status`` on a damaged run: a torn fleet.json or an unreadable ledger line is
named on stderr, never shown as "not run by `suite run`" or as a silently smaller count."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from gptnt.records import LOCK, FleetView, Ledger, write_fleet

GPTNT = Path(sys.executable).parent / "gptnt"


def _status(run_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(GPTNT), "suite", "status", str(run_dir)], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "COLUMNS": "200"})  # fmt: skip


def _run(tmp_path: Path) -> Path:
    run_dir = tmp_path / "run"
    ledger = Ledger(run_dir)
    ledger.close("Wires-234.sync.oracle.oracle.r0", 1, "solved")
    with ledger.path.open("ab") as f:  # a whole line that is no entry (bad bytes on disk)
        f.write(b'{"kind": "ledger_entry", "episode_key": \n')
    ledger.close("Wires-235.sync.oracle.oracle.r0", 1, "solved")
    write_fleet(run_dir, FleetView(updated_at=time.time(), active=False, scheduler="local",
                                   workers=0, slots=0, episodes=3))  # fmt: skip
    return run_dir


def test_a_torn_fleet_json_and_a_bad_ledger_line_are_named(tmp_path: Path) -> None:
    run_dir = _run(tmp_path)
    fleet = run_dir / "fleet.json"
    fleet.write_bytes(fleet.read_bytes()[:40])  # torn
    result = _status(run_dir)
    assert result.returncode == 0, result.stderr
    assert "not run by" not in result.stdout, result.stdout
    assert "fleet view unreadable; done 2, parked 0" in result.stdout, result.stdout
    assert "fleet.json unreadable (not valid JSON" in result.stderr, result.stderr
    assert "1 line unreadable in" in result.stderr and "ledger.jsonl" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_readable_run_warns_of_nothing(tmp_path: Path) -> None:
    run_dir = _run(tmp_path)
    good = Ledger(run_dir)
    good.path.write_bytes(b"".join(line + b"\n" for line in good.path.read_bytes().splitlines()
                                   if b"Wires" in line and b"episode_dir" in line))  # fmt: skip
    result = _status(run_dir)
    assert result.returncode == 0, result.stderr
    assert "done 2, parked 0" in result.stdout, result.stdout
    assert "warning" not in result.stderr, result.stderr


def test_a_suite_that_died_is_not_shown_running(tmp_path: Path) -> None:
    """A suite killed (or stopped by a full disk) leaves its fleet view active with its episodes
    in flight; only a live holder of the run's writer lock makes it "running"."""
    run_dir = _run(tmp_path)
    write_fleet(run_dir, FleetView(updated_at=time.time(), active=True, scheduler="local",
                                   workers=2, slots=2, episodes=3))  # fmt: skip
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    lock = run_dir / LOCK
    for pid, expected in ((int(dead.stdout), "not running"), (os.getpid(), "running")):
        lock.write_text(json.dumps({"host": socket.gethostname(), "pid": pid, "since": 0}))
        result = _status(run_dir)
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith(f"run: {expected} (updated "), result.stdout
    lock.unlink()
    assert _status(run_dir).stdout.startswith("run: not running")
