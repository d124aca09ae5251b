"""The Game Service: one game backend behind the bus.

It answers the manager's lifecycle calls (start in the dark and pause, lights on and pause
again, pause/resume, one sync time step) and the Defuser's observation and action calls. A
monitor polls the backend at 5 Hz and publishes ``GameOver`` on the event stream as soon as the
bomb is solved or explodes. Frames are fetched as PNG from backends that can (our simulator), encoded once here from
those that cannot (the shipped mod), and only the frames asked for are sent.

The startup's three waits (for ``Setup``, for ``LightsOff`` after ``/startmission``, and the
real-time run from the dark to ``LightsOn``) are asked of a backend that advertises the
``fast-forward`` extension (our simulator) at once: before ``LightsOn`` the bomb's clock has not
started, no frame is captured and ``/state`` is disabled (docs/protocol.md §4.1, §4.3), so
skipping the wait changes nothing of the episode but its wall time, and play starts at exactly
the time limit instead of a poll's overshoot below it. Any other backend (the shipped mod, our
C# mod, a recorded stub of either) gets the mod's own startup, unchanged: poll ``/health``,
time scale 1 until ``LightsOn``, pause.

While the game is paused, nothing but our own calls changes it: ``/timestep`` returns only once
the game is paused again with every module settled (docs/protocol.md §2.6), and between calls
the clock is stopped. So the lifecycle and state last read while paused stay true until the next
call that can change the game (an action, a step, resume, start); a sync Defuser's observation
reuses them instead of asking ``/health`` and ``/state`` again (one ``/state`` per Defuser turn:
the one after its action). With the clock running (async), every observation reads afresh. The monitor, too, only watches
``/health`` while such a reading is kept: the game cannot end between our calls, and each call
that can end it reads the state (and publishes the game over) itself.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import time

import redis.asyncio as aioredis
from pydantic import TypeAdapter

from gptnt.config import GameConfig
from gptnt.errors import BusError, GameHTTPError, GameRefusedError, GptntError, ProtocolError
from gptnt.protocol import MOD_STEP_TIMEOUT_MS, BombState, Lifecycle, MissionConfig, kind_spec
from gptnt.protocol.client import FAST_FORWARD, GameClient
from gptnt.services.bus import EventStream, GameKeys, HeartbeatSender, RpcServer
from gptnt.services.game import api
from gptnt.services.game._backend import Backend

log = logging.getLogger(__name__)

_FAST_POLL_S = 0.02
ADVANCE_STEP_MS = MOD_STEP_TIMEOUT_MS // 2
"""The longest ``/timestep`` of a virtual-clock advance: well inside the mod's 10 s."""  # while waiting for a lifecycle change the manager is blocked on


