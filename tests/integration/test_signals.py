"""Exit codes and signals through the real ``gptnt`` command: SIGINT/SIGTERM end the episode
in flight as ``interrupted`` (summary, ledger line, one line, exit 130) and stop everything
the run started; a Redis that dies mid-run ends it as ``crashed: redis …`` (exit 3)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from child_server import GPTNT

from gptnt.records import Ledger, read_summary
from gptnt.services.bus import EmbeddedRedis


def _start(*args: str, redis_url: str | None = None) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "GPTNT_REDIS_URL"}
    if redis_url:
        env["GPTNT_REDIS_URL"] = redis_url
    return subprocess.Popen(
        [*GPTNT, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        start_new_session=True,
    )  # fmt: skip


def _after_first_turn(proc: subprocess.Popen[str]) -> list[str]:
    """Read stdout until the first turn line (``#0``); the lines read."""
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "#0" in line:
            return lines
    pytest.fail(f"no turn within 120 s: {''.join(lines)}")


def _children(pid: int) -> list[int]:
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
        except OSError:
            continue
        if f"\nPPid:\t{pid}\n" in text:
            found.append(int(status.parent.name))
    return found


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_records_the_episode_as_interrupted(sig: signal.Signals, tmp_path: Path) -> None:
    proc = _start("run", "--mission", "3", "--mode", "async", "--out", str(tmp_path))
    _after_first_turn(proc)
    children = _children(proc.pid)
    assert children  # the embedded Redis and the three services
    proc.send_signal(sig)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip().count("\n") == 0 and err.startswith("interrupted:"), err
    assert sig.name in err
    (run_dir,) = tmp_path.iterdir()
    (entry,) = Ledger(run_dir).entries()
    assert entry.status == "interrupted" and entry.outcome == "interrupted"
    summary = read_summary(run_dir / entry.episode_dir)
    assert summary is not None and summary.outcome == "interrupted"
    assert not [pid for pid in children if Path(f"/proc/{pid}").exists()]


def test_redis_dying_mid_run_crashes_the_episode_with_a_summary(tmp_path: Path) -> None:
    redis = EmbeddedRedis()
    redis.start()
    try:
        proc = _start("run", "--mission", "3", "--mode", "async", "--out", str(tmp_path),
                      redis_url=redis.url)  # fmt: skip
        _after_first_turn(proc)
        assert redis._proc is not None
        redis._proc.kill()
        _out, err = proc.communicate(timeout=90)
    finally:
        redis.stop()
    assert proc.returncode == 3, err
    assert err.strip().count("\n") == 0 and err.startswith("crashed: redis"), err
    (run_dir,) = tmp_path.iterdir()
    (entry,) = Ledger(run_dir).entries()
    assert entry.status == "crashed" and entry.reason.startswith("redis")
    summary = json.loads((run_dir / entry.episode_dir / "summary.json").read_text())
    assert summary["outcome"] == "crashed"
