"""The self-check: the oracle solves every module kind with no strike; mistakes cost one each."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gptnt.protocol import MODULE_KINDS
from gptnt.rules.ruleset import V1
from gptnt.sim.selfcheck import check_module


@pytest.mark.parametrize("kind", MODULE_KINDS)
def test_oracle_and_engines_agree(kind: str) -> None:
    report = check_module(kind, 25, 1000, V1)
    assert report.misses == []
    assert report.bombs == report.clean == 25
    assert report.mistakes_checked > 0
    assert report.recovered > 0  # the oracle also finishes modules after a strike


def test_cli_prints_a_table_and_exits_zero() -> None:
    from gptnt.cli import app

    result = CliRunner().invoke(
        app, ["sim", "selfcheck", "--episodes", "3", "--module", "Wires", "--module", "Maze"]
    )
    assert result.exit_code == 0, result.output
    assert "Wires" in result.output and "Maze" in result.output and "Keypad" not in result.output


def test_cli_refuses_an_unknown_module() -> None:
    from gptnt.cli import app
    from gptnt.errors import ConfigError

    result = CliRunner().invoke(app, ["sim", "selfcheck", "--episodes", "1", "--module", "Piano"])
    assert result.exit_code != 0
    assert isinstance(result.exception, ConfigError)
