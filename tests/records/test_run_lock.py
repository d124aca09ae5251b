"""One writer per run directory (``gptnt.records.RunLock``): a live holder on this host or any
holder on another host refuses a second writer in one line; a dead holder's lock is taken over."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from gptnt.errors import ConfigError
from gptnt.records import LOCK, RunLock


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_second_writer_is_refused_naming_the_holder(tmp_path: Path) -> None:
    with RunLock(tmp_path / "run"):
        holder = json.loads((tmp_path / "run" / LOCK).read_text())
        assert holder["host"] == socket.gethostname() and holder["pid"] == os.getpid()
        with pytest.raises(ConfigError) as refused:
            RunLock(tmp_path / "run").acquire()
        message = str(refused.value)
        assert message.startswith(f"--out {tmp_path / 'run'}: another run writes here (host ")
        assert f"pid {os.getpid()}, since " in message and "choose another --out" in message
    assert not (tmp_path / "run" / LOCK).exists()  # released with the block


def test_a_dead_holders_lock_is_taken_over(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    stale = {"host": socket.gethostname(), "pid": _dead_pid(), "since": 0}
    (run / LOCK).write_text(json.dumps(stale))
    with RunLock(run):
        assert json.loads((run / LOCK).read_text())["pid"] == os.getpid()
    assert sorted(p.name for p in run.iterdir()) == []


def test_another_hosts_lock_is_never_guessed_at(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / LOCK).write_text(json.dumps({"host": "elsewhere", "pid": _dead_pid(), "since": 0}))
    with pytest.raises(ConfigError, match="another run writes here \\(host elsewhere, pid "):
        RunLock(run).acquire()
    (run / LOCK).write_bytes(b"\xff junk")
    with pytest.raises(ConfigError, match="is not a lock gptnt wrote; if no run writes here"):
        RunLock(run).acquire()


def test_a_run_directory_that_cannot_be_one_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("not a run")
    with pytest.raises(ConfigError, match=r"^--out .*afile: not a directory; name a directory"):
        RunLock(tmp_path / "afile").acquire()
    with pytest.raises(ConfigError, match=r"^--out .*afile/x: cannot make it \(Not a directory\)"):
        RunLock(tmp_path / "afile" / "x").acquire()
    assert (tmp_path / "afile").read_text() == "not a run"
