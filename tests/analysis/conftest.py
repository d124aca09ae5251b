"""The committed small run (``tests/data/report-run``) and its report, built once per session
into a temporary folder (the test data itself is never written to)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gptnt.cli import app

RUN = Path(__file__).resolve().parents[1] / "data" / "report-run"


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("runs") / RUN.name
    shutil.copytree(RUN, copy)
    return copy


@pytest.fixture(scope="session")
def report_dir(run_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    result = CliRunner().invoke(app, ["report", str(run_dir), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out
