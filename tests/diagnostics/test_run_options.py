"""`diag run` refuses an option that does not apply to the dataset's task (review of issue 29):
`--no-manual` on a task that never shows the manual would write a "--no-manual" results folder
for an ablation that changed nothing; `--paradigm` means something for localisation only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gptnt.cli import app
from gptnt.diagnostics import build_datasets
from gptnt.rules.ruleset import ruleset

GPTNT = str(Path(sys.executable).with_name("gptnt"))


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("diag-small")
    paths = build_datasets(("manual_vqa", "contamination"), out, ruleset(1), seed=3, n=4, cap=1)
    return {p.name.split("-")[0]: p for p in paths}


@pytest.mark.parametrize(
    ("task", "flags", "named"),
    [("contamination", ["--no-manual"], "--no-manual"),
     ("manual_vqa", ["--paradigm", "coordinates"], "--paradigm")],
)  # fmt: skip
def test_an_option_of_another_task_is_refused_before_anything_is_written(
    small: dict[str, Path], task: str, flags: list[str], named: str
) -> None:
    dataset = small[task]
    ran = subprocess.run([GPTNT, "diag", "run", str(dataset), "--player", "truth", *flags],
                         check=False, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert ran.returncode == 2, ran.stderr
    line = ran.stderr.strip()
    assert "\n" not in line and named in line and task in line
    assert not (dataset.parent / "results").exists()


def test_the_manual_ablation_still_runs_on_manual_vqa(small: dict[str, Path]) -> None:
    result = CliRunner().invoke(
        app, ["diag", "run", str(small["manual_vqa"]), "--player", "truth", "--no-manual"]
    )
    assert result.exit_code == 0, result.output
