"""Helpers shared by the contract tests: lifecycle waits and refusal checks, HTTP only."""

from __future__ import annotations

import os

import httpx
import pytest

from gptnt.protocol import Lifecycle
from gptnt.protocol.client import LifecycleWait

DEADLINE = float(os.environ.get("GPTNT_CONTRACT_DEADLINE", "60"))
LEGACY_STATUS = os.environ.get("GPTNT_GAME_LEGACY_STATUS") == "1"
MOD_STATUS_URLS: set[str] = set()
"""Base URLs of simulators started with ``--status-codes mod`` (answering as the shipped mod)."""
TOKENS = {"Gameplay", "Setup", "LightsOn", "LightsOff", "Transitioning", "PostGame"}

# The mission every test plays unless it says otherwise: two quick modules, all on the front.
MISSION: dict[str, str] = {
    "seed": "42",
    "timeLimit": "300",
    "numStrikes": "3",
    "needyTime": "60",
    "isFront": "true",
    "optWidgets": "3",
    "components": "Wires,Keypad",
    "timeScale": "1",
    "timeStepSize": "3000",
}


# Refusals the shipped mod answers with HTTP 200 (docs/protocol.md §1.2); its other refusals
# (wrong state, bad coordinates, bad time scale) already carry 400.
_LEGACY_200 = ("Unknown route.", "Error:", "Please enter", "invalid direction")


def assert_refused(response: httpx.Response, status: int, prefix: str) -> None:
    """An error answer: ``status`` and a body starting with ``prefix``.

    On a legacy backend (``GPTNT_GAME_LEGACY_STATUS=1``, or our simulator with
    ``--status-codes mod``) the refusals the shipped mod sends with 200 must come with 200.
    """
    assert response.text.startswith(prefix), (response.status_code, response.text)
    legacy = LEGACY_STATUS or str(response.request.url).startswith(tuple(MOD_STATUS_URLS))
    expected = 200 if legacy and prefix.startswith(_LEGACY_200) else status
    assert response.status_code == expected, (response.status_code, response.text)


def wait_for(http: httpx.Client, *states: str, deadline: float = DEADLINE) -> str:
    """Poll ``/health`` until it is one of ``states``; ``GameTimeoutError`` after ``deadline``."""
    waiting = LifecycleWait(*map(Lifecycle, states), timeout_s=deadline)
    return waiting.until(lambda: http.get("/health").text).value


def to_setup(http: httpx.Client) -> None:
    """End whatever runs and wait for the setup room."""
    if http.get("/health").text != "Setup":
        assert http.get("/reset").text == "Nuh uh"
    wait_for(http, "Setup")


def start_in_the_dark(http: httpx.Client, **changes: str) -> dict[str, str]:
    """§4.2 steps 1–3: Setup → /startMission → LightsOff, paused. Returns the mission query."""
    to_setup(http)
    query = {**MISSION, **changes}
    response = http.get("/startMission", params=query)
    assert (response.status_code, response.text) == (200, query["seed"])
    wait_for(http, "LightsOff")
    assert http.get("/settimescale", params={"value": "0"}).status_code == 200
    return query


def start_lit(http: httpx.Client, **changes: str) -> dict[str, str]:
    """A mission at ``LightsOn``, paused, reached by ``/timestep`` (sync mode)."""
    query = start_in_the_dark(http, **changes)
    for _ in range(5):
        assert http.get("/timestep").status_code == 200
        if http.get("/health").text == "LightsOn":
            return query
    pytest.fail("five /timestep calls after LightsOff did not reach LightsOn")


def state(http: httpx.Client) -> dict:
    response = http.get("/state")
    assert response.status_code == 200, response.text
    return response.json()
