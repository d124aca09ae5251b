"""Which harness wrote a record: the package version and, in a git checkout, the commit."""

from __future__ import annotations

import subprocess
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from gptnt.records._schema import Harness

_GIT_S = 5.0  # wall seconds either git call may take


@cache
def harness() -> Harness:
    """The running harness (computed once per process)."""
    try:
        package = version("gptnt")
    except PackageNotFoundError:
        package = "unknown"
    root = Path(__file__).resolve().parents[2]
    commit = _git(root, "rev-parse", "HEAD")
    dirty = bool(_git(root, "status", "--porcelain", "--untracked-files=no")) if commit else False
    return Harness(version=package, commit=commit or None, dirty=dirty)


def _git(root: Path, *args: str) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args],
            capture_output=True,
            text=True,
            timeout=_GIT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""
