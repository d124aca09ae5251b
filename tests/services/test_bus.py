"""The bus over a real Redis: RPC deadlines and faults, inbox draining, events, heartbeats, ACLs."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis.exceptions
from pydantic import BaseModel, TypeAdapter

from gptnt.errors import DeadlineExceeded, RemoteError, SimulatorError
from gptnt.services.bus import (
    EventStream,
    GameKeys,
    HeartbeatSender,
    Inbox,
    RpcClient,
    RpcServer,
    connect,
    create_users,
    read_heartbeats,
    wait_ready,
)
from gptnt.services.bus._rpc import RpcRequest


class Echo(BaseModel):
    text: str
    delay_s: float = 0.0


async def _echo(params: Echo) -> Echo:
    await asyncio.sleep(params.delay_s)
    if params.text == "boom":
        raise SimulatorError("Cannot send action to the game in PostGame state")
    if params.text == "bug":
        raise KeyError("internal")
    return Echo(text=params.text.upper())


@pytest.fixture
async def echo_server(admin, keys: GameKeys):
    server = RpcServer(admin, keys, "game")
    server.method("echo", Echo, _echo, callers=("manager", "defuser"))
    server.method("secret", Echo, _echo, callers=("manager",))
    task = asyncio.create_task(server.serve())
    yield server
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def test_rpc_round_trip(admin, keys, echo_server) -> None:
    client = RpcClient(admin, keys, "manager")
    got = await client.call("game", "echo", Echo(text="hi"), Echo, timeout_s=5)
    assert got.text == "HI"


async def test_concurrent_calls_get_their_own_replies(admin, keys, echo_server) -> None:
    client = RpcClient(admin, keys, "manager")
    texts = [f"m{i}" for i in range(20)]
    got = await asyncio.gather(
        *(
            client.call("game", "echo", Echo(text=t, delay_s=0.01 * (i % 3)), Echo, timeout_s=5)
            for i, t in enumerate(texts)
        )
    )
    assert [g.text for g in got] == [t.upper() for t in texts]


async def test_remote_exception_comes_back_typed(admin, keys, echo_server) -> None:
    client = RpcClient(admin, keys, "manager")
    with pytest.raises(RemoteError) as err:
        await client.call("game", "echo", Echo(text="boom"), Echo, timeout_s=5)
    assert err.value.kind == "SimulatorError"
    assert err.value.service == "game"
    assert "PostGame" in err.value.message
    with pytest.raises(RemoteError) as err:
        await client.call("game", "echo", Echo(text="bug"), Echo, timeout_s=5)
    assert err.value.kind == "KeyError"


async def test_method_not_offered_to_caller_is_refused(admin, keys, echo_server) -> None:
    client = RpcClient(admin, keys, "defuser")
    with pytest.raises(RemoteError) as err:
        await client.call("game", "secret", Echo(text="x"), Echo, timeout_s=5)
    assert err.value.kind == "PermissionError"


async def test_handler_overrunning_its_deadline_is_answered(admin, keys, echo_server) -> None:
    client = RpcClient(admin, keys, "manager")
    with pytest.raises((RemoteError, DeadlineExceeded)):
        await client.call("game", "echo", Echo(text="slow", delay_s=5), Echo, timeout_s=0.3)


async def test_a_handler_whose_answer_came_while_the_loop_stalled_is_not_cut(
    admin, keys, echo_server
) -> None:
    """The server's loop stalls (a long synchronous step) past the call's deadline while the
    handler's answer becomes ready: the server, like the caller, does not count the stall
    against the handler, so the answer is sent, not a DeadlineExceeded fault."""
    client = RpcClient(admin, keys, "manager")

    async def stall_once_the_handler_waits() -> None:
        await asyncio.sleep(0.1)  # the request is taken; the handler sleeps its 0.2 s
        time.sleep(1.0)  # the stall under test: a synchronous step blocks the loop

    stall = asyncio.create_task(stall_once_the_handler_waits())
    got = await client.call("game", "echo", Echo(text="late", delay_s=0.2), Echo, timeout_s=0.5)
    await stall
    assert got.text == "LATE"


async def test_a_handler_cut_by_the_deadline_is_the_callers_deadline_exceeded(admin, keys) -> None:
    """Whichever side sees the call's one deadline pass first, the caller gets
    ``DeadlineExceeded``: here the server's (the request it takes asks for less than the
    caller waits, as when the caller's wait was extended for a stall of its own loop)."""
    client = RpcClient(admin, keys, "manager")
    call = asyncio.create_task(
        client.call("game", "echo", Echo(text="slow", delay_s=5), Echo, timeout_s=5)
    )
    raw = await admin.blpop([keys.rpc("game", "manager")], timeout=5)
    assert raw is not None
    request = RpcRequest.model_validate_json(raw[1]).model_copy(update={"timeout_s": 0.2})
    await admin.rpush(keys.rpc("game", "manager"), request.model_dump_json())
    server = RpcServer(admin, keys, "game")
    server.method("echo", Echo, _echo)
    serving = asyncio.create_task(server.serve())
    try:
        with pytest.raises(DeadlineExceeded, match=r"game\.echo: echo overran its 0\.2 s"):
            await call
    finally:
        serving.cancel()
        await asyncio.gather(serving, return_exceptions=True)


