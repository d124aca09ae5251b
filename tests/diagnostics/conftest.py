"""Small datasets built once per session, and the loopback OpenAI-compatible stand-in."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "players"))
from fake_openai import FakeServer, serve

from gptnt.diagnostics import build_datasets
from gptnt.players.backends import OFFLINE_ENV
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


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(OFFLINE_ENV, "1")


@pytest.fixture
async def server() -> AsyncIterator[FakeServer]:
    async for fake in serve():
        yield fake
