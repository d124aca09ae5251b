"""GameClient against a real HTTP server on 127.0.0.1 (a thread running http.server).

The server answers from a per-test route table, the way the shipped mod does: failures with
HTTP 200 and a text body, proper status codes for some, slow answers for the deadline tests.
"""

from __future__ import annotations

import threading
import time
import tracemalloc
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest

from gptnt.errors import GameHTTPError, GameRefusedError, GameTimeoutError, ProtocolError
from gptnt.protocol import (
    BombState,
    GameAction,
    Lifecycle,
    MissionConfig,
    decode_png,
    encode_buffer,
    encode_png_buffer,
)
from gptnt.protocol.client import MAX_BODY_BYTES, MAX_BUFFER_BYTES, GameClient
from gptnt.services.bus import free_port

STATE_JSON = (Path(__file__).parent / "data" / "bomb_state.json").read_bytes()


@dataclass
class Reply:
    body: bytes = b""
    status: int = 200
    delay: float = 0.0
    content_type: str = "text/plain; charset=utf-8"
    length: int | None = None
    """The Content-Length sent, when not the body's own."""
    endless: bool = False
    """Send ``body`` over and over, with no Content-Length, until the client hangs up."""


@dataclass
class FakeGame:
    url: str
    routes: dict[str, Reply] = field(default_factory=dict)
    seen: list[tuple[str, dict[str, str]]] = field(default_factory=list)


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        route = url.path.lower()  # the mod lower-cases the path
        self.server.game.seen.append((route, dict(parse_qsl(url.query))))
        reply = self.server.game.routes.get(route, Reply(b"Unknown route."))
        if reply.delay:
            time.sleep(reply.delay)
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        if not reply.endless:
            self.send_header("Content-Length", str(reply.length or len(reply.body)))
        self.end_headers()
        try:
            self.wfile.write(reply.body)
            while reply.endless:
                self.wfile.write(reply.body)
        except OSError:
            pass  # the client hung up

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    game: FakeGame

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a client that gave up on a slow answer closes the socket: expected here


@pytest.fixture
def game() -> Iterator[FakeGame]:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.game = FakeGame(url=f"http://127.0.0.1:{server.server_address[1]}")
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    yield server.game
    server.shutdown()
    server.server_close()


async def test_health_parses_every_token(game: FakeGame) -> None:
    async with GameClient(game.url) as client:
        for token in Lifecycle:
            game.routes["/health"] = Reply(token.value.encode())
            assert await client.health() is token


async def test_health_with_an_unknown_token(game: FakeGame) -> None:
    game.routes["/health"] = Reply(b"Unlock")
    async with GameClient(game.url) as client:
        with pytest.raises(ProtocolError, match=r"/health: 'Unlock' is not a lifecycle token"):
            await client.health()


async def test_start_mission_sends_the_query(game: FakeGame) -> None:
    game.routes["/startmission"] = Reply(b"851")
    config = MissionConfig(seed=851, time_limit=300, components=["Wires", "Keypad"])
    async with GameClient(game.url) as client:
        assert await client.start_mission(config) == "851"
    assert game.seen == [("/startmission", config.to_query())]


@pytest.mark.parametrize(
    ("route", "body"),
    [
        ("/startmission", b"Please enter valid seed. e.g. seed=123"),
        ("/random", b"Error: Value cannot be null."),
        ("/startmission", b"Error: Input string was not in a correct format."),
        ("/action", b"invalid direction. Valid directions: left, right, up, down, flip"),
    ],
)
async def test_200_failure_bodies_are_refusals(game: FakeGame, route: str, body: bytes) -> None:
    game.routes[route] = Reply(body)
    config = MissionConfig(seed=1, time_limit=90, components=["Wires"])
    calls = {
        "/startmission": lambda c: c.start_mission(config),
        "/random": lambda c: c.random(2),
        "/action": lambda c: c.action(GameAction(action="flip")),
    }
    async with GameClient(game.url) as client:
        with pytest.raises(GameRefusedError) as info:
            await calls[route](client)
    assert info.value.route == route
    assert str(info.value) == f"{route}: the game refused: {body.decode()}"


