"""The Game Service over a real Redis with the in-process simulator: startup double pause (by
the fast-forward extension and by the mod's real-time path, to the same bomb), observations
carrying only the frames asked for, the Defuser's reach, and game over events."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import time
from collections.abc import AsyncIterator

import pytest
from pydantic import TypeAdapter

from gptnt.config import GameConfig
from gptnt.errors import RemoteError
from gptnt.missions import get_mission
from gptnt.players.cassette import loopback
from gptnt.protocol import GameAction, Lifecycle, decode_png
from gptnt.protocol.client import EXTENSIONS_HEADER, FAST_FORWARD
from gptnt.services.bus import EventStream, GameKeys, RpcClient, connect, create_users
from gptnt.services.game import GameService, api
from gptnt.sim.game import Game
from gptnt.sim.recording import create_stub_app, read_recording
from gptnt.sim.server import create_app

PNG = b"\x89PNG\r\n\x1a\n"


@contextlib.asynccontextmanager
async def _serving(admin, keys: GameKeys, url: str, config: GameConfig) -> AsyncIterator[RpcClient]:  # type: ignore[no-untyped-def]
    """A game service of ``keys``'s game on ``config``'s backend; the manager's client to it."""
    creds = await create_users(admin, keys)
    redis = connect(creds["game"].url(url))
    service = GameService(redis, keys, config)
    task = asyncio.create_task(service.run())
    try:
        yield RpcClient(admin, keys, "manager")
    finally:
        await service.stop()
        await asyncio.wait_for(task, 10)
        await redis.aclose()


@pytest.fixture
async def game(admin, keys, redis_admin_url):
    async with _serving(admin, keys, redis_admin_url, GameConfig(width=320, height=240)) as rpc:
        yield rpc


async def _started(game: RpcClient, mission_id: str = "Wires-234", **changes) -> api.Status:  # type: ignore[no-untyped-def]
    config = get_mission(mission_id).config.model_copy(update=changes)
    status = await game.call(
        "game", api.START, api.StartRequest(mission=config), api.Status, timeout_s=30
    )
    assert status.lifecycle == Lifecycle.LIGHTS_OFF  # pause #1: in the dark
    return await game.call("game", api.LIGHTS_ON, api.Empty(), api.Status, timeout_s=30)


async def test_double_pause_leaves_the_clock_stopped_with_lights_on(game: RpcClient) -> None:
    status = await _started(game)
    assert status.lifecycle == Lifecycle.LIGHTS_ON and not status.over
    first = status.seconds_remaining
    await asyncio.sleep(0.3)
    again = await game.call("game", api.STATUS, api.Empty(), api.Status, timeout_s=5)
    assert again.seconds_remaining == first  # paused: no game time passed
    stepped = await game.call("game", api.TIMESTEP, api.Empty(), api.Status, timeout_s=5)
    assert stepped.seconds_remaining == pytest.approx(first - 3.0)


class _SeenSim:
    """The simulator over real HTTP, keeping the routes it was asked; with ``fast_forward``
    false its answers advertise no fast-forward, as a game without our extension (the shipped
    mod) answers."""

    def __init__(self, *, fast_forward: bool) -> None:
        self._app = create_app(Game(width=320, height=240))
        self._fast_forward = fast_forward
        self.requests: list[str] = []

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] == "http":
            self.requests.append(f"{scope['path']}?{scope['query_string'].decode()}")

        async def answer(message):  # type: ignore[no-untyped-def]
            if message["type"] == "http.response.start" and not self._fast_forward:
                name = EXTENSIONS_HEADER.lower().encode()
                message["headers"] = [
                    (k, v.replace(f", {FAST_FORWARD}".encode(), b"") if k == name else v)
                    for k, v in message["headers"]
                ]
            await send(message)

        await self._app(scope, receive, answer)


