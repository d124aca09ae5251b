"""The C# mod built once per session with ``mod/build.sh`` (tests/mod/test_*.py share it)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

MOD = Path(__file__).resolve().parents[2] / "mod"
NO_MONO = shutil.which("mcs") is None or shutil.which("mono") is None
NO_MONO_REASON = (
    "Mono is not installed (apt-get install mono-mcs mono-devel); the C# mod cannot be built"
)


@pytest.fixture(scope="session")
def built() -> Path:
    """Run ``mod/build.sh`` once per session; fail with the compiler's output."""
    if NO_MONO:
        pytest.skip(NO_MONO_REASON)
    result = subprocess.run(
        ["bash", str(MOD / "build.sh")], check=False, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return MOD / "build"