async def test_unknown_route_is_a_refusal(game: FakeGame) -> None:
    async with GameClient(game.url) as client:  # no routes configured at all
        with pytest.raises(GameRefusedError, match=r"^/debug: the game refused: Unknown route\.$"):
            await client.debug()


async def test_long_bodies_are_truncated_to_one_line(game: FakeGame) -> None:
    game.routes["/state"] = Reply(b"Error: boom\n" + b"x" * 5000)
    async with GameClient(game.url) as client:
        with pytest.raises(GameRefusedError) as info:
            await client.state()
    message = str(info.value)
    assert "\n" not in message and len(message) < 300 and message.endswith("…")


@pytest.mark.parametrize("route", ["/health", "/state", "/buffer"])
async def test_an_answer_past_its_route_s_cap_is_refused_unread(game: FakeGame, route: str) -> None:
    """A server at the game's address that declares gigabytes is refused before a byte of body
    is read; one that streams without end is refused at the cap, not at the deadline (by which
    time a fast link has filled our memory)."""
    call = {"/health": "health", "/state": "state", "/buffer": "buffer"}[route]
    cap = MAX_BUFFER_BYTES if route == "/buffer" else MAX_BODY_BYTES
    game.routes[route] = Reply(b"x", length=cap + 1)
    async with GameClient(game.url, deadlines={route: 60.0}) as client:
        with pytest.raises(ProtocolError, match=f"its Content-Length says {cap + 1}"):
            await getattr(client, call)()
    if route == "/buffer":
        return  # 512 MiB streamed is too slow a test; the same read caps every route
    game.routes[route] = Reply(b"A" * 65536, endless=True)
    tracemalloc.start()
    try:
        async with GameClient(game.url, deadlines={route: 60.0}) as client:
            t0 = time.monotonic()
            with pytest.raises(ProtocolError, match="over the 16 MiB the route may send"):
                await getattr(client, call)()
        assert time.monotonic() - t0 < 30  # the cap, not the 60 s deadline
        assert tracemalloc.get_traced_memory()[1] < 3 * cap
    finally:
        tracemalloc.stop()


async def test_non_2xx_statuses(game: FakeGame) -> None:
    game.routes["/action"] = Reply(b"Cannot send action to the game in Setup state", status=400)
    game.routes["/buffer"] = Reply(b"", status=408)
    game.routes["/state"] = Reply(b"Could not serialize bomb state", status=500)
    async with GameClient(game.url) as client:
        with pytest.raises(GameHTTPError) as info:
            await client.action(GameAction(action="click", x_pos=0.5, y_pos=0.5))
        assert (info.value.status, info.value.route) == (400, "/action")
        assert str(info.value) == "/action: HTTP 400: Cannot send action to the game in Setup state"
        with pytest.raises(GameHTTPError, match=r"^/buffer: HTTP 408: \(empty body\)$"):
            await client.buffer()
        with pytest.raises(GameHTTPError, match="HTTP 500: Could not serialize"):
            await client.state()
    assert game.seen[0] == ("/action", {"action": "click", "x_pos": "0.5", "y_pos": "0.5"})


async def test_deadline_per_call_and_per_route(game: FakeGame) -> None:
    game.routes["/timestep"] = Reply(b"Paused after 3000 in-game milliseconds", delay=3.0)
    game.routes["/state"] = Reply(STATE_JSON, delay=3.0)
    async with GameClient(game.url, deadlines={"/state": 0.2}) as client:
        start = time.monotonic()
        with pytest.raises(GameTimeoutError, match=r"^/timestep: no answer from .* within 0.2 s"):
            await client.timestep(deadline=0.2)
        with pytest.raises(GameTimeoutError) as info:
            await client.state()
        assert info.value.route == "/state"
        assert time.monotonic() - start < 2.5  # neither call waited for the slow answer


async def test_unreachable_game(game: FakeGame) -> None:
    port = free_port()  # a port nobody listens on
    async with GameClient(f"http://127.0.0.1:{port}") as client:
        with pytest.raises(ProtocolError, match="/health: cannot reach the game") as info:
            await client.health()
    assert not isinstance(info.value, GameTimeoutError)


