"""Model players for integration tests: the loopback provider stand-ins of
``scripts/model_standin.py`` (slow, faulty, valid answers) and ``scripts/hostile_standin.py``
(one hostile behaviour per path), and player YAMLs pointing at them."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from hostile_standin import BEHAVIOURS, Hostile
from model_standin import Latency, Standin

STANDIN_KEY_ENV = "GPTNT_STANDIN_KEY"
STANDIN_KEY = "sk-standin-0123456789abcdef"  # a fake key: the records must never show it


async def start_standin(standin: Standin) -> AsyncIterator[Standin]:
    async for running in standin.serve():
        yield running


def player_yaml(path: Path, standin: Standin, seat: str, **extra: object) -> Path:
    """A player config pointing at the stand-in's ``seat`` endpoint."""
    lines = [
        "model: openai:standin",
        f"base_url: {standin.url}/{seat}/v1",
        f"api_key_env: {STANDIN_KEY_ENV}",
        "image_size: [320, 240]",
        "transport_retries: 0",
        *(f"{k}: {v}" for k, v in extra.items()),
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def hostile_yaml(path: Path, hostile: Hostile, behaviour: str, **extra: object) -> Path:
    """A player config pointing at one behaviour of the hostile stand-in."""
    lines = [
        "model: openai:hostile",
        f"base_url: {hostile.url}/{behaviour}/v1",
        f"api_key_env: {STANDIN_KEY_ENV}",
        "image_size: [320, 240]",
        "transport_retries: 0",
        *(f"{k}: {v}" for k, v in extra.items()),
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


__all__ = [
    "BEHAVIOURS",
    "STANDIN_KEY",
    "STANDIN_KEY_ENV",
    "Hostile",
    "Latency",
    "Standin",
    "hostile_yaml",
    "player_yaml",
    "start_standin",
]
