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
from collections.abc import Iterator

import httpx
import pytest
from child_server import GPTNT, child_server

from gptnt.services.bus import free_port

from ._backend import MOD_STATUS_URLS


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sim_extension: needs an additive extension of ours (skipped when absent)"
    )


_EXTERNAL = os.environ.get("GPTNT_GAME_URL")


@pytest.fixture(scope="session", params=["external"] if _EXTERNAL else ["honest", "mod"])
def game_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """The backend under test: ``GPTNT_GAME_URL``, or a fresh ``gptnt sim serve`` per
    status-code mode (the mod-style one at 320×240, which no contract test depends on)."""
    if _EXTERNAL:
        yield _EXTERNAL.rstrip("/")
        return
    port = free_port()
    command = [*GPTNT, "sim", "serve", "--host", "127.0.0.1", "--port", str(port)]
    if request.param == "mod":
        command += ["--status-codes", "mod", "--width", "320", "--height", "240"]
    url = f"http://127.0.0.1:{port}"
    if request.param == "mod":
        MOD_STATUS_URLS.add(url)
    with child_server(command, url):
        yield url


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
