"""``gptnt baseline random --fresh-bombs``: bounded up front (bombs x module types x repeats
episodes are planned before the first plays, so a huge count would hang in planning)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gptnt.cli import app


@pytest.mark.parametrize("count", ["100000000", "10001", "-1"])
def test_fresh_bombs_out_of_range_exits_2_before_planning(count: str) -> None:
    result = CliRunner().invoke(app, ["baseline", "random", "--fresh-bombs", count])
    assert result.exit_code == 2, result.output
    assert "--fresh-bombs" in result.output
