"""The C# mod built once per run with ``mod/build.sh`` (tests/mod/test_*.py share it).

Under pytest-xdist each worker is a session of its own, and all of them use ``mod/build/``: the
first to need the mod builds it under a lock in the run's shared temporary folder, the others
wait for that build and reuse it (a second build would rewrite an assembly Mono is running)."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

MOD = Path(__file__).resolve().parents[2] / "mod"
NO_MONO = shutil.which("mcs") is None or shutil.which("mono") is None
NO_MONO_REASON = (
    "Mono is not installed (apt-get install mono-mcs mono-devel); the C# mod cannot be built"
)


def _build() -> None:
    result = subprocess.run(
        ["bash", str(MOD / "build.sh")], check=False, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run ``mod/build.sh`` once per run; fail with the compiler's output."""
    if NO_MONO:
        pytest.skip(NO_MONO_REASON)
    if "PYTEST_XDIST_WORKER" not in os.environ:
        _build()
        return MOD / "build"
    shared = tmp_path_factory.getbasetemp().parent  # this run's folder, above every worker's
    with (shared / "mod-build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        done = shared / "mod-built"
        if not done.exists():
            _build()
            done.touch()
    return MOD / "build"
