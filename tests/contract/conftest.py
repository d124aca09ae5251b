"""Black-box protocol tests: any backend, over real HTTP (docs/protocol.md §1–§4).

``GPTNT_GAME_URL`` points the suite at a running backend (a real game with a mod, our C# mod,
a simulator elsewhere). Unset, the whole suite runs twice, against two ``gptnt sim serve``
subprocesses on 127.0.0.1: one with honest status codes, one with ``--status-codes mod``
(exactly the shipped mod's HTTP 200 error bodies, §1.2), so every check of a refusal runs
against both answers a client meets.

Other knobs, for real games:

- ``GPTNT_GAME_LEGACY_STATUS=1``: the backend is the shipped GPTNT mod, which answers refusals
  with HTTP 200 (§1.2); error bodies are still checked, status codes are not.
- ``GPTNT_CONTRACT_DEADLINE``: seconds to wait for a lifecycle state (default 60).

Tests of our additive extensions (``/buffer?last=…&format=png``) are marked ``sim_extension``
and skip when the backend does not advertise them in ``X-Gptnt-Extensions``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest

from services.bus import free_port

from ._backend import MOD_STATUS_URLS


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sim_extension: needs an additive extension of ours (skipped when absent)"
    )


def _wait_healthy(url: str, process: subprocess.Popen[bytes], deadline: float) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if process.poll() is not None:
            err = process.stderr.read().decode(errors="replace") if process.stderr else ""
            pytest.fail(f"`gptnt sim serve` exited with {process.returncode}: {err[-2000:]}")
        try:
            if httpx.get(f"{url}/health", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    pytest.fail(f"`gptnt sim serve` did not answer /health at {url} within {deadline:g} s")


_EXTERNAL = os.environ.get("GPTNT_GAME_URL")


@pytest.fixture(scope="session", params=["external"] if _EXTERNAL else ["honest", "mod"])
def game_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """The backend under test: ``GPTNT_GAME_URL``, or a fresh ``gptnt sim serve`` per
    status-code mode (the mod-style one at 320×240, which no contract test depends on)."""
    if _EXTERNAL:
        yield _EXTERNAL.rstrip("/")
        return
    port = free_port()
    command = [sys.executable, "-c", "from gptnt.cli import main; main()"]
    command += ["sim", "serve", "--host", "127.0.0.1", "--port", str(port)]
    if request.param == "mod":
        command += ["--status-codes", "mod", "--width", "320", "--height", "240"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    if request.param == "mod":
        MOD_STATUS_URLS.add(url)
    try:
        _wait_healthy(url, process, 30.0)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@pytest.fixture(scope="session")
def http(game_url: str) -> Iterator[httpx.Client]:
    """A plain HTTP client; generous read timeout because a real game's /timestep is slow."""
    with httpx.Client(base_url=game_url, timeout=httpx.Timeout(120.0, connect=5.0)) as client:
        yield client


@pytest.fixture(scope="session")
def extensions(http: httpx.Client) -> set[str]:
    header = http.get("/health").headers.get("x-gptnt-extensions", "")
    return {part.strip() for part in header.split(",") if part.strip()}


@pytest.fixture(autouse=True)
def _skip_missing_extension(request: pytest.FixtureRequest) -> None:
    wanted = {"buffer-last", "buffer-png"}
    marked = request.node.get_closest_marker("sim_extension") is not None
    if marked and not wanted <= request.getfixturevalue("extensions"):
        pytest.skip("backend does not advertise the /buffer extensions")
