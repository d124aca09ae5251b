"""Record/replay (``gptnt.sim.recording``): file round trip, replay rules, the committed stub."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import hostile_inputs
import httpx
import numpy as np
import pytest
from child_server import GPTNT, child_server

from gptnt.bounded import MAX_MEMBER_BYTES
from gptnt.errors import ConfigError, GameHTTPError, UnreadableError
from gptnt.protocol import MissionConfig
from gptnt.protocol.client import GameClient
from gptnt.services.bus import free_port
from gptnt.sim.recording import (
    Exchange,
    Recording,
    RecordingTransport,
    Replay,
    create_stub_app,
    mask_point,
    new_recording,
    play_session,
    read_recording,
    write_recording,
)

DATA = Path(__file__).resolve().parents[1] / "data"
COMMITTED = DATA / "sim-session.gptnt-rec.zip"


def _exchange(index: int, target: str, body: str, status: int = 200) -> Exchange:
    return Exchange(
        index=index,
        method="GET",
        target=target,
        status=status,
        headers={"content-type": "text/plain; charset=utf-8"},
        body=body.encode(),
    )


def _recording() -> Recording:
    """Health polls interleaved with the calls of a short session."""
    targets = [
        ("/health", "Setup"),
        ("/startMission?seed=1&components=Wires&sessionId=abc", "1"),
        ("/health", "Transitioning"),
        ("/health", "LightsOff"),
        ("/settimescale?value=0", "Set timeScale to 0"),
        ("/action?action=click&x_pos=0.5&y_pos=0.25", "clicked on: WiresReleased: Wires"),
        ("/health", "LightsOn"),
    ]
    return new_recording(
        [_exchange(i, target, body) for i, (target, body) in enumerate(targets)],
        source="test",
    )


async def _client(app: object) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://stub")  # type: ignore[arg-type]


# ------------------------------------------------------------------ files


def test_write_then_read_round_trips_bodies_and_headers(tmp_path: Path) -> None:
    recording = _recording()
    recording.exchanges.append(
        Exchange(index=7, method="GET", target="/buffer", status=200, body=bytes(range(256)) * 9)
    )
    path = tmp_path / "nested" / "session.zip"
    write_recording(path, recording)
    loaded = read_recording(path)
    assert loaded.info == recording.info
    assert loaded.exchanges == recording.exchanges
    assert [e.body for e in loaded.exchanges] == [e.body for e in recording.exchanges]
    assert not list(path.parent.glob("*.partial"))


def test_reading_a_non_recording_names_the_file(tmp_path: Path) -> None:
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"not a zip")
    with pytest.raises(ConfigError, match="junk.zip: not a gptnt recording"):
        read_recording(junk)
    with pytest.raises(ConfigError, match="no such file"):
        read_recording(tmp_path / "missing.zip")


@pytest.mark.parametrize(
    ("build", "expect"),
    [
        (hostile_inputs.corrupt_deflate,
         "member 'bodies/00000' is corrupt (Error -3 while decompressing data"),
        (hostile_inputs.unknown_method,
         "member 'bodies/00000' uses compression method 99; only stored and deflate are read"),
        (lambda path: hostile_inputs.zip_bomb(path, size=MAX_MEMBER_BYTES + 1024 * 1024),
         "member 'bodies/00000' is 65 MiB uncompressed, over the 64 MiB a member may hold"),
    ],
    ids=["corrupt deflate", "unknown method", "member over the cap"],
)  # fmt: skip
def test_a_lying_zip_is_one_line_checked_before_inflating(
    build: Callable[[Path], Path], expect: str, tmp_path: Path
) -> None:
    path = build(tmp_path / "hostile.zip")
    with pytest.raises(UnreadableError) as refused:
        read_recording(path)
    message = str(refused.value)
    assert message.startswith(f"recording {path}: not a gptnt recording ({expect}"), message
    assert "\n" not in message and message.endswith("; record one with `gptnt sim record`")
    assert isinstance(refused.value, ConfigError)  # exit 2 at the CLI


# ------------------------------------------------------------------ replay rules


def test_replay_answers_the_recorded_sequence() -> None:
    replay = Replay(_recording())
    # sessionId differs (ignored), parameter order differs, 0.50 == 0.5
    first = replay.answer("GET", "/startmission?components=Wires&seed=1&sessionId=zzz")
    assert (first.status, first.body) == (200, b"1")
    assert replay.answer("POST", "/settimescale?value=0.0").body == b"Set timeScale to 0"
    click = replay.answer("GET", "/action?action=click&y_pos=0.25&x_pos=0.50")
    assert click.body.startswith(b"clicked on")
    assert replay.finished


def test_health_is_the_latest_recorded_before_the_next_expected_request() -> None:
    replay = Replay(_recording())
    assert replay.answer("GET", "/health").body == b"Setup"
    assert replay.answer("GET", "/HEALTH").body == b"Setup"  # polling does not advance
    replay.answer("GET", "/startMission?seed=1&components=Wires")
    assert replay.answer("GET", "/health").body == b"LightsOff"
    replay.answer("GET", "/settimescale?value=0")
    assert replay.answer("GET", "/health").body == b"LightsOff"
    replay.answer("GET", "/action?action=click&x_pos=0.5&y_pos=0.25")
    assert replay.answer("GET", "/health").body == b"LightsOn"


def test_divergence_is_409_naming_both_requests_and_does_not_advance(
    caplog: pytest.LogCaptureFixture,
) -> None:
    replay = Replay(_recording())
    wrong = replay.answer("GET", "/startMission?seed=2&components=Wires")
    assert wrong.status == 409
    text = wrong.body.decode()
    # Same route: only the parameters that differ are named (sessionId is never compared).
    assert "expected GET /startmission?seed=1, received GET /startmission?seed=2" in text
    other = replay.answer("GET", "/timestep").body.decode()
    assert "expected GET /startMission?seed=1&components=Wires&sessionId=abc" in other
    assert "received GET /timestep" in other
    assert "Replay diverged at request #1" in caplog.text
    assert replay.answer("GET", "/startMission?seed=1&components=Wires").status == 200


def test_requests_after_the_end_are_409() -> None:
    replay = Replay(_recording())
    for target in (
        "/startMission?seed=1&components=Wires",
        "/settimescale?value=0",
        "/action?action=click&x_pos=0.5&y_pos=0.25",
    ):
        replay.answer("GET", target)
    late = replay.answer("GET", "/state")
    assert late.status == 409 and b"the end of the recording" in late.body


def test_a_recording_without_health_refuses_health() -> None:
    replay = Replay(new_recording([_exchange(0, "/state", "{}")], source="test"))
    assert replay.answer("GET", "/health").status == 409


async def test_stub_app_serves_recorded_headers_and_cors() -> None:
    async with await _client(create_stub_app(_recording())) as http:
        assert (await http.options("/anything")).status_code == 200
        response = await http.get("/startMission", params={"seed": "1", "components": "Wires"})
        assert response.text == "1"
        assert response.headers["content-type"] == "text/plain; charset=utf-8"
        assert response.headers["access-control-allow-origin"] == "*"
        assert (await http.get("/state")).status_code == 409


# ------------------------------------------------------------------ recording transport


async def test_recording_transport_keeps_every_exchange() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        query = dict(parse_qsl(urlsplit(str(request.url)).query))
        body = f"{request.url.path}:{query.get('value', '')}".encode()
        return httpx.Response(201, content=body, headers={"Content-Type": "text/plain"})

    transport = RecordingTransport(httpx.MockTransport(answer))
    async with httpx.AsyncClient(transport=transport, base_url="http://game") as http:
        first = await http.get("/settimescale", params={"value": "0.5"})
        await http.post("/health")
    assert first.text == "/settimescale:0.5"
    assert [(e.index, e.method, e.target, e.status) for e in transport.exchanges] == [
        (0, "GET", "/settimescale?value=0.5", 201),
        (1, "POST", "/health", 201),
    ]
    assert transport.exchanges[0].headers == {"content-type": "text/plain"}
    assert transport.exchanges[0].body == b"/settimescale:0.5"


def test_mask_point_finds_the_largest_region_including_dark_edges() -> None:
    mask = np.zeros((40, 40, 3), np.uint8)
    mask[2:6, 2:6] = (255, 0, 0)  # small red region
    mask[10:30, 20:40] = (0, 255, 0)  # large green region...
    mask[10:30, 20] = (0, 128, 0)  # ...with a darker anti-aliased edge
    x, y = mask_point(mask)  # type: ignore[misc]
    assert x == pytest.approx(30 / 40) and y == pytest.approx(20 / 40)
    assert mask_point(np.zeros((4, 4, 3), np.uint8)) is None


# ------------------------------------------------------------------ the committed recording


def _mission_of(recording: Recording) -> MissionConfig:
    start = next(e for e in recording.exchanges if e.path == "/startmission")
    return MissionConfig.from_query(dict(parse_qsl(urlsplit(start.target).query)))


async def test_committed_recording_replays_the_scripted_session() -> None:
    """CI smoke: the real client replays the committed session against the stub."""
    recording = read_recording(COMMITTED)
    assert COMMITTED.stat().st_size < 400_000
    app = create_stub_app(recording)
    transport = httpx.ASGITransport(app)
    async with GameClient("http://stub", transport=transport) as client:
        await play_session(client, _mission_of(recording), steps=_steps_of(recording))
        await client.state()  # a read after the end: the last state recorded
        with pytest.raises(GameHTTPError, match="409"):
            await client.timestep()  # a step after the end diverges
    frames = [e for e in recording.exchanges if e.path == "/buffer"]
    assert frames and all(e.status == 200 for e in frames)


def _steps_of(recording: Recording) -> int:
    """The ``steps`` the session was recorded with: timesteps between the click and ``out``."""
    paths = [e.target for e in recording.exchanges if e.path in ("/timestep", "/action")]
    click = next(i for i, t in enumerate(paths) if "action=click" in t)
    out = next(i for i, t in enumerate(paths) if "action=out" in t)
    return out - click - 1


async def test_recording_the_simulator_then_replaying_it(tmp_path: Path) -> None:
    """Record an in-process simulator session, write it, read it back, replay it exactly."""
    from gptnt.sim.game import Game
    from gptnt.sim.server import create_app

    config = MissionConfig(seed=3, time_limit=90, components=["Wires"], is_front=True)
    transport = RecordingTransport(httpx.ASGITransport(create_app(Game(width=160, height=120))))
    async with GameClient("http://sim", transport=transport) as client:
        await play_session(client, config, steps=1)
    path = tmp_path / "session.zip"
    write_recording(path, new_recording(transport.exchanges, source="test"))
    recording = read_recording(path)
    non_health = [e for e in recording.exchanges if e.path != "/health"]
    assert [e.path for e in non_health][:4] == [
        "/modules",
        "/startmission",
        "/settimescale",
        "/timestep",
    ]
    assert all(e.status == 200 for e in recording.exchanges)
    async with GameClient(
        "http://stub", transport=httpx.ASGITransport(create_stub_app(recording))
    ) as client:
        await play_session(client, config, steps=1)


async def test_stub_serve_command_replays_over_http() -> None:
    """``gptnt stub serve FILE`` as a real process: the session replays; a divergence is 409."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with child_server(
        [*GPTNT, "stub", "serve", str(COMMITTED), "--port", str(port)], url
    ) as process:
        recording = read_recording(COMMITTED)
        async with GameClient(url) as client:
            await play_session(client, _mission_of(recording), steps=_steps_of(recording))
        async with httpx.AsyncClient(base_url=url) as http:
            response = await http.get("/timestep")
        assert response.status_code == 409
        assert "expected the end of the recording, received GET /timestep" in response.text
    assert process.stderr is not None
    assert b"Replay diverged" in process.stderr.read()