async def test_no_server_means_deadline_exceeded(admin, keys) -> None:
    client = RpcClient(admin, keys, "manager")
    loop = asyncio.get_running_loop()
    start = loop.time()
    with pytest.raises(DeadlineExceeded, match="expert.turn"):
        await client.call("expert", "turn", Echo(text="x"), Echo, timeout_s=0.2)
    assert loop.time() - start < 2.0


async def test_inbox_drain_loses_and_duplicates_nothing(admin, keys) -> None:
    expert = Inbox(admin, keys, "expert")
    defuser = Inbox(admin, keys, "defuser")
    received: list[str] = []

    async def sender() -> None:
        for i in range(200):
            await expert.send("defuser", f"m{i}")

    async def drainer() -> None:
        while len(received) < 200:
            received.extend(m.text for m in await defuser.drain())
            await asyncio.sleep(0)

    await asyncio.wait_for(asyncio.gather(sender(), drainer()), timeout=10)
    assert received == [f"m{i}" for i in range(200)]
    assert await defuser.drain() == []


async def test_what_the_expert_may_push_that_is_not_a_message_is_skipped_and_counted(
    admin, keys, redis_admin_url
) -> None:
    """The Expert's Redis user may RPUSH anything onto the Defuser's inbox: each item that is
    not a ``Message`` is skipped and counted; the real messages around it arrive."""
    creds = await create_users(admin, keys)
    expert = connect(creds["expert"].url(redis_admin_url))
    try:
        sender = Inbox(expert, keys, "expert")
        await sender.send("defuser", "first")
        for junk in (
            b"{}",
            b"not json",
            b"\xff\xfe",
            b'{"kind": "message", "sender": "x"}',
            b"[" * 100_000,
            b'{"kind": "message", "sender": "expert", "text": 5}',
        ):
            await expert.rpush(keys.inbox("defuser"), junk)
        await sender.send("defuser", "second")
        defuser = Inbox(admin, keys, "defuser")
        assert [m.text for m in await defuser.drain()] == ["first", "second"]
        (line,) = defuser.unreadable.lines()
        assert line.startswith(f"6 messages unreadable in {keys.inbox('defuser')} (")
        assert await defuser.drain() == []
    finally:
        await expert.aclose()


class Ping(BaseModel):
    kind: str = "ping"
    n: int


async def test_events_are_durable_for_a_late_reader(admin, keys) -> None:
    adapter = TypeAdapter(Ping)
    await EventStream(admin, keys, adapter).publish(Ping(n=1))
    await EventStream(admin, keys, adapter).publish(Ping(n=2))
    reader = EventStream(admin, keys, adapter)
    assert (await reader.wait_for(Ping, timeout_s=1)).n == 1
    assert (await reader.wait_for(Ping, timeout_s=1)).n == 2
    assert await reader.wait_for(Ping, timeout_s=0.2) is None


async def test_heartbeat_expires_when_the_sender_stops(admin, keys) -> None:
    sender = HeartbeatSender(admin, keys, "defuser", interval_s=0.05, ttl_s=0.3)
    sender.state = "ready"
    await sender.beat()
    beat = (await read_heartbeats(admin, keys, ["defuser"]))["defuser"]
    assert beat is not None and beat.state == "ready" and beat.seq == 1
    await asyncio.sleep(0.5)
    assert (await read_heartbeats(admin, keys, ["defuser"]))["defuser"] is None


async def test_a_service_announces_readiness_once_to_a_blocked_waiter(
    admin, keys, redis_admin_url
) -> None:
    """The first beat in state ``ready`` wakes a waiter blocked on the readiness list, under the
    service's own ACL user; later beats (and beats before it is ready) announce nothing."""
    creds = await create_users(admin, keys)
    game = connect(creds["game"].url(redis_admin_url))
    sender = HeartbeatSender(game, keys, "game")
    try:
        await sender.beat()  # still starting
        assert await wait_ready(admin, keys, {"game", "defuser"}, timeout_s=0.05) is None
        waiter = asyncio.create_task(wait_ready(admin, keys, {"game", "defuser"}, timeout_s=30))
        await asyncio.sleep(0.05)
        assert not waiter.done()
        sender.state = "ready"
        await sender.beat()
        assert await asyncio.wait_for(waiter, 10) == "game"
        await sender.beat()  # announced once: nothing more to pop
        assert await wait_ready(admin, keys, {"game"}, timeout_s=0.05) is None
    finally:
        await game.aclose()