class GameService:
    def __init__(
        self,
        redis: aioredis.Redis,
        keys: GameKeys,
        config: GameConfig,
    ) -> None:
        self._redis = redis
        self._keys = keys
        self._backend = Backend(config)
        self._config = config
        self._events = EventStream(redis, keys, TypeAdapter(api.GameEvent))
        self._heartbeat = HeartbeatSender(redis, keys, "game")
        self._stop = asyncio.Event()
        self._client: GameClient | None = None
        self._fast_forward = False  # the backend advertised the extension (module doc)
        self._mission: MissionConfig | None = None
        self._started = False  # first lights-on seen: game over is now possible
        self._over_sent = False
        self._paused = False  # time scale 0 (or /timestep's own pause after it)
        self._changes = 0  # calls made that can change the game
        self._played = 0.0  # virtual clock: game seconds stepped since lights-on (``advance``)
        self._still: tuple[Lifecycle, BombState] | None = None
        """The lifecycle and state read while paused since the last change (module doc)."""

    # ------------------------------------------------------------------ running

    async def run(self) -> None:
        """Serve until ``stop`` is called (or the task is cancelled)."""
        self._client = await self._backend.open()
        self._fast_forward = FAST_FORWARD in self._client.extensions
        server = RpcServer(self._redis, self._keys, "game")
        manager_only: tuple = ("manager",)
        both: tuple = ("manager", "defuser")
        server.method(api.START, api.StartRequest, self.start, callers=manager_only)
        server.method(api.LIGHTS_ON, api.Empty, self.lights_on, callers=manager_only)
        server.method(api.PAUSE, api.Empty, self.pause, callers=manager_only)
        server.method(api.RESUME, api.Empty, self.resume, callers=manager_only)
        server.method(api.TIMESTEP, api.Empty, self.timestep, callers=manager_only)
        server.method(api.ADVANCE, api.AdvanceRequest, self.advance, callers=manager_only)
        server.method(api.STOP, api.Empty, self.stop, callers=manager_only)
        server.method(api.STATUS, api.Empty, self.status, callers=both)
        server.method(api.STATE, api.Empty, self.state, callers=both)
        server.method(api.OBSERVE, api.ObserveRequest, self.observe, callers=("defuser",))
        server.method(api.ACT, api.ActRequest, self.act, callers=both)
        self._heartbeat.state = "ready"
        tasks = [
            asyncio.create_task(server.serve(self._stop)),
            asyncio.create_task(self._heartbeat.run(self._stop)),
            asyncio.create_task(self._monitor()),
        ]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            self._stop.set()  # one of them failed: stop the others
            await asyncio.gather(*tasks)
        finally:
            await self._backend.close()

    async def stop(self, _: api.Empty | None = None) -> api.Empty:
        self._stop.set()
        return api.Empty()

    @property
    def client(self) -> GameClient:
        assert self._client is not None, "the backend is opened by run()"
        return self._client

    # ------------------------------------------------------------------ lifecycle

    async def _reach(self, wanted: Lifecycle) -> None:
        """Wait for a scene change to ``wanted``, or fast-forward to it (module doc)."""
        if self._fast_forward:
            await self.client.fast_forward(wanted)
            return
        await self.client.wait_for(
            wanted, timeout_s=self._config.startup_timeout_s, poll_s=_FAST_POLL_S
        )

    def _changing(self, *, paused: bool) -> None:
        """A call that can change the game is being made; ``paused``: the time scale after it."""
        self._changes += 1
        self._still = None
        self._paused = paused

    async def start(self, request: api.StartRequest) -> api.Status:
        """Start the mission and pause as soon as the lights go off (startup pause #1)."""
        self._changing(paused=False)
        if await self.client.health() != Lifecycle.SETUP:
            await self.client.reset()
            await self._reach(Lifecycle.SETUP)
        self._mission = request.mission
        self._started = self._over_sent = False
        await self.client.start_mission(request.mission)
        await self._reach(Lifecycle.LIGHTS_OFF)
        await self.client.set_time_scale(0)
        self._changing(paused=True)
        return await self.status()

    async def lights_on(self, _: api.Empty) -> api.Status:
        """Run the clock until the lights are on, then pause again (startup pause #2); with
        the fast-forward extension the game gets there, paused, in one call."""
        self._changing(paused=False)
        if self._fast_forward:
            await self.client.fast_forward(Lifecycle.LIGHTS_ON)
        else:
            await self.client.set_time_scale(1)
            await self._reach(Lifecycle.LIGHTS_ON)
            await self.client.set_time_scale(0)
        self._started = True
        self._played = 0.0
        self._changing(paused=True)
        return await self.status()

    async def pause(self, _: api.Empty) -> api.Status:
        await self.client.set_time_scale(0)
        self._changing(paused=True)
        return await self.status()

    async def resume(self, _: api.Empty) -> api.Status:
        scale = self._mission.time_scale if self._mission else 1.0
        self._changing(paused=False)
        await self.client.set_time_scale(scale)
        return await self.status()

    async def timestep(self, _: api.Empty) -> api.Status:
        self._changing(paused=False)  # a step that overruns may leave the game running
        await self.client.timestep()
        self._changing(paused=True)
        return await self.status()

    async def advance(self, request: api.AdvanceRequest) -> api.Status:
        """Virtual clock: step the paused game to ``request.to`` game seconds into play, in
        ``/timestep`` steps of at most ``ADVANCE_STEP_MS`` (the mod times out a step of 10 s
        or more), and set the mission's step unit back. Game time into play is what this
        service stepped since lights-on, not the bomb's timer (which runs faster after a
        strike); the few tenths a ``/timestep`` runs on while a module emerges are the game's
        own, shown by the timer but not on the virtual clock."""
        mission = self._mission
        status = await self.status()
        if mission is None or status.over:
            return status
        while not status.over and (ms := round((request.to - self._played) * 1000)) >= 1:
            step = min(ms, ADVANCE_STEP_MS)
            self._changing(paused=False)
            await self.client.set_step_unit(step)
            try:
                await self.client.timestep()
            finally:
                await self.client.set_step_unit(mission.time_step_size)
            self._played = round(self._played + step / 1000, 3)
            self._changing(paused=True)
            status = await self.status()
        return status

    # ------------------------------------------------------------------ play

    async def status(self, _: api.Empty | None = None) -> api.Status:
        changes = self._changes
        lifecycle = await self.client.health()
        state: BombState | None = None
        if self._started:
            with contextlib.suppress(ProtocolError):
                state = await self.client.state()
        if state is not None and self._paused and changes == self._changes:
            self._still = (lifecycle, state)  # nothing changed the game while it was read
        status = api.Status.of(lifecycle, state, started=self._started)
        if status.over:
            await self._publish_over(lifecycle, state)
        return status

    async def state(self, _: api.Empty) -> BombState:
        return await self.client.state()

    async def observe(self, request: api.ObserveRequest) -> api.ObserveReply:
        wants_state = request.state or request.sequence_frames > 0
        still = self._still
        state = still[1] if still else await self.client.state() if wants_state else None
        wanted = request.frames
        focused = state.focused if state is not None else None
        if request.sequence_frames and focused is not None and kind_spec(focused.name).blinks:
            wanted = max(wanted, request.sequence_frames)
        frames: list[bytes] = []
        mask: bytes | None = None
        if wanted or request.mask:
            packed = await self.client.buffer_png(last=max(wanted, 1))
            frames = packed.frames[-wanted:] if wanted else []
            mask = packed.mask if request.mask else None
        lifecycle = still[0] if still else await self.client.health()
        return api.ObserveReply(
            status=api.Status.of(lifecycle, state, started=self._started),
            state=state if request.state else None,
            frames=[base64.b64encode(f).decode() for f in frames],
            mask=None if mask is None else base64.b64encode(mask).decode(),
            png_bytes=sum(map(len, frames)) + len(mask or b""),
        )

    async def act(self, request: api.ActRequest) -> api.ActReply:
        try:
            if request.at is not None:  # the game refuses it if the bomb ended meanwhile
                await self.advance(api.AdvanceRequest(to=request.at))
            self._changing(paused=self._paused)
            result = await self.client.action(request.action)
        except GameHTTPError as err:
            if err.status != 400:  # 400: the mod's refusal (docs/protocol.md §1.2); else a fault
                raise
            raise GameRefusedError(str(err), route=err.route, body=err.body) from None
        self._changing(paused=self._paused)  # a reading begun during the action is not kept
        return api.ActReply(result=result, status=await self.status())

    # ------------------------------------------------------------------ monitor

    async def _publish_over(self, lifecycle: Lifecycle, state: BombState | None) -> None:
        if self._over_sent:
            return
        self._over_sent = True
        self._heartbeat.state = "over"
        await self._events.publish(
            api.GameOver(state=state, lifecycle=lifecycle, detected_at=time.time())
        )

    async def _monitor(self) -> None:
        """Poll the backend; publish lifecycle changes, game over, and backend failure."""
        last: Lifecycle | None = None
        failures = 0
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self._config.poll_interval_s):
                    await self._stop.wait()
            if self._stop.is_set():
                return
            try:
                lifecycle = await self.client.health()
                if lifecycle != last:
                    last = lifecycle
                    self._heartbeat.state = lifecycle.value
                    await self._events.publish(
                        api.LifecycleChanged(lifecycle=lifecycle, at=time.time())
                    )
                if self._started and not self._over_sent and self._still is None:
                    await self.status()  # paused with a kept reading: nothing to see (above)
                failures = 0
            except BusError:
                raise  # Redis, not the game: the service ends and the manager sees it
            except GptntError as err:
                failures += 1
                log.warning("game backend poll failed (%d): %s", failures, err)
                if failures == self._config.backend_failures:
                    await self._events.publish(api.BackendFailed(reason=str(err), at=time.time()))
