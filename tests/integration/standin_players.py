"""Model players for integration tests: the loopback provider stand-ins of
``scripts/model_standin.py`` (slow, faulty, valid answers) and ``scripts/hostile_standin.py``
(one hostile behaviour per path), and player YAMLs pointing at them."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import pytest
from hostile_standin import BEHAVIOURS, Hostile
from model_standin import Latency, Standin

from gptnt.records import FleetView, read_fleet

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


@contextlib.contextmanager
def waiting_player(folder: Path, latency: Latency) -> Iterator[tuple[Path, dict[str, str]]]:
    """A model player that always waits, answering after ``latency``, and the environment a
    ``gptnt`` child needs to reach it: its episodes last long enough to be watched in flight."""
    with standin_in_thread(Standin(latency)) as standin:
        yield player_yaml(folder / "waits.yaml", standin, "idle"), {STANDIN_KEY_ENV: STANDIN_KEY}


def wait_in_flight(
    suite: subprocess.Popen[str], run_dir: Path, *, within_s: float = 240
) -> FleetView:
    """The run's fleet view once an episode is in flight; a failure naming the suite's stderr
    when none is within ``within_s`` (or the suite ends first)."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline and suite.poll() is None:
        fleet = read_fleet(run_dir)
        if fleet is not None and fleet.in_flight:
            return fleet
        time.sleep(0.2)
    suite.kill()
    pytest.fail(f"no episode seen in flight: {suite.communicate()[1][-2000:]}")


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
    "wait_in_flight",
    "waiting_player",
]
