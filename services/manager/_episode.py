"""One episode, start to finish: the Experiment Manager's core.

1. Create the game's ACL users and start its three services (game, Defuser, Expert).
2. Startup double pause: the game starts the mission and pauses in the dark; once both players
   are ready, it runs until the lights are on and pauses again, so play starts with the clock at
   the time limit.
3. Play: **sync** (Defuser turn → /timestep → Expert turn, the clock paused during turns) or
   **async** (two free-running player loops while the clock runs; game over arrives as an
   event).
4. Classify the outcome (solved / strikeout / timeout, or crashed with the reason), stop the
   services, delete the users and keys, write the summary last.

Every wait has a deadline; a watchdog turns a dead process or a heartbeat silent past its bound
(``Budget.liveness``) into
``crashed`` at once; and any exception at all ends this episode only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import signal
import threading
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

import redis.asyncio as aioredis
from pydantic import BaseModel, TypeAdapter

from gptnt import telemetry
from gptnt.config import GameConfig
from gptnt.errors import BusError, DeadlineExceeded, EpisodeError, GptntError, RemoteError
from gptnt.missions import Mission, get_mission
from gptnt.players.backends import provider_env
from gptnt.players.clock import VirtualClock
from gptnt.players.faults import ProviderWatch
from gptnt.players.prompts import ReflectedOutcome
from gptnt.players.seats import SeatChoice, prompt_hash
from gptnt.protocol import BombState, MissionConfig, Role
from gptnt.protocol.client import TOKEN_ENV
from gptnt.records import (
    Conditions,
    EpisodeEnded,
    EpisodeOutcome,
    EpisodeStarted,
    EpisodeWriter,
    GameStep,
    Ledger,
    ModuleResult,
    Parent,
    PlayerInfo,
    PlayerSettings,
    ReflectionEvent,
    Summary,
    Tokens,
    TurnEvent,
    add_costs,
    classify,
    disk_problem,
    episode_dir,
    harness,
)
from gptnt.services.bus import (
    CONFIG_ENV,
    DISK_FAULT,
    ENV_URL,
    REDIS_CALL_S,
    REDIS_DOWN,
    EventStream,
    GameKeys,
    RpcClient,
    Service,
    child_env,
    connect,
    create_users,
    delete_users,
    read_heartbeats,
    redis_lost,
    wait_ready,
    within,
)
from gptnt.services.game import GameService
from gptnt.services.game import api as game_api
from gptnt.services.manager._branch import Branch
from gptnt.services.manager._budget import GRACE_S, Budget
from gptnt.services.manager._launch import Handle, ProcessHandle, TaskHandle, service_module
from gptnt.services.manager._warm import WarmHandle, warm_server
from gptnt.services.manager.api import EpisodeSettings, EpisodeSpec, Fork
from gptnt.services.player import PlayerService, PlayerServiceConfig
from gptnt.services.player import api as player_api
from gptnt.waits import patient_timeout

log = logging.getLogger(__name__)

OnTurn = Callable[[EpisodeSpec, TurnEvent], None]
_WATCH_S = 0.25  # wall seconds between the watchdog's checks for a dead or hung service


def player_infos(spec: EpisodeSpec) -> list[PlayerInfo]:
    """Who plays each role, resolved as the player processes will resolve it (a scripted
    policy, or a model player config with its settings and prompt hash); a bad name fails
    here, before anything starts."""
    return [
        PlayerInfo(role=c.role, policy=c.name, kind=c.kind, privileged=c.privileged,
                   label=c.label, seat=c.seat, manual=c.manual_identity,
                   settings=_settings(c), prompt_hash=prompt_hash(c, mode=spec.mode),
                   identity=c.config.identity if c.config else None)
        for c in spec.lineup() if c is not None  # a solo episode has no Expert
    ]  # fmt: skip


def _settings(choice: SeatChoice) -> PlayerSettings | None:
    """A model's resolved settings for the record (the endpoint by host only: no secrets)."""
    config = choice.config
    if config is None:
        return None
    host = _host(config.base_url) if config.base_url else None
    return PlayerSettings(
        model=config.model, base_url_host=host, temperature=config.temperature,
        max_tokens=config.max_tokens, image_size=config.image_size,
        interaction=config.interaction,
        coordinates=config.coordinates if config.interaction == "coordinates" else None,
        thinking=config.thinking, tokens_per_image=config.tokens_per_image,
        input_limit=config.input_limit, execution_feedback=config.execution_feedback,
        thinking_budget=config.thinking_budget, chat_template_kwargs=config.template_kwargs,
        output=config.output, previous_frames=config.previous_frames,
        keep_thinking=config.keep_thinking, reflection=config.reflection,
    )  # fmt: skip