async def test_good_state(game: FakeGame) -> None:
    game.routes["/state"] = Reply(STATE_JSON, content_type="application/json")
    async with GameClient(game.url) as client:
        state = await client.state()
    assert state == BombState.model_validate_json(STATE_JSON)
    assert len(state.modules) == 11


async def test_state_that_does_not_validate(game: FakeGame) -> None:
    game.routes["/state"] = Reply(b'{"seed": 1}', content_type="application/json")
    async with GameClient(game.url) as client:
        with pytest.raises(ProtocolError, match=r"^/state: not a bomb state \(maxStrikes"):
            await client.state()


def _frames(count: int, height: int = 6, width: int = 8) -> list[np.ndarray]:
    rng = np.random.default_rng(count)
    return [rng.integers(0, 256, (height, width, 3), dtype=np.uint8) for _ in range(count)]


async def test_good_raw_buffer(game: FakeGame) -> None:
    frames, mask = _frames(4), _frames(1)[0]
    game.routes["/buffer"] = Reply(
        encode_buffer(frames, mask), content_type="application/octet-stream"
    )
    async with GameClient(game.url) as client:
        full = await client.buffer()
        newest = await client.buffer(last=2)  # this server ignores `last`: cut client-side
    np.testing.assert_array_equal(full.frames, np.stack(frames))
    np.testing.assert_array_equal(full.mask, mask)
    np.testing.assert_array_equal(newest.frames, np.stack(frames[2:]))
    assert game.seen[1] == ("/buffer", {"last": "2"})


async def test_png_buffer_and_fallback_to_raw(game: FakeGame) -> None:
    frames, mask = _frames(3), _frames(1)[0]
    game.routes["/buffer"] = Reply(encode_png_buffer(frames, mask))
    async with GameClient(game.url) as client:
        decoded = await client.buffer(fmt="png", last=3)
        packed = await client.buffer_png()
        np.testing.assert_array_equal(decoded.frames, np.stack(frames))
        np.testing.assert_array_equal(decode_png(packed.frames[0]), frames[0])
        # A backend without the extension (the shipped mod) answers raw: still works.
        game.routes["/buffer"] = Reply(encode_buffer(frames, None))
        raw = await client.buffer(fmt="png")
        packed = await client.buffer_png(last=1)
    np.testing.assert_array_equal(raw.frames, np.stack(frames))
    assert raw.mask is None and len(packed.frames) == 1 and packed.mask is None
    np.testing.assert_array_equal(decode_png(packed.frames[0]), frames[-1])
    assert game.seen[0] == ("/buffer", {"last": "3", "format": "png"})


async def test_small_routes(game: FakeGame) -> None:
    game.routes.update(
        {
            "/settimescale": Reply(b"Set timeScale to 0"),
            "/setstepunit": Reply(b"Set timeStepSize to 3000"),
            "/random": Reply(b" WiresModule(Clone) Keypad(Clone)"),
            "/modules": Reply(
                b'[{"id": "Wires", "displayName": "Wires", "isMod": false}]',
                content_type="application/json",
            ),
            "/reset": Reply(b"Nuh uh"),
            "/detonate": Reply(b"Detonated bomb successfully"),
            "/solve": Reply(b"Solved bomb successfully"),
        }
    )
    async with GameClient(game.url) as client:
        assert await client.set_time_scale(0) == "Set timeScale to 0"
        assert await client.set_step_unit(3000) == "Set timeStepSize to 3000"
        assert await client.random(2) == ["WiresModule(Clone)", "Keypad(Clone)"]
        (info,) = await client.modules()
        assert (info.id, info.display_name, info.is_mod) == ("Wires", "Wires", False)
        assert await client.reset() == "Nuh uh"
        assert await client.detonate() == "Detonated bomb successfully"
        assert await client.solve() == "Solved bomb successfully"
    assert game.seen[:3] == [
        ("/settimescale", {"value": "0.0"}),
        ("/setstepunit", {"value": "3000"}),
        ("/random", {"value": "2"}),
    ]
