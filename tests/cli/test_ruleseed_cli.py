"""``gptnt ruleseed`` and ``--rule-seed`` through the real console script: pools import, the
one-line refusals without pools, and a self-check under a non-vanilla seed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

GPTNT = Path(sys.executable).parent / "gptnt"
POOLS = (
    Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "ruleseed" / "pools.json"
)


@pytest.fixture
def gptnt(tmp_path: Path):
    """Run the console script with no pools in force (an empty user data directory)."""
    if not GPTNT.exists():
        pytest.skip(f"console script {GPTNT} not installed")
    env = {k: v for k, v in os.environ.items() if k != "GPTNT_RULESEED_POOLS"}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(GPTNT), *args], capture_output=True, text=True, timeout=120, check=False,
            env=env, cwd=tmp_path,
        )  # fmt: skip

    return run


def _one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_without_pools_morse_and_password_are_refused_up_front(gptnt) -> None:
    line = _one_line_error(gptnt("sim", "selfcheck", "--rule-seed", "1764", "-m", "Morse"))
    assert "rule_seed=1764: Morse needs the rule-seed word pools" in line
    line = _one_line_error(gptnt("run", "--mission", "Password-234", "--rule-seed", "42"))
    assert "Password needs the rule-seed word pools" in line
    line = _one_line_error(gptnt("manual", "build", "--rule-seed", "1764", "--out", "m"))
    assert "need the rule-seed word pools" in line and "gptnt ruleseed pools import" in line


def test_nine_modules_play_under_a_seed_without_pools(gptnt) -> None:
    result = gptnt("sim", "selfcheck", "--rule-seed", "1764", "--episodes", "20", "-m", "Wires",
                   "-m", "BigButton")  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.fixtures
def test_imported_pools_serve_every_later_command(gptnt) -> None:
    if not POOLS.is_file():
        pytest.skip(f"{POOLS} absent (needs ../shared/fixtures)")
    imported = gptnt("ruleseed", "pools", "import", str(POOLS))
    assert imported.returncode == 0 and "pools checked and stored" in imported.stdout
    shown = gptnt("ruleseed", "show", "--rule-seed", "1764")
    assert shown.returncode == 0 and "tables missing (no word pools): none" in shown.stdout