def _host(url: str) -> str:
    """``host[:port]`` of an endpoint: never its userinfo (``user:SECRET@``) or query."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    return f"{host}:{parts.port}" if parts.port else host


class Interrupt:
    """Set once (by a signal handler: ``install``, or a suite's) to end every episode in
    flight as ``interrupted``: each still stops its services and writes its summary and
    ledger line. Thread-safe: it may be set from any thread, and awaited in any event loop."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []
        self.reason = ""

    def set(self, reason: str) -> None:
        with self._lock:
            if self._event.is_set():
                return
            self.reason = reason
            self._event.set()
            waiters, self._waiters = self._waiters, []
        for loop, event in waiters:
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(event.set)

    def is_set(self) -> bool:
        return self._event.is_set()

    async def wait(self) -> None:
        event = asyncio.Event()
        with self._lock:
            if self._event.is_set():
                return
            waiter = (asyncio.get_running_loop(), event)
            self._waiters.append(waiter)
        try:
            await event.wait()
        finally:
            with self._lock:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)

    def install(self) -> None:
        """Set on SIGINT or SIGTERM in the running event loop. The first signal stops the
        episodes in flight cleanly (bounded); a second one kills the process at once."""
        loop = asyncio.get_running_loop()

        def handle(sig: signal.Signals) -> None:
            for each in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(each)
                signal.signal(each, signal.SIG_DFL)
            self.set(sig.name)

        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, handle, sig)