async def test_fast_forward_and_the_real_time_startup_reach_the_same_bomb(
    admin, redis_admin_url, new_game
) -> None:
    """With the extension the game service skips the startup's waits; without it (the mod's
    path) it runs the clock at time scale 1 until LightsOn and pauses, a poll's overshoot late.
    Same mission, same bomb at LightsOn: the fast path at exactly the time limit, the other at
    most its overshoot below, and the same first frame and mask."""
    limit = get_mission("Wires-234").config.time_limit
    seen: dict[bool, tuple[api.Status, api.ObserveReply, list[str]]] = {}
    for fast in (True, False):
        sim = _SeenSim(fast_forward=fast)
        keys = new_game()
        with loopback(sim) as url:
            config = GameConfig(backend=url, width=320, height=240)
            async with _serving(admin, keys, redis_admin_url, config) as rpc:
                status = await _started(rpc)
                defuser = RpcClient(admin, keys, "defuser")
                ask = api.ObserveRequest(frames=16, mask=True, state=True)
                obs = await defuser.call("game", api.OBSERVE, ask, api.ObserveReply, timeout_s=10)
        seen[fast] = (status, obs, sim.requests)
    fast_status, fast_obs, fast_asked = seen[True]
    slow_status, slow_obs, slow_asked = seen[False]
    run_clock = "/settimescale?value=1"  # value=1 or 1.0
    assert "/fastforward?until=LightsOn" in fast_asked
    assert not any(r.startswith(run_clock) for r in fast_asked)
    assert not any(r.startswith("/fastforward") for r in slow_asked)  # the mod's path, as ever
    assert any(r.startswith(run_clock) for r in slow_asked)
    assert fast_status.lifecycle == slow_status.lifecycle == Lifecycle.LIGHTS_ON
    assert fast_status.seconds_remaining == limit
    assert slow_status.seconds_remaining is not None
    assert limit - slow_status.seconds_remaining > 0
    assert fast_obs.state is not None and slow_obs.state is not None
    assert fast_obs.state.modules == slow_obs.state.modules
    assert fast_obs.state.widgets == slow_obs.state.widgets
    assert len(fast_obs.frames) == 1  # the frame captured at LightsOn, and no other yet
    for fast_png, slow_png in (
        (fast_obs.frames[0], slow_obs.frames[0]),
        (fast_obs.mask, slow_obs.mask),
    ):
        assert fast_png is not None and slow_png is not None
        fast_image, slow_image = (decode_png(base64.b64decode(p)) for p in (fast_png, slow_png))
        assert (fast_image == slow_image).all()


async def test_a_fast_forwarded_startup_replays_from_its_recording(
    admin, redis_admin_url, new_game, tmp_path
) -> None:
    """A recording of the fast path holds its ``/fastforward`` calls and the header that offered
    them, so the recorded-game stub replays the same startup to the same statuses."""
    path = tmp_path / "startup.gptnt-rec.zip"

    async def play(config: GameConfig) -> tuple[api.Status, api.Status]:
        async with _serving(admin, new_game(), redis_admin_url, config) as rpc:
            lit = await _started(rpc)
            stepped = await rpc.call("game", api.TIMESTEP, api.Empty(), api.Status, timeout_s=10)
        return lit, stepped

    recorded = await play(GameConfig(width=320, height=240, record=path))
    assert recorded[0].seconds_remaining == get_mission("Wires-234").config.time_limit
    assert any(e.target.startswith("/fastforward") for e in read_recording(path).exchanges)
    with loopback(create_stub_app(read_recording(path))) as url:
        replayed = await play(GameConfig(backend=url, width=320, height=240))
    assert replayed == recorded


async def test_observation_carries_only_what_is_asked(game: RpcClient, admin, keys) -> None:
    await _started(game)
    await game.call("game", api.TIMESTEP, api.Empty(), api.Status, timeout_s=5)
    defuser = RpcClient(admin, keys, "defuser")
    obs = await defuser.call(
        "game", api.OBSERVE, api.ObserveRequest(frames=1, mask=True), api.ObserveReply, timeout_s=10
    )
    assert len(obs.frames) == 1 and obs.mask is not None and obs.state is not None
    images = [base64.b64decode(f) for f in [*obs.frames, obs.mask]]
    assert all(i.startswith(PNG) for i in images)
    assert obs.png_bytes == sum(map(len, images))
    few = await defuser.call(
        "game",
        api.OBSERVE,
        api.ObserveRequest(frames=0, mask=True, state=False),
        api.ObserveReply,
        timeout_s=10,
    )
    assert few.frames == [] and few.mask is not None and few.state is None
    many = await defuser.call(
        "game",
        api.OBSERVE,
        api.ObserveRequest(frames=4, mask=False),
        api.ObserveReply,
        timeout_s=10,
    )
    assert len(many.frames) == 4 and many.mask is None


