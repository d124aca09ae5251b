"""The lifecycle of §4: Setup → startMission → LightsOff → LightsOn → PostGame, and its gates."""

from __future__ import annotations

import httpx
import pytest

from ._backend import (
    MISSION,
    assert_refused,
    start_in_the_dark,
    start_lit,
    state,
    to_setup,
    wait_for,
)


def test_harness_startup_sequence(http: httpx.Client) -> None:
    """§4.2: start, pause in the dark, resume until LightsOn, pause; /state only then."""
    to_setup(http)
    response = http.get("/startMission", params=MISSION)
    assert (response.status_code, response.text) == (200, MISSION["seed"])
    assert http.get("/health").text in {"Transitioning", "Gameplay", "LightsOff"}
    wait_for(http, "LightsOff")
    assert http.get("/settimescale", params={"value": "0"}).text == "Set timeScale to 0"
    assert_refused(http.get("/state"), 400, "Cannot get bomb state in LightsOff state")
    assert_refused(
        http.get("/action", params={"action": "left"}),
        400,
        "Cannot send action to the game in LightsOff state",
    )
    assert http.get("/settimescale", params={"value": "1"}).text == "Set timeScale to 1"
    wait_for(http, "LightsOn")
    assert http.get("/settimescale", params={"value": "0"}).status_code == 200
    bomb = state(http)
    assert bomb["isLightOn"] is True and bomb["isDetonated"] is False


def test_startmission_only_in_setup(http: httpx.Client) -> None:
    start_lit(http)
    assert_refused(
        http.get("/startMission", params=MISSION), 400, "Cannot start a game from LightsOn state"
    )


@pytest.mark.parametrize(
    ("change", "prefix"),
    [
        ({"timeLimit": "-5"}, "Please enter a valid time limit. e.g. timeLimit=90"),
        ({"numStrikes": "0"}, "Please enter a valid number of strikes. e.g. numStrikes=3"),
        (
            {"optWidgets": "-1"},
            "Please enter a valid number of optional widgets. e.g. optWidgets=3",
        ),
        ({"needyTime": "900"}, "Please enter valid time delay for needy module activation."),
        ({"timeLimit": "soon"}, "Error:"),
    ],
)
def test_startmission_validation(http: httpx.Client, change: dict[str, str], prefix: str) -> None:
    to_setup(http)
    assert_refused(http.get("/startMission", params={**MISSION, **change}), 400, prefix)
    assert http.get("/health").text == "Setup"


def test_startmission_missing_parameter(http: httpx.Client) -> None:
    to_setup(http)
    query = {k: v for k, v in MISSION.items() if k != "numStrikes"}
    assert_refused(http.get("/startMission", params=query), 400, "Error:")


def test_state_and_actions_refused_in_setup(http: httpx.Client) -> None:
    to_setup(http)
    assert_refused(http.get("/state"), 400, "Cannot get bomb state in Setup state")
    assert_refused(
        http.get("/action", params={"action": "click", "x_pos": "0.5", "y_pos": "0.5"}),
        400,
        "Cannot send action to the game in Setup state",
    )
    assert_refused(http.get("/detonate"), 400, "Cannot detonate bomb in Setup state")
    assert_refused(http.get("/solve"), 400, "Cannot solve bomb in Setup state")


def test_reset_returns_to_setup(http: httpx.Client) -> None:
    start_lit(http)
    assert http.get("/reset").text == "Nuh uh"
    wait_for(http, "Setup")
    assert_refused(http.get("/state"), 400, "Cannot get bomb state in Setup state")


def test_detonate_ends_the_game(http: httpx.Client) -> None:
    start_lit(http)
    response = http.get("/detonate")
    assert (response.status_code, response.text) == (200, "Detonated bomb successfully")
    http.get("/settimescale", params={"value": "1"})
    wait_for(http, "PostGame")
    assert state(http)["isDetonated"] is True


def test_solve_ends_the_game(http: httpx.Client) -> None:
    start_lit(http)
    response = http.get("/solve")
    assert (response.status_code, response.text) == (200, "Solved bomb successfully")
    http.get("/settimescale", params={"value": "1"})
    wait_for(http, "PostGame")
    bomb = state(http)
    assert bomb["isSolved"] is True
    assert all(module["isSolved"] for module in bomb["modules"] if module)


def test_detonate_on_a_solved_bomb_answers_as_the_mod(http: httpx.Client) -> None:
    """The mod gates ``/detonate`` on ``LightsOn`` only and then answers success (its IL: the
    state check, the bomb's detonation, the fixed text), solved or not; a solved bomb stays
    ``LightsOn`` until the scene moves on."""
    start_lit(http)
    assert http.get("/solve").status_code == 200
    assert http.get("/health").text == "LightsOn"
    response = http.get("/detonate")
    assert (response.status_code, response.text) == (200, "Detonated bomb successfully")


def test_detonate_in_the_dark_is_refused(http: httpx.Client) -> None:
    start_in_the_dark(http)
    assert_refused(http.get("/detonate"), 400, "Cannot detonate bomb in LightsOff state")


def test_random_solves_modules(http: httpx.Client) -> None:
    start_lit(http)
    response = http.get("/random", params={"value": "1"})
    assert response.status_code == 200 and response.text.startswith(" ")
    solved = [m for m in state(http)["modules"] if m and m["isSolved"]]
    assert len(solved) == 1


def test_fast_forward_extension_reaches_each_startup_state_at_once(
    http: httpx.Client, extensions: set[str]
) -> None:
    """Our ``/fastforward?until=`` (docs/protocol.md §4.3), where advertised: the startup's waits
    for Setup, LightsOff and LightsOn answered at once, paused at LightsOn with the whole time
    limit and the one frame captured there."""
    if "fast-forward" not in extensions:
        pytest.skip("backend does not advertise the fast-forward extension")
    to_setup(http)
    assert_refused(
        http.get("/fastforward", params={"until": "LightsOn"}),
        400,
        "Cannot fast-forward to LightsOn from Setup state",
    )
    assert http.get("/startMission", params=MISSION).status_code == 200
    assert http.get("/fastforward", params={"until": "LightsOff"}).text == (
        "Fast-forwarded to LightsOff"
    )
    assert http.get("/health").text == "LightsOff"
    assert http.get("/settimescale", params={"value": "0"}).status_code == 200
    assert http.get("/fastforward", params={"until": "LightsOn"}).text == (
        "Fast-forwarded to LightsOn"
    )
    assert http.get("/health").text == "LightsOn"
    bomb = state(http)
    assert bomb["timerModule"]["secondsRemaining"] == float(MISSION["timeLimit"])
    assert http.get("/buffer").content[1:5] == (1).to_bytes(4, "little")  # one frame so far
    assert state(http) == bomb  # paused
    assert_refused(http.get("/fastforward", params={"until": "PostGame"}), 400, "Error:")
    assert_refused(http.get("/fastforward"), 400, "Error:")
    assert http.get("/reset").text == "Nuh uh"
    assert http.get("/fastforward", params={"until": "Setup"}).text == "Fast-forwarded to Setup"
    assert http.get("/health").text == "Setup"