class Episode:
    """Runs one ``EpisodeSpec``; ``run`` never raises for a game-level failure."""

    def __init__(
        self,
        spec: EpisodeSpec,
        settings: EpisodeSettings,
        *,
        admin_url: str,
        run_dir: Path,
        on_turn: OnTurn | None = None,
        mission: Mission | None = None,
        interrupt: Interrupt | None = None,
        fork: Fork | None = None,
    ) -> None:
        self.spec = spec
        self.fork = fork
        self.settings = settings
        self.mission = _scaled(mission or get_mission(spec.mission_id), spec.time_factor)
        self.keys = GameKeys(uuid.uuid4().hex[:12])
        self.dir = episode_dir(run_dir, spec.key, spec.attempt)
        self._admin_url = admin_url
        self._on_turn = on_turn
        self._interrupt = interrupt or Interrupt()
        self._handles: list[Handle] = []
        self._providers = ProviderWatch()
        self._turns: dict[str, int] = {"defuser": 0, "expert": 0}
        self._messages: dict[str, int] = {"defuser": 0, "expert": 0}
        self._ready_seen: set[str] = set()
        self._tokens = Tokens()
        self._lineup: list[SeatChoice] = []  # the players present (no Expert when solo)
        self._cost: float | None = 0.0  # None once a model call had no price
        self.durable = True  # records synced to disk as they are written
        self.png_bytes: list[int] = []  # per Defuser turn (benchmark)
        self.turn_wall_s: dict[str, list[float]] = {"defuser": [], "expert": []}
        self._branch = Branch(fork) if fork is not None else None
        # A branch's game is started with its parent's session id: the game seeds its own
        # draws with it (lottery, /random), so the replay draws what the parent drew.
        parent_session = self._branch.started.session_id if self._branch else None
        self._session = parent_session or self.keys.game_id

    # ------------------------------------------------------------------ entry

    async def run(self) -> Summary:
        players = player_infos(self.spec)  # unknown policy names fail before anything starts
        self._lineup = [c for c in self.spec.lineup() if c is not None]
        self.budget = self._budget()  # a turn that leaves its call no time fails here
        if self.dir.exists():  # an attempt cut short by a killed run: start it afresh
            shutil.rmtree(self.dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        writer = EpisodeWriter(self.dir, durable=self.durable)
        self._writer = writer
        await self._connect()
        started = time.time()
        final: BombState | None = None
        outcome: EpisodeOutcome = "crashed"
        reason = ""
        limit = self.budget.episode_s
        try:
            writer.append(
                EpisodeStarted(
                    episode_id=self.dir.name, mission_id=self.mission.id, mode=self.spec.mode,
                    players=players, mission=self.mission.config.model_dump_json(by_alias=True),
                    rule_seed=self.spec.rule_seed, conditions=self._conditions(), at=started,
                    harness=harness(), parent=self._parent, session_id=self._session,
                )
            )  # fmt: skip
            async with patient_timeout(limit):  # a stall of this loop is not the game's
                final = await self._guarded()
            outcome, reason = classify(final)
        except _Interrupted:
            outcome, reason = "interrupted", f"interrupted by {self._interrupt.reason}"
        except TimeoutError:
            reason = f"the episode overran its wall-clock limit of {limit:g} s"
        except RemoteError as err:
            reason = err.message if err.kind == DISK_FAULT else str(err)
        except GptntError as err:
            reason = str(err)
        except REDIS_DOWN as err:
            reason = str(redis_lost("the manager's connection", err))
        except Exception as err:  # one episode's bug must not end the run
            reason = disk_problem(err) or f"{type(err).__name__}: {err}"
            if not reason.startswith("disk: "):
                log.exception("episode %s failed", self.spec.key)
        final = await self._wind_down(outcome, final)
        ended = time.time()
        summary = self._summary(players, outcome, reason, final, started, ended)
        try:
            writer.append(
                EpisodeEnded(episode_id=self.dir.name, outcome=outcome, reason=reason, at=ended)
            )
            writer.finish(summary)
        except OSError as err:  # a full disk: the episode crashed, whatever the game said
            problem = disk_problem(err, self.dir)
            if problem is None:
                raise
            summary = self._summary(players, "crashed", problem, final, started, ended)
            with contextlib.suppress(OSError):
                writer.finish(summary)  # a small file may still fit
            with contextlib.suppress(OSError):
                writer.close()
        await self._disconnect()
        return summary

    # ------------------------------------------------------------------ the served table
    # What the loop asks of the world, over the bus: the services' launch, their watchdog,
    # the game's calls, the players' turns and the shutdown. ``InProcessEpisode`` (the
    # random baseline) answers the same calls in this process.

    async def _connect(self) -> None:
        self._admin = connect(self._admin_url)
        self._rpc = RpcClient(self._admin, self.keys, "manager")

    async def _wind_down(
        self, outcome: EpisodeOutcome, final: BombState | None
    ) -> BombState | None:
        """Stop the services and delete their users and keys; the last state of a crashed or
        interrupted game (``final`` otherwise)."""
        # Clean up on a fresh connection pool: a crash may have left the old one wedged.
        await self._disconnect()
        await self._connect()
        if outcome in ("crashed", "interrupted") and final is None:
            final = await self._last_state()
        await self._shutdown()
        return final

    async def _disconnect(self) -> None:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(REDIS_CALL_S):
                await self._admin.aclose()

    def _budget(self) -> Budget:
        """Every deadline of this episode (``gptnt.services.manager._budget``)."""
        s = self.settings
        return Budget.of(
            self._lineup, self.spec.mode, self.mission.config, s, s.game, s.launch, self._clock
        )

    async def _guarded(self) -> BombState | None:
        """Play, racing a watchdog that raises as soon as a service dies, and the interrupt."""
        await self._open()
        play = asyncio.create_task(self._play())
        watch = asyncio.create_task(self._watch())
        stop = asyncio.create_task(self._interrupt.wait())
        tasks = {play, watch, stop}
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            # Bounded: a cancelled call must not be able to hold the episode open. Every task
            # is awaited here, so no exception is left unretrieved.
            await asyncio.wait(tasks, timeout=GRACE_S)
            for task in tasks:
                if task.done() and not task.cancelled():
                    task.exception()  # retrieved (raised below where it matters)
        if stop in done:
            raise _Interrupted
        if play in done:
            return play.result()
        if watch in done:
            watch.result()  # raises the watchdog's EpisodeError
        raise EpisodeError("the watchdog stopped without a reason")

    @property
    def _parent(self) -> Parent | None:
        return self._branch.parent(self.dir.parent.parent) if self._branch else None

    def _conditions(self) -> Conditions:
        return self.spec.conditions(self.mission.config.time_limit)

    @property
    def _step_seconds(self) -> float:
        """Game seconds per sync ``/timestep``: the mission's ``timeStepSize`` (the game applies
        it from ``/startmission``; the players' prompts say it)."""
        return self.mission.config.time_step_size / 1000.0

    @property
    def _roles(self) -> tuple[Role, ...]:
        return tuple(c.role for c in self._lineup)

    # ------------------------------------------------------------------ services

    async def _open(self) -> None:
        """Create the game's users and launch its services."""
        async with within(REDIS_CALL_S, "creating the game's users"):
            creds = await create_users(self._admin, self.keys)
        users = {name: c.url(self._admin_url) for name, c in creds.items()}
        if self.settings.launch == "warm":
            await self._launch_warm(users)
        else:
            self._launch(users)

    def _children(
        self, users: dict[Service, str]
    ) -> list[tuple[Service, list[str], dict[str, str], Path]]:
        """(service, command-line arguments, environment, log file) of each service process.

        The command line holds nothing secret (it is public: ``/proc/PID/cmdline``); the
        environment is the allow-list of ``child_env`` with the service's own Redis user, its
        config section, and only the secrets its own job needs: the game service the game
        token (a game at a URL), a model player its own provider key."""
        gid = self.keys.game_id
        logs = self.dir / "logs"
        game = self._game_config()
        at_url = game.backend not in ("sim", "sim-process")
        token = {TOKEN_ENV: os.environ[TOKEN_ENV]} if at_url and os.environ.get(TOKEN_ENV) else {}
        trace = telemetry.child_carrier()  # each service's spans under this episode's
        out: list[tuple[Service, list[str], dict[str, str], Path]] = [("game", ["--game-id", gid],
                child_env({ENV_URL: users["game"], CONFIG_ENV: game.model_dump_json(), **token,
                           **trace}, network=at_url),
                logs / "game.log")]  # fmt: skip
        for c in self._lineup:
            keys = provider_env(c.config, os.environ)
            env = {
                ENV_URL: users[c.role],
                CONFIG_ENV: self._player_config(c).model_dump_json(),
                **trace,
            }
            out.append((c.role, ["--game-id", gid],
                        child_env({**env, **keys}, network=c.config is not None),
                        logs / f"{c.role}.log"))  # fmt: skip
        return out

    def _game_config(self) -> GameConfig:
        """The section the Game Service runs with: the settings' game section, whole, with this
        episode's rule seed (the same value on every launch)."""
        return self.settings.game.model_copy(update={"rule_seed": self.spec.rule_seed})

    def _player_config(self, choice: SeatChoice) -> PlayerServiceConfig:
        """The section a seat's Player Service runs with (the same value on every launch)."""
        return PlayerServiceConfig(
            seat=choice, mode=self.spec.mode, seed=self.spec.policy_seed,
            step_seconds=self._step_seconds, episode_dir=self.dir,
            game_call_s=self.settings.game_call_s, clock=self._clock,
            call_s=self.budget.turn(choice.role).call_s,
            restore=self._branch.restore(choice.role) if self._branch else None,
        )  # fmt: skip

    @property
    def _clock(self) -> VirtualClock | None:
        """The virtual clock the players time their turns by (``None``: the wall clock), at
        the mission's time scale (game seconds per second, as async runs the clock)."""
        clock = self.spec.virtual_clock
        if clock is None:
            return None
        return clock.model_copy(update={"time_scale": self.mission.config.time_scale})

    async def _launch_warm(self, users: dict[Service, str]) -> None:
        """Fork the services from this process's warm server (``gptnt.services.manager._warm``)."""
        server = warm_server()
        self._handles = []
        for name, args, env, log in self._children(users):
            log.parent.mkdir(parents=True, exist_ok=True)
            pid = await server.spawn(service_module(name), args, env, log)
            self._handles.append(WarmHandle(server, name, pid, log))

    def _launch(self, users: dict[Service, str]) -> None:
        """Start the services, each connecting as its own ACL user (``users``: their URLs)."""
        if self.settings.launch == "process":
            self._handles = [
                ProcessHandle(name, args, env, log)
                for name, args, env, log in self._children(users)
            ]
            return

        def player(choice: SeatChoice) -> Callable[[aioredis.Redis], Awaitable[None]]:
            config = self._player_config(choice)
            return lambda redis: PlayerService(redis, self.keys, config).run()

        game = self._game_config()
        self._handles = [
            TaskHandle(
                "game",
                users["game"],
                lambda redis: GameService(redis, self.keys, game).run(),
            ),
            *(TaskHandle(c.role, users[c.role], player(c)) for c in self._lineup),
        ]

    async def _watch(self) -> None:
        """Raise ``EpisodeError`` when a service process ends, or when a service that beat once
        has not beaten for its liveness bound (``Budget.liveness``): progress is a new beat
        (``seq``) seen on this process's clock, read before it is judged, so neither a starved
        service nor a starved manager turns a live one into a crash."""
        progress: dict[str, tuple[int, float]] = {}  # service → (last seq seen, seen at)
        names = [handle.name for handle in self._handles]
        while True:
            await asyncio.sleep(_WATCH_S)
            for handle in self._handles:
                failure = handle.failure()
                if failure:
                    raise EpisodeError(failure)
            try:
                beats = await read_heartbeats(self._admin, self.keys, names, timeout_s=REDIS_CALL_S)
            except DeadlineExceeded:
                raise EpisodeError(f"redis: no answer within {REDIS_CALL_S:g} s") from None
            now = time.monotonic()
            for name, beat in beats.items():
                last = progress.get(name)
                if beat is not None and (last is None or beat.seq != last[0]):
                    progress[name] = (beat.seq, now)
                    self._ready_seen.add(name)
                elif last is not None and now - last[1] > self.budget.silence_s(name):
                    bound = self.budget.silence_s(name)
                    raise EpisodeError(
                        f"{name} heartbeat silent for {now - last[1]:.0f} s, past its "
                        f"{bound:g} s bound (the longest wait on it): the service hung or died"
                    )

    async def _wait_ready(self, names: tuple[Service, ...]) -> None:
        """Block until each of ``names`` announces it serves (``gptnt.services.bus.wait_ready``): the
        episode goes on the moment they are up, not at the watchdog's next poll; a service that
        dies meanwhile is the watchdog's to report."""
        limit = self.settings.game.startup_timeout_s
        deadline = time.monotonic() + limit
        while missing := {n for n in names if n not in self._ready_seen}:
            left = deadline - time.monotonic()
            ready = await wait_ready(self._admin, self.keys, missing, timeout_s=left)
            if ready is None:
                raise EpisodeError(f"{', '.join(sorted(missing))} not ready within {limit:g} s")
            self._ready_seen.add(ready)

    async def _shutdown(self) -> None:
        """Ask every service still running to stop (one that is gone cannot answer: asking
        would wait out ``stop_timeout_s``), then make sure; delete the game's users and keys."""
        s = self.settings
        gone = {h.name for h in self._handles if h.failure()}
        stop = player_api.StopRequest(reason="episode over")
        calls = [self._call_quietly(role, player_api.STOP, stop, player_api.Stopped)
                 for role in self._roles if role not in gone]  # fmt: skip
        if "game" not in gone:
            calls.append(
                self._call_quietly("game", game_api.STOP, game_api.Empty(), game_api.Empty)
            )
        with contextlib.suppress(Exception):
            await asyncio.gather(*calls)
        await asyncio.gather(
            *(h.finish(s.stop_timeout_s) for h in self._handles), return_exceptions=True
        )
        with contextlib.suppress(Exception):
            async with within(REDIS_CALL_S, "deleting the game's users and keys"):
                await delete_users(self._admin, self.keys)
                match = f"{self.keys.prefix}*"
                keys = [k async for k in self._admin.scan_iter(match=match, count=500)]
                if keys:
                    await self._admin.delete(*keys)

    async def _call_quietly(
        self, server: Service, method: str, params: BaseModel, result_type: type[BaseModel]
    ) -> None:
        with contextlib.suppress(GptntError):
            await self._rpc.call(
                server, method, params, result_type, timeout_s=self.settings.stop_timeout_s
            )

    async def _last_state(self) -> BombState | None:
        if not self._handles or self._handles[0].failure():
            return None
        try:
            return await self._final_state()
        except (GptntError, *REDIS_DOWN):  # the state is a nicety; the summary is not
            return None

    # ------------------------------------------------------------------ play

    async def _game(
        self, method: str, params: BaseModel | None = None, *, timeout_s: float | None = None
    ) -> game_api.Status:
        """Call a game-service method that answers with its ``Status``."""
        return await self._rpc.call(
            "game",
            method,
            params or game_api.Empty(),
            game_api.Status,
            timeout_s=timeout_s or self.settings.game_call_s,
        )

    async def _final_state(self) -> BombState:
        return await self._rpc.call(
            "game", game_api.STATE, game_api.Empty(), BombState, timeout_s=self.settings.game_call_s
        )

    async def _start(self, config: MissionConfig) -> game_api.Status:
        """Start the mission and turn the lights on, with both startup pauses."""
        s = self.settings
        self._events = EventStream(self._admin, self.keys, TypeAdapter(game_api.GameEvent))
        await self._wait_ready(("game",))
        # Startup pause #1: the mission is loaded, the clock stopped in the dark.
        await self._game(
            game_api.START,
            game_api.StartRequest(mission=config),
            timeout_s=s.game.startup_timeout_s,
        )
        await self._wait_ready(self._roles)
        # Startup pause #2: lights on, clock stopped at the time limit.
        return await self._game(game_api.LIGHTS_ON, timeout_s=s.game.startup_timeout_s)

    async def _call_turn(
        self, role: Role, request: player_api.TurnRequest, timeout_s: float
    ) -> player_api.TurnReply:
        """One turn of ``role``'s Player Service."""
        return await self._rpc.call(
            role, player_api.TURN, request, player_api.TurnReply, timeout_s=timeout_s
        )

    async def _play(self) -> BombState | None:
        config = self.mission.config.model_copy(
            update={"session_id": self._session, "rule_seed": self.spec.rule_seed}
        )
        status = await self._start(config)
        start = GameStep(
            episode_id=self.dir.name, what="start", at=time.time(),
            seconds_remaining=status.seconds_remaining, strikes=status.strikes,
        )  # fmt: skip
        self._writer.append(start)
        if self.spec.mode == "sync":
            await self._play_sync()
        elif self.spec.clock == "virtual":
            await self._play_virtual()
        else:
            await self._play_async()
        final = await self._final_state()
        await self._reflect(final)
        return final

    async def _reflect(self, final: BombState) -> None:
        """The reflection step (``PlayerConfig.reflection``): after a game that ended on the
        bomb, every player whose config asks for it reflects, all at once, each within its
        turn's deadline. A reflection that gets no answer is recorded as such; it never
        changes the game's outcome."""
        outcome, _ = classify(final)
        roles = [c.role for c in self._lineup if c.config is not None and c.config.reflection]
        if outcome not in ("solved", "strikeout", "timeout") or not roles:
            return
        await asyncio.gather(*(self._reflect_one(role, outcome) for role in roles))

    async def _reflect_one(self, role: Role, outcome: ReflectedOutcome) -> None:
        deadline = self.budget.turn(role).turn_s
        started = time.time()
        try:
            reply = await self._rpc.call(
                role, player_api.REFLECT, player_api.ReflectRequest(outcome=outcome),
                player_api.ReflectReply, timeout_s=deadline,
            )  # fmt: skip
            event = reply.event
        except DeadlineExceeded:
            event = ReflectionEvent(
                episode_id=self.dir.name, role=role, outcome=outcome, started_at=started,
                ended_at=time.time(), text="",
                error=f"no reflection within the turn's {deadline:g} s deadline",
            )  # fmt: skip
        if event is None:
            return
        self._add_usage(event.tokens, event.cost_usd)
        self._writer.append(event)

    async def _turn(self, role: Role, *, at: float | None = None) -> player_api.TurnReply:
        n = self._turns[role]
        t0 = time.monotonic()
        deadline = self.budget.turn(role).turn_s
        try:
            with telemetry.span("turn", gptnt__role=role, gptnt__turn=n):
                reply = await self._call_turn(role, player_api.TurnRequest(turn=n, at=at), deadline)
        except DeadlineExceeded:
            raise EpisodeError(
                f"{role} turn {n} overran its {deadline:g} s deadline (turn_timeout_s of the "
                "player config)"
            ) from None
        self.turn_wall_s[role].append(time.monotonic() - t0)
        self._turns[role] = n + 1
        if reply.event.action.kind == "send_message":
            self._messages[role] += 1
        if role == "defuser":
            self.png_bytes.append(reply.png_bytes)
        self._add_usage(reply.event.tokens, reply.event.cost_usd)
        self._writer.append(reply.event)
        if self._branch is not None:  # a restored turn must be its parent's, exactly
            self._branch.check(reply.event)
        if self._on_turn is not None:
            self._on_turn(self.spec, reply.event)
        down = self._providers.see(role, reply.event.failed_call)
        if down is not None:  # the provider, not the model, is failing: no result to count
            raise EpisodeError(down)
        return reply

    def _add_usage(self, t: Tokens, cost: float | None) -> None:
        """Count a model call's tokens and cost into the episode's."""
        if t.input or t.output or t.cache_read or t.cache_write:  # a model's turn
            self._tokens = Tokens(
                input=self._tokens.input + t.input,
                output=self._tokens.output + t.output,
                cache_read=self._tokens.cache_read + t.cache_read,
                cache_write=self._tokens.cache_write + t.cache_write,
            )
        if cost != 0.0:  # a scripted turn's is 0.0 (None: the model has no price)
            self._cost = add_costs((self._cost, cost))

    async def _step(
        self,
        what: Literal["timestep", "advance"],
        method: str,
        params: BaseModel | None = None,
        *,
        game_time: float | None = None,
    ) -> game_api.Status:
        """Move the game by ``method`` and record the step: the game after it, and the wall
        seconds of its call."""
        t0 = time.monotonic()
        status = await self._game(method, params)
        self._writer.append(
            GameStep(
                episode_id=self.dir.name, what=what, at=time.time(), game_time=game_time,
                seconds_remaining=status.seconds_remaining, strikes=status.strikes,
                wall_s=round(time.monotonic() - t0, 6),
            )
        )  # fmt: skip
        return status

    async def _play_sync(self) -> None:
        """Defuser turn → /timestep (3 s of game time, instant on the simulator) → Expert turn."""
        expert = "expert" in self._roles  # a solo model holds both roles
        while True:
            reply = await self._turn("defuser")
            # The reply carries the game's status after the turn; ask only if it could not.
            after = reply.status or await self._game(game_api.STATUS)
            if after.over:
                return
            status = await self._step("timestep", game_api.TIMESTEP)
            if status.over:
                return
            if self.settings.step_sleep_s:
                await asyncio.sleep(self.settings.step_sleep_s)
            if expert:
                await self._turn("expert")

    async def _play_virtual(self) -> None:
        """Async on the virtual clock (``gptnt.players.clock``): the game stays paused; each
        player's next turn starts on the game's clock where its last one dispatched, plus the
        idle pause; the turn that starts first is played first (the Defuser on a tie), after
        the game is stepped to its start if it is the Defuser's (the Expert never sees the
        game). A turn's message reaches the partner at its dispatch, its action the game."""
        clock = self._clock
        assert clock is not None
        idle = self.settings.idle_sleep_s * clock.time_scale
        start: dict[Role, float] = dict.fromkeys(self._roles, 0.0)
        while True:
            role = min(self._roles, key=lambda r: (start[r], self._roles.index(r)))
            if role == "defuser":
                to = game_api.AdvanceRequest(to=start[role])
                status = await self._step("advance", game_api.ADVANCE, to, game_time=start[role])
                if status.over:
                    return
            reply = await self._turn(role, at=start[role])
            if reply.status is not None and reply.status.over:
                return
            dispatched = reply.event.dispatch_game_time
            assert dispatched is not None, "a virtual-clock turn records its dispatch"
            start[role] = round(dispatched + idle, 3)

    async def _play_async(self) -> None:
        """Both players loop freely while the clock runs, until the game-over event."""
        await self._game(game_api.RESUME)
        self._writer.append(GameStep(episode_id=self.dir.name, what="resume", at=time.time()))

        game_over = asyncio.Event()

        async def loop(role: Role) -> None:
            while not game_over.is_set():
                await self._turn(role)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.settings.idle_sleep_s):
                        await game_over.wait()

        async def over() -> None:
            limit = self.budget.game_over_s or 0.0
            event = await self._events.wait_for(
                (game_api.GameOver, game_api.BackendFailed), timeout_s=limit
            )
            if event is None:
                raise EpisodeError(f"no game-over event within {limit:g} s of play")
            if isinstance(event, game_api.BackendFailed):
                raise EpisodeError(f"game backend failed: {event.reason}")
            game_over.set()

        loops = [asyncio.create_task(loop(role)) for role in self._roles]
        watcher = asyncio.create_task(over())
        tasks = [*loops, watcher]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()  # a player's error or the backend's failure: crashed
            # Game over: let the turns in flight finish (and be recorded), within a grace period.
            await asyncio.wait(loops, timeout=GRACE_S)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(BusError):
            await self._game(game_api.PAUSE)

    # ------------------------------------------------------------------ summary

    def _summary(
        self,
        players: list[PlayerInfo],
        outcome: EpisodeOutcome,
        reason: str,
        final: BombState | None,
        started: float,
        ended: float,
    ) -> Summary:
        limit = float(self.mission.config.time_limit)
        remaining = final.timer_module.seconds_remaining if final else None
        return Summary(
            episode_id=self.dir.name, mission_id=self.mission.id, mode=self.spec.mode,
            rule_seed=self.spec.rule_seed, attempt=self.spec.attempt, players=players, outcome=outcome, reason=reason,
            modules=[ModuleResult(name=m.name, solved=m.is_solved) for m in final.modules] if final else [],
            strikes=len(final.strikes) if final else 0, time_limit=limit,
            game_time_used=None if remaining is None else limit - remaining,
            turns=dict(self._turns), messages=dict(self._messages), tokens=self._tokens,
            cost_usd=self._cost, conditions=self._conditions(), parent=self._parent,
            final_state=final.to_wire() if final else None, started_at=started, ended_at=ended,
        )  # fmt: skip