async def test_expert_acl_reaches_only_the_inboxes(admin, keys, redis_admin_url) -> None:
    creds = await create_users(admin, keys)
    expert = connect(creds["expert"].url(redis_admin_url))
    game = connect(creds["game"].url(redis_admin_url))
    try:
        # What the Expert may do: write the Defuser's inbox, drain its own, serve the manager.
        await Inbox(expert, keys, "expert").send("defuser", "cut the third wire")
        assert [m.text for m in await Inbox(admin, keys, "defuser").drain()] == [
            "cut the third wire"
        ]
        await Inbox(admin, keys, "defuser").send("expert", "three wires")
        assert [m.text for m in await Inbox(expert, keys, "expert").drain()] == ["three wires"]
        await HeartbeatSender(expert, keys, "expert").beat()

        # The game service publishes an event and beats; the Expert can see none of it.
        await EventStream(game, keys, TypeAdapter(Ping)).publish(Ping(n=1))
        await HeartbeatSender(game, keys, "game").beat()
        forbidden = [
            lambda: expert.get(keys.heartbeat("game")),
            lambda: expert.xread({keys.events: "0"}),
            lambda: expert.xadd(keys.events, {"event": "{}"}),
            lambda: expert.rpush(keys.rpc("game", "defuser"), "{}"),
            lambda: expert.rpush(keys.rpc("game", "expert"), "{}"),
            lambda: expert.lrange(keys.rpc("defuser", "manager"), 0, -1),
            lambda: expert.blpop([keys.reply("defuser", "game", "x")], timeout=0.01),
            lambda: expert.lpop(keys.reply("manager", "game", "x")),
            lambda: expert.lpop(keys.reply("manager", "defuser", "x")),
            lambda: expert.rpush(keys.reply("manager", "game", "x"), "{}"),
            lambda: expert.publish(f"{keys.prefix}game:events", "x"),
            lambda: expert.scan(),
            lambda: expert.keys("*"),
            lambda: expert.get(GameKeys("other").inbox("expert")),
        ]
        for attempt in forbidden:
            with pytest.raises(redis.exceptions.NoPermissionError):
                await attempt()
        sub = expert.pubsub()
        with pytest.raises(redis.exceptions.NoPermissionError):
            await sub.subscribe(f"{keys.prefix}game:events")
            await sub.get_message(timeout=1.0)
        await sub.aclose()
    finally:
        await expert.aclose()
        await game.aclose()


async def test_on_the_embedded_valkey_a_partner_inbox_is_write_only(
    admin, keys, redis_admin_url
) -> None:
    """Valkey 8 (Redis 7 ACL selectors): each player may send to its partner's inbox but not
    read it. Skipped on a Redis 6.2 server, which cannot split key permissions."""
    version = int(str((await admin.info("server"))["redis_version"]).split(".")[0])
    if version < 7:
        pytest.skip(f"Redis {version}: key permissions are not split by direction")
    creds = await create_users(admin, keys)
    for role, partner in (("expert", "defuser"), ("defuser", "expert")):
        player = connect(creds[role].url(redis_admin_url))
        try:
            await Inbox(player, keys, role).send(partner, "hello")
            with pytest.raises(redis.exceptions.NoPermissionError):
                await player.lrange(keys.inbox(partner), 0, -1)
        finally:
            await player.aclose()


async def test_game_user_cannot_read_player_inboxes(admin, keys, redis_admin_url) -> None:
    creds = await create_users(admin, keys)
    game = connect(creds["game"].url(redis_admin_url))
    try:
        for role in ("defuser", "expert"):
            with pytest.raises(redis.exceptions.NoPermissionError):
                await game.lrange(keys.inbox(role), 0, -1)
    finally:
        await game.aclose()


async def test_a_deadline_around_bus_calls_is_never_lost(admin, keys) -> None:
    """Hundreds of deadlines of 0–300 µs around real bus calls: each one cuts its wait (with
    redis-py's default socket timeout, ``asyncio.wait_for`` under each send lost most of them),
    and the client stays usable afterwards."""
    from gptnt.services.bus import within

    cut = 0
    for i in range(300):
        try:
            async with within(i % 30 * 1e-5, "probe"):
                await admin.rpush(keys.inbox("expert"), "x")
                await admin.blpop([keys.inbox("defuser")], timeout=0.5)
        except DeadlineExceeded:
            cut += 1
    assert cut == 300
    assert await admin.ping()


async def test_a_call_nobody_answers_ends_at_its_own_deadline(admin, keys) -> None:
    """The reply wait blocks on Redis without a timeout of its own: the caller's deadline
    ends it, with a message naming the call (long waits: ``tests/integration/test_slow_turns``)."""
    client = RpcClient(admin, keys, "manager")
    with pytest.raises(DeadlineExceeded, match=r"game.echo: no reply within 1\.5 s"):
        await client.call("game", "echo", Echo(text="nobody serves"), Echo, timeout_s=1.5)


async def test_a_virtual_clock_drain_takes_only_what_was_delivered_by_then(admin, keys) -> None:
    expert = Inbox(admin, keys, "expert")
    defuser = Inbox(admin, keys, "defuser")
    for at in (2.0, 5.0, 9.5):
        await expert.send("defuser", f"at {at:g}", at=at)
    assert [m.text for m in await defuser.drain(until=4.0)] == ["at 2"]
    assert await defuser.drain(until=4.9) == []
    assert [m.text for m in await defuser.drain(until=9.5)] == ["at 5", "at 9.5"]
    assert await defuser.drain() == []
