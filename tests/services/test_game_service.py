"""The Game Service over a real Redis with the in-process simulator: startup double pause,
observations carrying only the frames asked for, the Defuser's reach, and game over events."""

from __future__ import annotations

import asyncio
import base64
import time

import pytest
from pydantic import TypeAdapter

from gptnt.config import GameConfig
from gptnt.errors import RemoteError
from gptnt.missions import get_mission
from gptnt.protocol import GameAction, Lifecycle
from services.bus import EventStream, RpcClient, connect, create_users
from services.game import GameService, api

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
async def game(admin, keys, redis_admin_url):
    creds = await create_users(admin, keys)
    redis = connect(creds["game"].url(redis_admin_url))
    service = GameService(redis, keys, GameConfig(width=320, height=240))
    task = asyncio.create_task(service.run())
    yield RpcClient(admin, keys, "manager")
    await service.stop()
    await asyncio.wait_for(task, 10)
    await redis.aclose()


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


async def test_observation_carries_only_what_is_asked(game: RpcClient, admin, keys) -> None:
    await _started(game)
    await game.call("game", api.TIMESTEP, api.Empty(), api.Status, timeout_s=5)
    defuser = RpcClient(admin, keys, "defuser")
    obs = await defuser.call(
        "game", api.OBSERVE, api.ObserveRequest(frames=1, mask=True), api.Observation, timeout_s=10
    )
    assert len(obs.frames) == 1 and obs.mask is not None and obs.state is not None
    images = [base64.b64decode(f) for f in [*obs.frames, obs.mask]]
    assert all(i.startswith(PNG) for i in images)
    assert obs.png_bytes == sum(map(len, images))
    few = await defuser.call(
        "game",
        api.OBSERVE,
        api.ObserveRequest(frames=0, mask=True, state=False),
        api.Observation,
        timeout_s=10,
    )
    assert few.frames == [] and few.mask is not None and few.state is None
    many = await defuser.call(
        "game", api.OBSERVE, api.ObserveRequest(frames=4, mask=False), api.Observation, timeout_s=10
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
        obs = await defuser.call("game", api.OBSERVE, ask, api.Observation, timeout_s=10)
        if obs.state is not None and obs.state.focused is not None:
            break
    assert obs.state is not None and obs.state.focused is not None
    assert len(obs.frames) == frames