def _scaled(mission: Mission, factor: float) -> Mission:
    """The mission with its time limit scaled (the parametric time-limit suites)."""
    if factor == 1:
        return mission
    config = mission.config
    limit = max(1, round(config.time_limit * factor))
    scaled = type(config).model_validate(
        {**config.model_dump(), "time_limit": limit, "needy_time": min(config.needy_time, limit)}
    )
    return mission.model_copy(update={"config": scaled})


class _Interrupted(Exception):
    """The run was interrupted (the episode's ``Interrupt`` was set)."""


async def traced(episode: Episode) -> Summary:
    """Play ``episode`` in its ``episode`` span (a child of the current span: a suite's, when
    a worker plays it), which names its outcome."""
    spec = episode.spec
    with telemetry.span("episode", gptnt__episode=spec.key, gptnt__mission=spec.mission_id,
                        gptnt__mode=spec.mode, gptnt__suite=spec.suite,
                        gptnt__attempt=spec.attempt) as span:  # fmt: skip
        summary = await episode.run()
        span.set_attribute("gptnt.outcome", summary.outcome)
    return summary


async def play_episode(
    spec: EpisodeSpec,
    settings: EpisodeSettings,
    *,
    admin_url: str,
    run_dir: Path,
    on_turn: OnTurn | None = None,
    park_after: int | None = None,
    interrupt: Interrupt | None = None,
    fork: Fork | None = None,
) -> Summary:
    """Run one episode and add it to the run's ledger; the ``park_after``-th crash of an
    episode parks it (no more retries). Interrupted attempts do not count as crashes.
    ``fork``: the episode is a counterfactual replay's branch (``gptnt.services.manager.replay``)."""
    episode = Episode(
        spec, settings, admin_url=admin_url, run_dir=run_dir, on_turn=on_turn,
        interrupt=interrupt, fork=fork,
    )  # fmt: skip
    return await settle(episode, run_dir, park_after=park_after)