async def test_defuser_may_act_but_not_drive_the_clock(game: RpcClient, admin, keys) -> None:
    await _started(game)
    defuser = RpcClient(admin, keys, "defuser")
    reply = await defuser.call(
        "game", api.ACT, api.ActRequest(action=GameAction(action="flip")), api.ActReply, timeout_s=5
    )
    assert "180" in reply.result
    for method in (api.TIMESTEP, api.RESUME, api.STOP):
        with pytest.raises(RemoteError) as err:
            await defuser.call("game", method, api.Empty(), api.Status, timeout_s=5)
        assert err.value.kind == "PermissionError"


async def test_a_refused_action_comes_back_as_a_typed_remote_error(game: RpcClient) -> None:
    with pytest.raises(RemoteError) as err:  # no mission yet: the game refuses
        await game.call(
            "game",
            api.ACT,
            api.ActRequest(action=GameAction(action="flip")),
            api.ActReply,
            timeout_s=5,
        )
    assert err.value.service == "game" and "state" in err.value.message
    assert err.value.kind == api.REFUSED  # a fact of the turn to the player, not a crash


async def test_game_over_is_published_promptly(game: RpcClient, admin, keys) -> None:
    """The design target is 0.5 s (5 Hz polling); the bound here leaves room for a busy CI."""
    events = EventStream(admin, keys, TypeAdapter(api.GameEvent))
    status = await _started(game, time_limit=3, needy_time=1)
    await game.call("game", api.RESUME, api.Empty(), api.Status, timeout_s=5)
    resumed = time.time()
    over = await events.wait_for(api.GameOver, timeout_s=15)
    assert over is not None and over.state is not None and over.state.is_detonated
    explodes_at = resumed + status.seconds_remaining
    assert over.detected_at - explodes_at < 1.5


@pytest.mark.parametrize(("mission", "frames"), [("Wires-234", 1), ("Simon-234", 8)])
async def test_a_blinking_module_gets_its_frame_sequence_in_the_same_observation(
    game: RpcClient, admin, keys, mission: str, frames: int
) -> None:
    defuser = RpcClient(admin, keys, "defuser")
    await _started(game, mission)
    ask = api.ObserveRequest(frames=1, mask=True, sequence_frames=8)
    act = api.ActRequest(action=GameAction(action="magic"))  # the oracle zooms into the module
    for _ in range(4):
        await defuser.call("game", api.ACT, act, api.ActReply, timeout_s=10)
        await game.call("game", api.TIMESTEP, api.Empty(), api.Status, timeout_s=10)
        obs = await defuser.call("game", api.OBSERVE, ask, api.ObserveReply, timeout_s=10)
        if obs.state is not None and obs.state.focused is not None:
            break
    assert obs.state is not None and obs.state.focused is not None
    assert len(obs.frames) == frames


