"""``gptnt missions list|show``: output through CliRunner, exit codes through the real script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gptnt.cli import app

GPTNT = Path(sys.executable).parent / "gptnt"
runner = CliRunner()


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    if not GPTNT.exists():
        pytest.skip(f"console script {GPTNT} not installed")
    return subprocess.run(
        [str(GPTNT), *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_list_json_has_120_missions() -> None:
    result = runner.invoke(app, ["missions", "list", "--json"])
    assert result.exit_code == 0, result.output
    missions = json.loads(result.stdout)
    assert len(missions) == 120
    third = missions[2]
    assert third["id"] == "3" and third["config"]["timeLimit"] == 300
    assert third["modules"] == ["Wires", "Keypad", "Simon Says", "Who's on First"]


def test_list_by_kind_table() -> None:
    result = runner.invoke(app, ["missions", "list", "--kind", "multi"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "10 missions" in result.stdout and "Wires-234" not in result.stdout
    result = runner.invoke(app, ["missions", "list", "--kind", "single", "--json"])
    assert len(json.loads(result.stdout)) == 110


def test_show_mission_3() -> None:
    result = runner.invoke(app, ["missions", "show", "3"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Wires, Keypad, Simon Says, Who's on First" in out
    assert "300 s" in out and "851" in out and "front and back faces" in out
    assert "strikes           3" in out and "optional widgets  5" in out


def test_show_single_json() -> None:
    result = runner.invoke(app, ["missions", "show", "Password-563", "--json"])
    shown = json.loads(result.stdout)
    assert shown["config"]["timeLimit"] == 231 and shown["config"]["isFront"] is True
    assert shown["config"]["optWidgets"] == 5 and shown["modules"] == ["Passwords"]


def test_bad_id_is_one_line_and_exit_2() -> None:
    result = _run("missions", "show", "Wyres-234")
    assert result.returncode == 2  # ExitCode.BAD_INPUT
    assert result.stdout == ""
    assert result.stderr.strip().count("\n") == 0
    assert "unknown mission 'Wyres-234'; did you mean Wires-234" in result.stderr


def test_bad_kind_is_one_line_and_exit_2() -> None:
    result = _run("missions", "list", "--kind", "triple")
    assert result.returncode == 2  # ExitCode.BAD_INPUT
    assert result.stderr.strip() == "error: --kind 'triple': use multi or single"


def test_show_3_through_the_script() -> None:
    result = _run("missions", "show", "3")
    assert result.returncode == 0 and "Who's on First" in result.stdout
