"""The protocol server's routing, parsing and error handling (``gptnt.sim.server``).

Most tests drive the server over a small scripted test double of the game, so they pin what
the *server* does (paths, methods, parameters, status codes, bodies, headers) independently of
the simulator; the last ones run it over the real ``Game`` in-process.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import httpx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gptnt.errors import SimulatorError
from gptnt.protocol import BombState, Lifecycle, MissionConfig, decode_buffer, decode_png_buffer
from gptnt.protocol.client import LifecycleWait
from gptnt.sim.game import Game
from gptnt.sim.server import (
    BRIEF_ROUTES,
    CORS_HEADERS,
    EXTENSIONS_HEADER,
    ROUTES,
    IndentedJson,
    create_app,
)

MISSION = {
    "seed": "7",
    "timeLimit": "120",
    "numStrikes": "3",
    "needyTime": "60",
    "isFront": "true",
    "optWidgets": "2",
    "components": "Wires,Keypad",
    "timeScale": "1",
    "timeStepSize": "3000",
}

STATE = {
    "seed": 7,
    "maxStrikes": 3,
    "timerModule": {"secondsRemaining": 100.0, "onFront": True, "index": 0},
    "modules": [
        {
            "name": "Wires",
            "onFront": True,
            "index": 1,
            "wires": [{"position": 0, "color": "red"}, {"position": 1, "color": "blue"}],
        }
    ],
}


@dataclass
class _Frames:
    frames: list[np.ndarray]
    mask: np.ndarray | None


@dataclass
class ScriptedGame:
    """Test double: answers like the game and records every call (one argument tuple each)."""

    calls: list[tuple[str, tuple[object, ...]]] = field(default_factory=list)
    refuse: SimulatorError | None = None
    crash: bool = False
    busy: threading.Event = field(default_factory=threading.Event)
    overlaps: int = 0

    size: tuple[int, int] = (8, 6)

    def _call(self, name: str, *args: object) -> None:
        if self.busy.is_set():
            self.overlaps += 1
        self.busy.set()
        time.sleep(0.002)
        self.busy.clear()
        self.calls.append((name, args))
        if self.crash:
            raise RuntimeError("boom")
        if self.refuse is not None:
            raise self.refuse

    def health(self) -> str:
        self._call("health")
        return "Setup"

    def start_mission(self, config: MissionConfig) -> str:
        self._call("start_mission", config)
        return str(config.seed)

    def set_time_scale(self, value: float) -> str:
        self._call("set_time_scale", value)
        return f"Set timeScale to {value:g}"

    def set_step_unit(self, ms: int) -> str:
        self._call("set_step_unit", ms)
        return f"Set timeStepSize to {ms}"

    def timestep(self) -> str:
        self._call("timestep")
        return "Paused after 3000 in-game milliseconds (and modules emerged)"

    def action(self, action: str, x_pos: float | None, y_pos: float | None) -> str:
        self._call("action", action, x_pos, y_pos)
        return "flipped bomb left by 90 degrees"

    def state(self) -> BombState:
        self._call("state")
        return BombState.model_validate(STATE)

    def buffer(self, last: int | None = None) -> _Frames:
        self._call("buffer", last)
        frames = [np.full((6, 8, 3), i * 10, np.uint8) for i in range(4)]
        frames[0][0, 0] = (255, 0, 0)  # top-left pixel marks the orientation
        mask = np.zeros((6, 8, 3), np.uint8)
        mask[1:3, 2:5] = (0, 255, 0)
        return _Frames(frames if last is None else frames[-last:] if last else [], mask)

    def reset(self) -> str:
        self._call("reset")
        return "Nuh uh"

    def detonate(self) -> str:
        self._call("detonate")
        return "Detonated bomb successfully"

    def solve(self) -> str:
        self._call("solve")
        return "Solved bomb successfully"

    def random_solve(self, n: int) -> str:
        self._call("random_solve", n)
        return " Wires"

    def modules(self) -> list[dict]:
        self._call("modules")
        return [{"id": "Wires", "displayName": "Wires", "isMod": False}]

    def debug(self) -> str:
        self._call("debug")
        return "Current face is Front"


@pytest.fixture
def game() -> ScriptedGame:
    return ScriptedGame()


@pytest.fixture
async def client(game: ScriptedGame) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(create_app(game))  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as http:
        yield http


# ------------------------------------------------------------------ routing


async def test_unknown_route_is_404_with_the_mods_body_and_cors(client: httpx.AsyncClient) -> None:
    response = await client.get("/observation")
    assert response.status_code == 404
    assert response.text == "Unknown route."
    for name, value in CORS_HEADERS.items():
        assert response.headers[name] == value


async def test_root_is_an_unknown_route(client: httpx.AsyncClient) -> None:
    response = await client.get("/")
    assert (response.status_code, response.text) == (404, "Unknown route.")


@pytest.mark.parametrize("path", ["/startMission", "/STARTMISSION", "/startmission/"])
async def test_path_is_case_insensitive(
    client: httpx.AsyncClient, game: ScriptedGame, path: str
) -> None:
    response = await client.get(path, params=MISSION)
    assert (response.status_code, response.text) == (200, "7")
    name, (config,) = game.calls[-1]
    assert name == "start_mission"
    assert isinstance(config, MissionConfig)
    assert config.components == ["Wires", "Keypad"] and config.is_front is True


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "DELETE", "PATCH", "BREW"])
async def test_any_method_runs_the_route(client: httpx.AsyncClient, method: str) -> None:
    response = await client.request(method, "/health")
    assert (response.status_code, response.text) == (200, "Setup")


async def test_options_preflight_is_empty_and_never_reaches_the_game(
    client: httpx.AsyncClient, game: ScriptedGame
) -> None:
    response = await client.options("/detonate")
    assert response.status_code == 200 and response.content == b""
    assert response.headers["Access-Control-Allow-Methods"] == "GET, POST, OPTIONS"
    assert game.calls == []


async def test_extensions_are_advertised(client: httpx.AsyncClient) -> None:
    response = await client.get("/health")
    assert "buffer-png" in response.headers[EXTENSIONS_HEADER]


@pytest.mark.parametrize(
    ("path", "call", "body"),
    [
        ("/timestep", ("timestep", ()), "Paused after 3000 in-game milliseconds"),
        ("/reset", ("reset", ()), "Nuh uh"),
        ("/detonate", ("detonate", ()), "Detonated bomb successfully"),
        ("/solve", ("solve", ()), "Solved bomb successfully"),
        ("/debug", ("debug", ()), "Current face is Front"),
        ("/random?value=2", ("random_solve", (2,)), " Wires"),
        ("/setstepunit?value=1500", ("set_step_unit", (1500,)), "Set timeStepSize to 1500"),
        ("/settimescale?value=0.5", ("set_time_scale", (0.5,)), "Set timeScale to 0.5"),
    ],
)
async def test_text_routes_pass_parameters_and_bodies(
    client: httpx.AsyncClient,
    game: ScriptedGame,
    path: str,
    call: tuple[str, tuple[object, ...]],
    body: str,
) -> None:
    response = await client.get(path)
    assert response.status_code == 200
    assert response.text.startswith(body)
    assert response.headers["content-type"].startswith("text/plain")
    assert game.calls == [call]


# ------------------------------------------------------------------ parameters and errors


@pytest.mark.parametrize("query", ["", "?value=abc", "?value=nan", "?value="])
async def test_settimescale_junk_is_could_not_parse(client: httpx.AsyncClient, query: str) -> None:
    response = await client.get("/settimescale" + query)
    assert (response.status_code, response.text) == (400, "Could not parse request")


@pytest.mark.parametrize("path", ["/setstepunit", "/setstepunit?value=3.5", "/random"])
async def test_missing_or_bad_integer_is_error_400(client: httpx.AsyncClient, path: str) -> None:
    response = await client.get(path)
    assert response.status_code == 400
    assert response.text.startswith("Error: ") and "value" in response.text


@pytest.mark.parametrize("query", ["&x_pos=abc&y_pos=0.5", "&x_pos=0.5&y_pos=", "&x_pos=inf"])
async def test_action_with_unparsable_coordinates_is_400(
    client: httpx.AsyncClient, game: ScriptedGame, query: str
) -> None:
    response = await client.get("/action?action=click" + query)
    assert response.status_code == 400
    assert response.text.startswith("Could not parse x and y coordinates")
    assert game.calls == []


async def test_action_passes_numbers_and_absent_coordinates(
    client: httpx.AsyncClient, game: ScriptedGame
) -> None:
    await client.get("/action", params={"action": "click", "x_pos": "0.25", "y_pos": "1"})
    await client.get("/action", params={"action": "left"})
    assert game.calls == [("action", ("click", 0.25, 1.0)), ("action", ("left", None, None))]


async def test_action_without_action_is_error_400(client: httpx.AsyncClient) -> None:
    response = await client.get("/action")
    assert response.status_code == 400 and response.text.startswith("Error: ")


@pytest.mark.parametrize(
    ("change", "prefix"),
    [
        ({"timeLimit": "0"}, "Please enter a valid time limit. e.g. timeLimit=90"),
        ({"numStrikes": "0"}, "Please enter a valid number of strikes. e.g. numStrikes=3"),
        ({"optWidgets": "-1"}, "Please enter a valid number of optional widgets."),
        ({"needyTime": "500"}, "Please enter valid time delay for needy module activation."),
        ({"components": "Wires,Bogus"}, "Please enter a valid list of components"),
        ({"components": ""}, "Please enter a valid list of components"),
        ({"seed": "-4"}, "Please enter valid seed. e.g. seed=123"),
        ({"timeLimit": "ninety"}, "Error: "),
        ({"isFront": "maybe"}, "Error: "),
        ({"seed": None}, "Error: "),
    ],
)
async def test_startmission_refusals_are_400_with_the_mods_sentences(
    client: httpx.AsyncClient, game: ScriptedGame, change: dict[str, str | None], prefix: str
) -> None:
    query = {k: v for k, v in {**MISSION, **change}.items() if v is not None}
    response = await client.get("/startmission", params=query)
    assert response.status_code == 400
    assert response.text.startswith(prefix), response.text
    assert game.calls == []


@pytest.mark.parametrize("status", [400, 408, 409])
async def test_simulator_errors_keep_status_and_body(
    client: httpx.AsyncClient, game: ScriptedGame, status: int
) -> None:
    game.refuse = SimulatorError("Cannot detonate bomb in Setup state", status=status)
    response = await client.get("/detonate")
    assert (response.status_code, response.text) == (status, "Cannot detonate bomb in Setup state")


async def test_a_crash_is_a_500_with_a_body_and_the_server_survives(
    client: httpx.AsyncClient, game: ScriptedGame
) -> None:
    game.crash = True
    response = await client.get("/timestep")
    assert response.status_code == 500
    assert response.text == "Error: RuntimeError: boom"
    game.crash = False
    assert (await client.get("/health")).text == "Setup"


async def test_concurrent_requests_reach_the_game_one_at_a_time(
    client: httpx.AsyncClient, game: ScriptedGame
) -> None:
    responses = await asyncio.gather(*(client.get("/health") for _ in range(12)))
    assert all(r.status_code == 200 for r in responses)
    assert len(game.calls) == 12 and game.overlaps == 0


async def test_brief_routes_in_the_loop_and_others_in_a_thread_still_take_turns(
    client: httpx.AsyncClient, game: ScriptedGame
) -> None:
    assert BRIEF_ROUTES.issubset(ROUTES)  # each names a route
    paths = ["/health", "/detonate", "/timestep", "/solve"] * 4
    responses = await asyncio.gather(*(client.get(path) for path in paths))
    assert all(r.status_code == 200 for r in responses)
    assert len(game.calls) == len(paths) and game.overlaps == 0


@dataclass
class _HeldBuffer(ScriptedGame):
    """A game whose ``/buffer`` holds it (as a long render does) until ``release``."""

    entered: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)

    def buffer(self, last: int | None = None) -> _Frames:
        self.entered.set()
        self.release.wait(30)
        return super().buffer(last)


async def test_a_brief_route_waiting_for_a_busy_game_leaves_the_loop_free() -> None:
    """A /timestep that arrives while a worker thread's /buffer holds the game waits in a
    thread too: had it waited in the loop, nothing else (here: the loop's own release of the
    /buffer) could run until the /buffer was done."""
    game = _HeldBuffer()
    transport = httpx.ASGITransport(create_app(game))  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as client:
        buffer = asyncio.create_task(client.get("/buffer"))
        assert await asyncio.to_thread(game.entered.wait, 30)
        timestep = asyncio.create_task(client.get("/timestep"))
        rescue = threading.Timer(10, game.release.set)  # a blocked loop never gets past sleep
        rescue.start()
        await asyncio.sleep(0.2)  # /timestep is under way: waiting for the game
        released_by_the_loop = not game.release.is_set()
        game.release.set()
        rescue.cancel()
        responses = await asyncio.gather(buffer, timestep)
    assert released_by_the_loop
    assert [r.status_code for r in responses] == [200, 200]
    assert [name for name, _ in game.calls] == ["buffer", "timestep"]


# ------------------------------------------------------------------ JSON and binary routes


async def test_state_is_indented_json_of_the_bomb(client: httpx.AsyncClient) -> None:
    response = await client.get("/state")
    assert response.headers["content-type"] == "application/json"
    assert "\n  " in response.text
    assert BombState.model_validate_json(response.content) == BombState.model_validate(STATE)
    assert response.json()["timerModule"]["secondsRemaining"] == 100.0


async def test_modules_is_json(client: httpx.AsyncClient) -> None:
    response = await client.get("/modules")
    assert response.headers["content-type"] == "application/json"
    assert response.json() == [{"id": "Wires", "displayName": "Wires", "isMod": False}]


async def test_buffer_raw_layout(client: httpx.AsyncClient) -> None:
    response = await client.get("/buffer")
    assert response.headers["content-type"] == "application/octet-stream"
    body = response.content
    assert int(response.headers["content-length"]) == len(body) == 13 + 5 * 6 * 8 * 3
    assert body[:13] == bytes([1]) + (4).to_bytes(4, "little") + (6).to_bytes(4, "little") + (
        8
    ).to_bytes(4, "little")
    # rows bottom-to-top: the first frame's top-left red pixel is in its last row
    last_row = 13 + 5 * 8 * 3
    assert body[last_row : last_row + 3] == bytes([255, 0, 0])
    decoded = decode_buffer(body)
    assert decoded.count == 4 and tuple(decoded.frames[0][0, 0]) == (255, 0, 0)
    assert decoded.mask is not None and tuple(decoded.mask[2, 4]) == (0, 255, 0)


async def test_buffer_last_and_png(client: httpx.AsyncClient, game: ScriptedGame) -> None:
    raw = decode_buffer((await client.get("/buffer?last=2")).content)
    png = decode_png_buffer((await client.get("/buffer?last=2&format=png")).content)
    assert raw.count == png.count == 2
    assert np.array_equal(raw.frames, png.frames)
    assert raw.mask is not None and png.mask is not None
    assert np.array_equal(raw.mask, png.mask)
    assert game.calls == [("buffer", (2,)), ("buffer", (2,))]


@pytest.mark.parametrize("query", ["?last=-1", "?last=two", "?format=jpeg"])
async def test_buffer_bad_extension_parameters_are_400(
    client: httpx.AsyncClient, query: str
) -> None:
    response = await client.get("/buffer" + query)
    assert response.status_code == 400 and response.text.startswith("Error: ")


async def test_old_buffer_is_base64_png_json(client: httpx.AsyncClient) -> None:
    response = await client.get("/old-buffer")
    assert response.headers["content-type"] == "image/png"  # sic, as the shipped mod
    document = json.loads(response.content)
    assert set(document) == {"frames", "segmentation"}
    assert len(document["frames"]) == 4 and document["segmentation"]


# ------------------------------------------------------------------ over the real simulator


@pytest.fixture
async def sim() -> AsyncIterator[httpx.AsyncClient]:
    """The server over the real ``Game`` at a small size, reached in-process."""
    transport = httpx.ASGITransport(create_app(Game(width=160, height=120)))
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as http:
        yield http


async def _lights_on(http: httpx.AsyncClient) -> None:
    async def health() -> str:
        return (await http.get("/health")).text

    await LifecycleWait(Lifecycle.SETUP, timeout_s=4).until_async(health, poll_s=0.02)
    assert (await http.get("/startMission", params=MISSION)).status_code == 200
    await LifecycleWait(Lifecycle.LIGHTS_OFF, timeout_s=4).until_async(health, poll_s=0.02)
    await http.get("/settimescale", params={"value": "0"})
    for _ in range(5):
        await http.get("/timestep")
        if (await http.get("/health")).text == "LightsOn":
            return
    pytest.fail("no LightsOn after five steps")


async def test_unknown_module_name_is_a_clear_400(sim: httpx.AsyncClient) -> None:
    response = await sim.get("/startMission", params={**MISSION, "components": "Wires,Piano Keys"})
    assert response.status_code == 400
    assert response.text.startswith("Please enter a valid list of components")
    assert "components" in response.text
    assert (await sim.get("/health")).text in ("Gameplay", "Setup")  # no mission started


async def test_simulator_refusals_come_back_as_400(sim: httpx.AsyncClient) -> None:
    response = await sim.get("/detonate")
    assert response.status_code == 400
    assert response.text.startswith("Cannot detonate bomb in ")
    await _lights_on(sim)
    response = await sim.get("/action", params={"action": "click", "x_pos": "2", "y_pos": "0"})
    assert response.status_code == 400
    assert response.text.startswith("Could not parse x and y coordinates")
    assert (await sim.get("/state")).json()["strikes"] == []


_ROUTE_NAMES = sorted(ROUTES) + ["/nowhere"]
_PARAM_NAMES = ["value", "action", "x_pos", "y_pos", "last", "format", "seed", "components"]


@pytest.fixture
async def lit_sim(sim: httpx.AsyncClient) -> httpx.AsyncClient:
    await _lights_on(sim)
    return sim


_REQUESTS = st.tuples(
    st.sampled_from(_ROUTE_NAMES),
    st.dictionaries(st.sampled_from(_PARAM_NAMES), st.text(max_size=8), max_size=3),
)
_FUZZ = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


async def _survives(http: httpx.AsyncClient, route: str, query: dict[str, str]) -> None:
    """A 2xx/4xx answer with a body, never a 500 (an uncaught error in the game) or a crash."""
    response = await http.get(route, params=query)
    assert response.status_code < 500, (route, query, response.text)
    if response.status_code >= 400:
        assert response.text


@_FUZZ
@given(request=_REQUESTS)
async def test_no_input_breaks_the_server_before_a_mission(
    sim: httpx.AsyncClient, request: tuple[str, dict[str, str]]
) -> None:
    await _survives(sim, *request)


@_FUZZ
@given(request=_REQUESTS)
async def test_no_input_breaks_the_server_during_a_mission(
    lit_sim: httpx.AsyncClient, request: tuple[str, dict[str, str]]
) -> None:
    await _survives(lit_sim, *request)


# ------------------------------------------------------------------ --status-codes mod


@pytest.fixture
async def mod_client(game: ScriptedGame) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(create_app(game, status_codes="mod"))  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as http:
        yield http


@pytest.mark.parametrize(
    ("path", "params", "body_start"),
    [
        ("/observation", {}, "Unknown route."),
        ("/setstepunit", {}, "Error:"),
        ("/startmission", {**MISSION, "numStrikes": "0"}, "Please enter a valid number of strikes"),
    ],
)
async def test_mod_status_codes_answer_the_mods_200_errors(
    client: httpx.AsyncClient, mod_client: httpx.AsyncClient, path: str, params: dict,
    body_start: str,
) -> None:  # fmt: skip
    honest = await client.get(path, params=params)
    mod = await mod_client.get(path, params=params)
    assert honest.status_code in (400, 404) and honest.text.startswith(body_start)
    assert (mod.status_code, mod.text) == (200, honest.text)


async def test_mod_status_codes_keep_the_mods_own_400s(
    mod_client: httpx.AsyncClient, game: ScriptedGame
) -> None:
    """Wrong-state refusals are 400 in the shipped mod too (§1.2)."""
    game.refuse = SimulatorError("Cannot get bomb state in Setup state")
    response = await mod_client.get("/state")
    assert (response.status_code, response.text) == (400, "Cannot get bomb state in Setup state")


async def test_mod_status_codes_turn_a_handler_crash_into_200_error(
    mod_client: httpx.AsyncClient, game: ScriptedGame
) -> None:
    game.crash = True
    response = await mod_client.get("/health")
    assert response.status_code == 200 and response.text.startswith("Error: ")


async def test_mod_status_codes_preflight_of_an_unknown_route_is_empty(
    mod_client: httpx.AsyncClient,
) -> None:
    response = await mod_client.options("/observation")
    assert (response.status_code, response.content) == (200, b"")


def test_unknown_status_codes_are_refused() -> None:
    with pytest.raises(ValueError, match="status_codes='strict'"):
        create_app(ScriptedGame(), status_codes="strict")  # type: ignore[arg-type]


_LEAF = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
_DOCUMENT = st.recursive(
    _LEAF,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(_DOCUMENT, min_size=1, max_size=4))
def test_indented_json_writes_what_json_dumps_writes_also_from_its_store(
    documents: list[object],
) -> None:
    """The /state writer writes any JSON document as ``json.dumps(indent=2)`` does, byte for
    byte (numbers, the non-finite floats, escapes, nesting, empty containers)."""
    texts = IndentedJson(size=3)
    for document in [*documents, *documents]:
        assert texts.dumps(document) == json.dumps(document, indent=2)


def test_indented_json_of_a_bomb_state_is_its_wire_json_also_from_its_store() -> None:
    """Every module kind's entry as a kept model text: a played game's states, written from
    their parts, are ``json.dumps(state.to_wire(), indent=2)``, the first time and when each
    model's text comes from the store (a small store, so that it also starts afresh)."""
    from gptnt.protocol import MODULE_KINDS

    game = Game(transition_seconds=0.0, capture_frames=False)
    game.fast_forward(Lifecycle.SETUP)
    game.start_mission(MissionConfig(seed=5, time_limit=300, components=list(MODULE_KINDS)))
    game.fast_forward(Lifecycle.LIGHTS_OFF)
    game.fast_forward(Lifecycle.LIGHTS_ON)
    texts = IndentedJson(size=7)
    for _ in range(40):
        state = game.state()
        for _ in range(2):
            assert texts.dumps(state.wire_parts()) == json.dumps(state.to_wire(), indent=2)
        if game.health() != "LightsOn":
            break
        game.action("lottery")
        game.timestep()
