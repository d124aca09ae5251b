"""``scripts/mod_checklist.py``, the one-time check of the mod in the real game, run against the
backends we have: the simulator (whose bombs are the manual's, so every check passes) and our C#
mod's host over the fake game (every structural check passes; its random module contents are
not the manual's, which the oracle checks report)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from child_server import GPTNT, child_server

from gptnt.services.bus import free_port

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "mod_checklist.py"
ORACLE_CHECK = "state is one the manual solves"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        check=False, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


@pytest.fixture
def simulator() -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with child_server([*GPTNT, "sim", "serve", "--host", "127.0.0.1", "--port", str(port)], url):
        yield url


@pytest.mark.slow
def test_every_check_passes_on_the_simulator(simulator: str) -> None:
    result = run("--game", simulator)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert not [line for line in lines if line.startswith("FAIL")]
    assert lines[-1] == "25 of 25 checks passed"
    assert any(line.startswith("ok   mask facing back") for line in lines)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("mono") is None, reason="Mono is not installed")
def test_the_mod_host_passes_every_structural_check(built: Path) -> None:
    port = free_port()
    env = {**os.environ, "port": str(port), "GAME_WIDTH": "320", "GAME_HEIGHT": "240"}
    url = f"http://127.0.0.1:{port}"
    with child_server(["mono", str(built / "gptnt-mod-host.exe")], url, env=env):
        result = run("--game", url)
    assert result.returncode in (0, 1), result.stdout + result.stderr
    failed = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    assert all(ORACLE_CHECK in line for line in failed), failed
    assert "ok   right turns the bomb to right" in result.stdout


def test_bad_input_and_an_absent_game_exit_2() -> None:
    bad = run("--seed", "seven")
    assert bad.returncode == 2 and "--seed must be digits" in bad.stderr
    absent = run("--game", f"http://127.0.0.1:{free_port()}", "--deadline", "1")
    assert absent.returncode == 2 and "does not answer /health" in absent.stderr