async def test_an_observation_while_paused_is_never_older_than_the_last_action(
    game: RpcClient, admin, keys
) -> None:
    """A paused game's last reading is reused by the observation (one ``/state`` per sync
    Defuser turn), but an action or a step always makes the next observation new, and with the
    clock running every observation reads the game afresh."""
    defuser = RpcClient(admin, keys, "defuser")
    ask = api.ObserveRequest(frames=1, mask=True)

    async def observe() -> api.ObserveReply:
        return await defuser.call("game", api.OBSERVE, ask, api.ObserveReply, timeout_s=10)

    await _started(game)
    stepped = await game.call("game", api.TIMESTEP, api.Empty(), api.Status, timeout_s=5)
    before = await observe()
    assert before.state is not None and before.state.bomb_side == "front"
    assert before.status.seconds_remaining == stepped.seconds_remaining
    flip = api.ActRequest(action=GameAction(action="flip"))
    await defuser.call("game", api.ACT, flip, api.ActReply, timeout_s=5)
    after = await observe()
    assert after.state is not None and after.state.bomb_side != "front"
    again = await game.call("game", api.TIMESTEP, api.Empty(), api.Status, timeout_s=5)
    assert (await observe()).status.seconds_remaining == again.seconds_remaining
    await game.call("game", api.RESUME, api.Empty(), api.Status, timeout_s=5)
    first = await observe()
    await asyncio.sleep(0.3)
    assert (await observe()).status.seconds_remaining < first.status.seconds_remaining


async def test_the_monitor_reads_no_state_while_the_game_is_paused(
    admin, keys, redis_admin_url
) -> None:
    """Paused between sync turns, the game changes only through our own calls, so the 5 Hz
    monitor (here 50 Hz) watches ``/health`` alone; the real mod answers ``/state`` on its main
    thread, which the monitor would otherwise ask about 5 times a second for nothing."""
    routes: list[str] = []
    sim = create_app(Game(width=320, height=240))

    async def counting(scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] == "http":
            routes.append(scope["path"])
        await sim(scope, receive, send)

    with loopback(counting, log_level="error") as url:
        config = GameConfig(backend=url, width=320, height=240, poll_interval_s=0.02)
        async with _serving(admin, keys, redis_admin_url, config) as game:
            await _started(game)
            await game.call("game", api.TIMESTEP, api.Empty(), api.Status, timeout_s=5)
            await asyncio.sleep(0.1)  # a poll begun during the step has finished
            states, healths = routes.count("/state"), routes.count("/health")
            await asyncio.sleep(0.5)  # about 25 polls
            assert routes.count("/state") == states
            assert routes.count("/health") >= healths + 5  # still watching the game
            await game.call("game", api.RESUME, api.Empty(), api.Status, timeout_s=5)
            states = routes.count("/state")
            await asyncio.sleep(0.3)  # running: the monitor reads the bomb again
            assert routes.count("/state") > states


async def test_advance_steps_the_paused_game_to_a_game_time_and_keeps_the_step_unit(
    game: RpcClient, admin, keys
) -> None:
    """The virtual clock's steps: to 7.25 s into play, not past it when asked again, then an
    action at 10 s is carried out after the game reached 10 s, a long advance is cut into
    steps the mod takes; sync's 3 s step is unchanged after them."""
    start = await _started(game)
    limit = start.seconds_remaining
    assert limit is not None

    async def advance(to: float) -> api.Status:
        return await game.call(
            "game", api.ADVANCE, api.AdvanceRequest(to=to), api.Status, timeout_s=10
        )

    assert (await advance(7.25)).seconds_remaining == pytest.approx(limit - 7.25)
    assert (await advance(3.0)).seconds_remaining == pytest.approx(limit - 7.25)
    defuser = RpcClient(admin, keys, "defuser")
    flip = api.ActRequest(action=GameAction(action="flip"), at=10.0)
    reply = await defuser.call("game", api.ACT, flip, api.ActReply, timeout_s=10)
    assert reply.status.seconds_remaining == pytest.approx(limit - 10.0)
    # 21.5 s at once: in steps the mod can take (it times out a /timestep of 10 s or more).
    assert (await advance(31.5)).seconds_remaining == pytest.approx(limit - 31.5)
    stepped = await game.call("game", api.TIMESTEP, api.Empty(), api.Status, timeout_s=5)
    assert stepped.seconds_remaining == pytest.approx(limit - 34.5)
    with pytest.raises(RemoteError) as err:  # only the manager drives the clock
        await defuser.call("game", api.ADVANCE, api.AdvanceRequest(to=20), api.Status, timeout_s=5)
    assert err.value.kind == "PermissionError"
