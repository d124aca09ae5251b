"""Model players for integration tests: the loopback provider stand-ins of
``scripts/model_standin.py`` (slow, faulty, valid answers) and ``scripts/hostile_standin.py``
(one hostile behaviour per path), and player YAMLs pointing at them."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import AsyncIterator, Iterator
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
    return _write_player(path, "openai:standin", f"{standin.url}/{seat}/v1", extra)


@contextlib.contextmanager
def standin_in_thread(standin: Standin) -> Iterator[Standin]:
    """The stand-in served from a thread of its own, for tests that drive ``gptnt`` as a
    child process and so have no event loop to serve it from."""
    ready = threading.Event()
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()

    async def serve() -> None:
        async for _ in standin.serve():
            ready.set()
            await stop.wait()

    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    if not ready.wait(30):
        raise RuntimeError("the model stand-in did not start within 30 s")
    try:
        yield standin
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(30)
        loop.close()


def hostile_yaml(path: Path, hostile: Hostile, behaviour: str, **extra: object) -> Path:
    """A player config pointing at one behaviour of the hostile stand-in."""
    return _write_player(path, "openai:hostile", f"{hostile.url}/{behaviour}/v1", extra)


def _write_player(path: Path, model: str, base_url: str, extra: dict[str, object]) -> Path:
    fields: dict[str, object] = {
        "model": model,
        "base_url": base_url,
        "api_key_env": STANDIN_KEY_ENV,
        "image_size": "[320, 240]",
        "transport_retries": 0,
        **extra,  # a test's field replaces the default of the same name
    }
    path.write_text("".join(f"{k}: {v}\n" for k, v in fields.items()))
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
    "standin_in_thread",
    "start_standin",
]