async def settle(episode: Episode, run_dir: Path, *, park_after: int | None = None) -> Summary:
    """Run ``episode`` (``traced``) and add it to the ledger of ``run_dir`` (``play_episode``)."""
    spec = episode.spec
    summary = await traced(episode)
    ledger = Ledger(run_dir)
    try:
        ledger.settle(spec.key, summary, park_after=park_after)
    except OSError as err:  # the summary is the truth; a rerun reconciles the ledger from it
        problem = disk_problem(err, ledger.path)
        if problem is None:
            raise
        log.info("episode %s: ledger line not written: %s", spec.key, problem)
        if summary.outcome != "crashed":
            summary = summary.model_copy(update={"outcome": "crashed", "reason": problem})
    return summary


def unplayed_summary(spec: EpisodeSpec, reason: str, started_at: float) -> Summary:
    """The summary of an attempt that ended with no record of its own (its worker was lost,
    or what it sent back was refused): ``crashed`` with ``reason``, no turns."""
    mission = _scaled(get_mission(spec.mission_id), spec.time_factor)
    limit = mission.config.time_limit
    return Summary(
        episode_id=episode_dir(Path(), spec.key, spec.attempt).name, mission_id=spec.mission_id,
        mode=spec.mode, rule_seed=spec.rule_seed, attempt=spec.attempt,
        players=player_infos(spec), outcome="crashed", reason=reason, time_limit=float(limit),
        conditions=spec.conditions(limit), started_at=started_at, ended_at=time.time(),
    )  # fmt: skip
