"""Small datasets built once per session (the loopback stand-in ``server`` is the whole suite's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gptnt.diagnostics import build_datasets
from gptnt.rules.ruleset import ruleset

N = 120  # questions per task, in the paper's proportions
FRAMES = 6  # frames per module kind


@pytest.fixture(scope="session")
def datasets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("diag")
    paths = build_datasets(
        ("manual_vqa", "sim_vqa", "localisation", "contamination"),
        out,
        ruleset(1),
        seed=7,
        n=N,
        cap=FRAMES,
    )
    return {p.name.split("-")[0]: p for p in paths}
