"""The embedded game: lifecycle, clock, camera, actions and frames around a ``Bomb``.

``Game`` is the in-process twin of the shipped mod's HTTP routes (docs/protocol.md §2); the
server wraps each method in a route. Refusals raise ``SimulatorError`` with the mod's body text
and an honest status code.

**Time.** Game time is virtual and advanced lazily: every call first *catches up*, adding
``(wall now − wall at the last call) × time scale`` of game time, stepping through every event
in order (each 0.25 s frame boundary, lights on, deferred camera moves, the bomb clock reaching
zero). Nothing changes between calls except as a function of time, so catching up late is
exact. ``timestep`` adds ``timeStepSize`` of game time at once, with no wall-clock wait.

**Lifecycle** (§4): ``Gameplay`` at boot → ``Setup`` after ``transition_seconds`` of wall time;
``start_mission`` → ``Transitioning`` → ``Gameplay`` → ``LightsOff`` (each ``transition_seconds``
of wall time); once game time runs in the dark, the lights come on after ``LIGHTS_ON_DELAY``
(our choice); ``FIRST_LIGHTS_ON_DELAY`` (1.5 s) later the state is ``LightsOn``, the bomb
timer starts counting down from the full time limit, ``/state`` answers and frames are captured, one per 0.25 s of game time into a
16-frame ring. When the bomb is solved or explodes, capture stops and the state becomes
``PostGame`` ``transition_seconds`` of wall time later. ``reset`` goes back to ``Setup``.

**Game time** here is *bomb time*: seconds since the lights came on (negative in the dark
before); the bomb and its modules only ever see t ≥ 0.

**Camera** (§6.3): the bomb is held facing front at lights-on. Clicking a module zooms in and
``out`` zooms out, both *deferred until game time next runs* (as in the mod, so in sync play the
zoom shows after the next ``/timestep``); a rotation while zoomed in first zooms out and turns
0.5 s of game time later. Clicks on elements act at once, even while paused. The mask is
rendered at request time, and only in ``LightsOn`` (none when the bomb is turned to a side).

**Frames** are captured as scenes (what the camera sees at that moment) and rendered only when
``/buffer`` asks for them, or, for every one still waiting, just before anything changes what
it shows (``Game._settle``); most are never rendered, as a sync step captures twelve.

**Fast-forward** (our additive extension ``/fastforward?until=``, docs/protocol.md §4.3): a
harness that only wants to get past the pre-bomb phases asks for them at once instead of waiting
them out in wall time. ``Setup`` and ``LightsOff`` complete the pending scene changes that lead
there (no game time runs in them: the mission is not loaded, or it waits in the dark);
``LightsOn`` runs game time through the dark to the first ``LightsOn`` and pauses. Nothing of the
bomb moves in the dark (its timer starts at ``LightsOn``, below), so the game is then exactly
where the mod's real-time startup (time scale 1, poll ``/health`` until ``LightsOn``, pause)
would leave it, minus that poll's overshoot: the full time limit and the one frame captured at
``LightsOn``.

Our choices where the mod gives no answer: ``/timestep`` before ``LightsOff`` first completes the
pending scene changes; needy components are accepted and ignored (the mod never reports them);
``magic`` asks ``gptnt.rules.oracle`` for one step; object names in answers are
``<Kind>`` for modules and ``<Kind>/<element>`` for elements.
"""

from __future__ import annotations

import functools
import math
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Concatenate, ParamSpec, TypeVar

import numpy as np

from gptnt.errors import ConfigError, SimulatorError
from gptnt.protocol import (
    KINDS,
    MOD_STEP_TIMEOUT_MS,
    BombState,
    Lifecycle,
    MissionConfig,
    ModuleState,
)
from gptnt.rules import Hold, Press, Release, Step, oracle
from gptnt.rules.ruleset import V1, Ruleset
from gptnt.sim.bomb import Bomb, BombSpec
from gptnt.sim.camera import TURNS, Camera
from gptnt.sim.mask_style import MASK_STYLES, MaskStyle, game_mask
from gptnt.sim.modules import ModuleEngine
from gptnt.sim.render.compositor import Compositor, Picture, Scene

__all__ = ["FAST_FORWARD_TO", "FrameSet", "Game"]

FRAME_PERIOD = 0.25  # game seconds between captured frames
RING_SIZE = 16  # frames kept
LIGHTS_ON_DELAY = 0.5  # game seconds of darkness once time runs after LightsOff (our choice)
FIRST_LIGHTS_ON_DELAY = 1.5  # game seconds from lights on to LightsOn and /state (the mod's)
ROTATE_AFTER_ZOOM_OUT = 0.5  # game seconds the mod waits between zooming out and rotating
EMERGE_POLL = 0.1  # game seconds between emergence checks in /timestep
EMERGE_TIMEOUT = 10.0  # game seconds /timestep waits for modules to emerge
_EPS = 1e-9
# The states ``fast_forward`` reaches: the ends of the three waits of a harness's startup.
FAST_FORWARD_TO = (Lifecycle.SETUP, Lifecycle.LIGHTS_OFF, Lifecycle.LIGHTS_ON)

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _locked(method: Callable[Concatenate[Game, _P], _R]) -> Callable[Concatenate[Game, _P], _R]:
    """Serialise calls (the mod's server is single-threaded) and catch up time first."""

    @functools.wraps(method)
    def wrapper(game: Game, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with game._lock:
            game._catch_up()
            return method(game, *args, **kwargs)

    return wrapper


@dataclass
class FrameSet:
    """``/buffer``: frames oldest first and the mask, all top-down (H, W, 3) uint8 arrays."""

    frames: list[np.ndarray]
    mask: np.ndarray | None


@dataclass(frozen=True)
class _Kept:
    """A module's ``/state`` entry, still its export for bomb times in [``since``, ``until``)
    with the focus ``in_focus`` until anything changes the bomb (``Game._settle`` forgets it)."""

    state: ModuleState
    in_focus: bool
    since: float
    until: float


@dataclass
class _Mission:
    """Everything that lives from ``start_mission`` until the return to ``Setup``."""

    config: MissionConfig
    bomb: Bomb
    rng: random.Random  # lottery, /random and magic's module order
    t: float = -LIGHTS_ON_DELAY  # bomb time
    lights_on: bool = False
    started: bool = False  # the mod's mission-started flag: actions allowed
    state_enabled: bool = False
    capturing: bool = False
    camera: Camera = field(default_factory=Camera)
    held: tuple[ModuleEngine, str] | None = None
    on_run: list[Callable[[], None]] = field(default_factory=list)  # when game time next runs
    scheduled: list[tuple[float, Callable[[], None]]] = field(default_factory=list)
    ring: deque[Scene | Picture] = field(
        default_factory=lambda: deque(maxlen=RING_SIZE)
    )  # captured scenes, rendered when asked for or before anything changes (``Game._settle``)
    deferred: bool = True  # no engine has time-driven behaviour: a scene can be rendered later
    exports: dict[int, _Kept] = field(default_factory=dict)  # by module index, until ``_settle``
    magic_order: list[ModuleEngine] = field(default_factory=list)
    magic_history: dict[int, list[object]] = field(default_factory=dict)
    magic_plan: dict[int, _MagicPlan] = field(default_factory=dict)


@dataclass
class _MagicPlan:
    """The oracle's steps for one module's current stage, carried out one per ``magic``.

    The exported state does not show progress *within* a stage (Simon's presses so far), so
    asking the oracle again after each press would restart the stage: the plan is kept until
    it is used up or a strike changes the rules in force (Simon's strike row).
    """

    steps: list[Step]
    strikes: int


class Game:
    """One simulated KTANE process: the in-process API behind the protocol server."""

    def __init__(
        self,
        *,
        width: int = 640,
        height: int = 480,
        ruleset: Ruleset = V1,
        clock: Callable[[], float] = time.monotonic,
        transition_seconds: float = 0.2,
        capture_frames: bool = True,
        mask_style: MaskStyle = "flat",
    ) -> None:
        """``capture_frames=False``: the ring stays empty (``/buffer`` has the mask only), for
        in-process players that read no pixels (the random baseline, ``magic`` tests).
        ``mask_style="game"``: masks blended and off by a level like the real game's can be
        (``gptnt.sim.mask_style``)."""
        if mask_style not in MASK_STYLES:
            raise ValueError(f"mask_style={mask_style!r}: use one of {', '.join(MASK_STYLES)}")
        self.ruleset = ruleset
        self._capture_frames = capture_frames
        self._mask_style = mask_style
        self._clock = clock
        self._transition = transition_seconds
        self._compositor = Compositor(width, height)
        self._lock = threading.RLock()
        self._wall = clock()
        self._lifecycle = Lifecycle.GAMEPLAY
        self._transitions: deque[tuple[float, Lifecycle]] = deque(
            [(self._wall + transition_seconds, Lifecycle.SETUP)]
        )
        self._scale = 1.0
        self._step_ms = 3000
        self._mission: _Mission | None = None

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of frames and masks."""
        return self._compositor.size

    # ================================================================ routes

    @_locked
    def health(self) -> str:
        return self._lifecycle.value

    def _check_rules(self, config: MissionConfig) -> None:
        """Refuse a mission whose rule seed (the caller's manual and oracle) is not this game's,
        or whose modules this game's rule seed has no tables for (no word pools)."""
        mine = self.ruleset.rule_seed
        if config.rule_seed is not None and config.rule_seed != mine:
            raise SimulatorError(
                f"Error: ruleSeed={config.rule_seed}: this game plays rule seed {mine}; start "
                f"it with --rule-seed {config.rule_seed} (or send ruleSeed={mine})"
            )
        try:
            self.ruleset.require(config.components)
        except ConfigError as err:
            raise SimulatorError(f"Error: {err}") from None

    @_locked
    def start_mission(self, config: MissionConfig) -> str:
        self._check_rules(config)
        if self._lifecycle is not Lifecycle.SETUP:
            raise SimulatorError(f"Cannot start a game from {self._lifecycle.value} state")
        self._scale = config.time_scale
        self._step_ms = config.time_step_size
        spec = BombSpec(
            seed=config.seed,
            components=tuple(config.components),
            time_limit=float(config.time_limit),
            max_strikes=config.num_strikes,
            opt_widgets=config.opt_widgets,
            front_only=config.is_front,
            # Our choice: the timer starts when the state reads LightsOn, so a harness that
            # pauses there starts play with exactly the time limit (the real game starts it at
            # lights-on, 1.5 s earlier, and play begins a little below the limit).
            clock_start=FIRST_LIGHTS_ON_DELAY,
        )
        try:
            bomb = Bomb.generate(spec, self.ruleset)
        except SimulatorError as err:
            raise SimulatorError(
                "Please enter a valid list of components to be present on the bomb. "
                f"e.g. components=Wires,BigButton ({err})"
            ) from None
        # The bomb is a function of the seed; the game's own draws (lottery, /random, magic's
        # module order) are not: the real game draws them afresh in every episode, and the
        # paper's random baseline (the mod's lottery, 100 attempts per mission) relies on that.
        # Seeding them with the session id as well keeps a replayed session identical while
        # episodes of one mission (each with its own session id) differ.
        draws = random.Random(f"{config.seed}:{config.session_id or ''}:game")
        # An engine whose ``advance`` does something changes between captures by itself, so
        # its bomb's frames are rendered at capture (``_settle``).
        deferred = all(type(m).advance is ModuleEngine.advance for m in bomb.modules)
        self._mission = _Mission(config, bomb, draws, deferred=deferred)
        self._lifecycle = Lifecycle.TRANSITIONING
        self._transitions = deque(
            [
                (self._wall + self._transition, Lifecycle.GAMEPLAY),
                (self._wall + 2 * self._transition, Lifecycle.LIGHTS_OFF),
            ]
        )
        return str(config.seed)

    @_locked
    def set_time_scale(self, value: float) -> str:
        if not math.isfinite(value) or value < 0:
            raise SimulatorError("Could not parse request")
        self._scale = value
        return f"Set timeScale to {_number(value)}"

    @_locked
    def set_step_unit(self, ms: int) -> str:
        if ms <= 0:
            raise SimulatorError("Could not parse request")
        self._step_ms = ms
        return f"Set timeStepSize to {ms}"

    @_locked
    def timestep(self) -> str:
        mission = self._mission
        if mission is not None:
            # Phases 1–2 of the mod: any pending scene change completes within the step.
            while self._transitions and self._transitions[0][1] is not Lifecycle.POST_GAME:
                self._apply_transition(self._transitions.popleft()[1])
            if self._lifecycle in (Lifecycle.LIGHTS_OFF, Lifecycle.LIGHTS_ON):
                if self._step_ms >= MOD_STEP_TIMEOUT_MS:  # the mod's phase 1 overruns its 10 s
                    raise SimulatorError(
                        f"Time out while waiting {self._step_ms} seconds", status=408
                    )
                self._advance(self._step_ms / 1000.0)
                waited = 0.0
                while self._emerging():  # phase 3
                    if waited >= EMERGE_TIMEOUT:
                        self._scale = 0.0
                        raise SimulatorError(
                            "Time out while waiting for module elements to emerge", status=408
                        )
                    self._advance(EMERGE_POLL)
                    waited += EMERGE_POLL
                self._after_input()  # the clock may have run out during the step
        self._scale = 0.0
        return f"Paused after {self._step_ms} in-game milliseconds (and modules emerged)"

    @_locked
    def action(self, action: str, x_pos: float | None = None, y_pos: float | None = None) -> str:
        mission = self._mission
        if (
            mission is None
            or self._lifecycle not in (Lifecycle.LIGHTS_ON, Lifecycle.LIGHTS_OFF)
            or not mission.started
        ):
            raise SimulatorError(f"Cannot send action to the game in {self._lifecycle.value} state")
        handler = _ACTIONS.get(action)
        if handler is None:  # the mod answers this with 200; we keep its text, honestly as 400
            raise SimulatorError("invalid direction. Valid directions: left, right, up, down, flip")
        self._settle(mission)
        text = handler(self, mission, x_pos, y_pos)
        self._after_input()
        return text

    @_locked
    def state(self) -> BombState:
        mission = self._mission
        if mission is None or not mission.state_enabled:
            raise SimulatorError(f"Cannot get bomb state in {self._lifecycle.value} state")
        bomb = mission.bomb
        # Built from the engines' own exports (each validated as it is made): not again.
        return BombState.model_construct(
            seed=mission.config.seed,
            max_strikes=bomb.spec.max_strikes,
            is_detonated=bomb.is_detonated,
            is_solved=bomb.outcome == "solved",
            is_light_on=self._lifecycle is Lifecycle.LIGHTS_ON,
            bomb_side=mission.camera.side,
            timer_module=bomb.timer_state(),
            widgets=list(bomb.widgets),
            modules=[self._export(mission, i) for i in range(len(bomb.modules))],
            strikes=list(bomb.strikes),
        )

    @_locked
    def buffer(self, last: int | None = None) -> FrameSet:
        mission = self._mission
        if mission is None:
            return FrameSet([], None)
        count = len(mission.ring) if last is None else min(max(last, 0), len(mission.ring))
        first = len(mission.ring) - count
        for i in range(first, len(mission.ring)):  # rendered only now, and only these
            self._render(mission, i)
        # every frame's image was rendered by the loop above
        frames = [mission.ring[i].image for i in range(first, len(mission.ring))]  # type: ignore[union-attr]
        mask = None
        if self._lifecycle is Lifecycle.LIGHTS_ON:
            picture = self._picture(mission)
            if self._mask_style == "flat" or not picture.targets:
                mask = picture.mask()
            else:
                mask = game_mask(picture.ids, picture.colours())
        return FrameSet(frames, mask)

    @_locked
    def reset(self) -> str:
        if self._lifecycle is not Lifecycle.SETUP:
            self._lifecycle = Lifecycle.TRANSITIONING
            if self._mission is not None:
                self._mission.started = False
                self._mission.capturing = False
            self._transitions = deque([(self._wall + self._transition, Lifecycle.SETUP)])
        return "Nuh uh"

    @_locked
    def detonate(self) -> str:
        mission = self._require_lights_on("detonate")
        self._settle(mission)
        mission.bomb.detonate()
        self._after_input()
        return "Detonated bomb successfully"

    @_locked
    def solve(self) -> str:
        mission = self._require_lights_on("solve")
        self._settle(mission)
        for engine in mission.bomb.modules:
            mission.bomb.force_solve(engine)
        self._after_input()
        return "Solved bomb successfully"

    @_locked
    def random_solve(self, n: int) -> str:
        mission = self._mission
        if mission is None or mission.bomb.outcome is not None:
            return ""
        unsolved = [m for m in mission.bomb.modules if not m.solved]
        chosen = mission.rng.sample(unsolved, min(max(n, 0), len(unsolved)))
        self._settle(mission)
        for engine in chosen:
            mission.bomb.force_solve(engine)
        self._after_input()
        return "".join(f" {engine.kind}" for engine in chosen)

    def modules(self) -> list[dict[str, Any]]:
        return [
            {"id": spec.name, "displayName": spec.mod_title, "isMod": False}
            for spec in sorted(KINDS, key=lambda spec: spec.mod_title)
        ]

    @_locked
    def debug(self) -> str:
        rear = self._mission is not None and self._mission.camera.rear_selected
        return f"Current face is {'Rear' if rear else 'Front'}"

    @_locked
    def fast_forward(self, until: Lifecycle) -> str:
        """Our extension: reach ``until`` (Setup, LightsOff or LightsOn) now (module doc)."""
        if until not in FAST_FORWARD_TO:
            names = ", ".join(state.value for state in FAST_FORWARD_TO)
            raise SimulatorError(
                f"Error: until={until.value} cannot be fast-forwarded to; use {names}"
            )
        if self._lifecycle is until:
            return f"Fast-forwarded to {until.value}"
        mission = self._mission
        if until is Lifecycle.LIGHTS_ON:
            if (
                self._lifecycle is not Lifecycle.LIGHTS_OFF
                or mission is None
                or mission.state_enabled
            ):
                raise SimulatorError(
                    f"Cannot fast-forward to LightsOn from {self._lifecycle.value} state "
                    "(only from the dark before a mission's first LightsOn)"
                )
            self._advance_to(FIRST_LIGHTS_ON_DELAY)
            self._scale = 0.0
        else:
            if not any(phase is until for _, phase in self._transitions):
                raise SimulatorError(
                    f"Cannot fast-forward to {until.value} from {self._lifecycle.value} state "
                    "(no scene change to it is pending)"
                )
            while self._lifecycle is not until:
                self._apply_transition(self._transitions.popleft()[1])
        return f"Fast-forwarded to {until.value}"

    # ================================================================ time

    def _catch_up(self) -> None:
        """Run game time and scene changes up to the wall clock's now."""
        now = self._clock()
        while True:
            due = self._transitions[0][0] if self._transitions else math.inf
            end = min(now, due)
            if end > self._wall:
                self._run_wall(end)
                continue  # running time may have scheduled a scene change (the bomb ended)
            if due <= now:
                self._apply_transition(self._transitions.popleft()[1])
                continue
            break

    def _run_wall(self, wall_end: float) -> None:
        """Let game time follow the wall clock from ``self._wall`` to ``wall_end``."""
        wall_start, self._wall = self._wall, wall_end
        mission = self._mission
        if (
            mission is None
            or self._scale <= 0
            or self._lifecycle not in (Lifecycle.LIGHTS_OFF, Lifecycle.LIGHTS_ON)
        ):
            return
        t_start = mission.t
        ongoing = mission.bomb.outcome is None
        self._advance((wall_end - wall_start) * self._scale)
        ended_at = mission.bomb.ended_at
        if ongoing and ended_at is not None:  # exploded by time during this stretch
            self._end(wall_start + max(0.0, ended_at - t_start) / self._scale)

    def _apply_transition(self, lifecycle: Lifecycle) -> None:
        self._lifecycle = lifecycle
        if lifecycle is Lifecycle.SETUP:
            self._mission = None  # /state disabled, buffer cleared, mission flag cleared

    def _advance(self, dt: float) -> None:
        """Run ``dt`` seconds of game time through every event in order."""
        if self._mission is not None and dt > 0:
            self._advance_to(self._mission.t + dt)

    def _advance_to(self, t1: float) -> None:
        """Run game time up to bomb time ``t1`` through every event in order."""
        mission = self._mission
        if mission is None or t1 <= mission.t:
            return
        t0 = mission.t
        if mission.on_run:
            self._settle(mission)
        for apply in mission.on_run:
            apply()
        mission.on_run.clear()
        bomb = mission.bomb
        stop = t1 if bomb.outcome is not None else min(t1, bomb.time_of_zero())
        first = math.floor(t0 / FRAME_PERIOD + _EPS) + 1
        last = math.floor(t1 / FRAME_PERIOD + _EPS)
        capture_from = max(first, round(FIRST_LIGHTS_ON_DELAY / FRAME_PERIOD))
        capture_to = (
            math.floor(stop / FRAME_PERIOD + _EPS) if bomb.outcome is None else capture_from - 1
        )
        render_from = max(capture_from, capture_to - RING_SIZE + 1)
        events = {t1, *(p for p in (0.0, FIRST_LIGHTS_ON_DELAY) if t0 < p <= t1)}
        events.update(due for due, _ in mission.scheduled if t0 < due <= t1)
        points = events.union(k * FRAME_PERIOD for k in range(first, last + 1))
        # A frame point within _EPS past t1 is the run's last time: the bomb ends there too
        events.add(max(points))
        for p in sorted(points):
            mission.t = p
            if p >= 0:
                if not mission.lights_on:
                    mission.lights_on = True
                    mission.started = True
                if bomb.outcome is None and p >= bomb.time_of_zero():
                    self._settle(mission)  # the bomb explodes: its clock stops at zero
                    bomb.advance(p)
                elif p in events or not mission.deferred:
                    # Between events a deferred bomb is a function of time only, and a scene
                    # is rendered at its own time: a frame's capture needs no bomb step.
                    bomb.advance(p)
            if p >= FIRST_LIGHTS_ON_DELAY - _EPS and not mission.state_enabled:
                self._first_lights_on(mission)
            if mission.scheduled:
                self._fire_scheduled(mission, p)
            k = round(p / FRAME_PERIOD)
            if (
                abs(k * FRAME_PERIOD - p) < _EPS
                and render_from <= k <= capture_to
                and mission.capturing
                and self._capture_frames
                and bomb.outcome is None
            ):
                mission.ring.append(self._scene(mission))
                if not mission.deferred:
                    self._render(mission, len(mission.ring) - 1)

    def _first_lights_on(self, mission: _Mission) -> None:
        """The mod's delayed first-lights-on: LightsOn, /state, frame capture, bomb picked up."""
        mission.state_enabled = True
        mission.capturing = True
        mission.magic_order = mission.rng.sample(mission.bomb.modules, len(mission.bomb.modules))
        if self._lifecycle is Lifecycle.LIGHTS_OFF:
            self._lifecycle = Lifecycle.LIGHTS_ON

    def _fire_scheduled(self, mission: _Mission, t: float) -> None:
        due = [item for item in mission.scheduled if item[0] <= t + _EPS]
        if due:
            self._settle(mission)
            mission.scheduled = [item for item in mission.scheduled if item[0] > t + _EPS]
            for _, apply in sorted(due, key=lambda item: item[0]):
                apply()

    def _emerging(self) -> bool:
        mission = self._mission
        if mission is None or mission.bomb.outcome is not None:
            return False
        return any(m.emerging(mission.bomb.now) for m in mission.bomb.modules)

    def _after_input(self) -> None:
        mission = self._mission
        if mission is not None and mission.bomb.outcome is not None and mission.started:
            self._end(self._wall)

    def _end(self, wall: float) -> None:
        """The bomb is solved or exploded: stop the mission; PostGame follows."""
        mission = self._mission
        assert mission is not None
        mission.started = False
        mission.capturing = False
        if not any(phase is Lifecycle.POST_GAME for _, phase in self._transitions):
            self._transitions.append((wall + self._transition, Lifecycle.POST_GAME))

    def _require_lights_on(self, verb: str) -> _Mission:
        if self._lifecycle is not Lifecycle.LIGHTS_ON or self._mission is None:
            raise SimulatorError(f"Cannot {verb} bomb in {self._lifecycle.value} state")
        return self._mission

    # ================================================================ camera and input

    def _scene(self, mission: _Mission) -> Scene:
        camera = mission.camera
        return Scene(mission.bomb, camera.side, camera.focused, max(mission.t, 0.0), camera.cursor)

    def _picture(self, mission: _Mission) -> Picture:
        return self._compositor.render(self._scene(mission))

    def _render(self, mission: _Mission, i: int) -> None:
        """Frame ``i`` of the ring as a picture (it may still be the scene captured)."""
        item = mission.ring[i]
        if isinstance(item, Scene):
            mission.ring[i] = self._compositor.render(item)

    def _settle(self, mission: _Mission) -> None:
        """Render every frame still held as its captured scene, and forget the modules' kept
        exports. A scene names the bomb, not a copy of it, so this runs before anything that
        changes what a frame shows (an input, ``/solve``, ``/detonate``, a deferred camera
        move, the clock reaching zero): between those, the bomb is a function of time only,
        and the scene's time is its own."""
        mission.exports.clear()
        for i in range(len(mission.ring)):
            self._render(mission, i)

    def _export(self, mission: _Mission, i: int) -> ModuleState:
        """Module ``i``'s ``/state`` entry now: its kept export while that still holds (the
        same object, so a writer may keep its text), else a new one, kept if its bomb is a
        function of time only from one ``_settle`` to the next (``_Mission.deferred``)."""
        engine, t = mission.bomb.modules[i], mission.bomb.now
        in_focus = engine is mission.camera.focused
        kept = mission.exports.get(i)
        if kept is not None and kept.in_focus == in_focus and kept.since <= t < kept.until:
            return kept.state
        state = engine.export(t, in_focus=in_focus)
        if mission.deferred:
            mission.exports[i] = _Kept(state, in_focus, t, engine.export_until(t))
        return state

    def _target_at(
        self, mission: _Mission, x_pos: float | None, y_pos: float | None
    ) -> object | None:
        x = 0.0 if x_pos is None else float(x_pos)
        y = 0.0 if y_pos is None else float(y_pos)
        if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0) or math.isnan(x) or math.isnan(y):
            raise SimulatorError(
                f"Could not parse x and y coordinates: x_pos={x_pos}, y_pos={y_pos} must be in [0, 1]"
            )
        width, height = self.size
        px, py = min(int(x * width), width - 1), min(int(y * height), height - 1)
        target = self._picture(mission).hit(px, py)
        mission.camera.cursor = (x, y)  # the game highlights the module under the cursor
        return target

    def _press(self, mission: _Mission, target: object | None) -> str:
        """Press what is under the cursor: a module zooms in (deferred), an element acts now."""
        if target is None:
            return "No interactable hit"
        if isinstance(target, ModuleEngine):
            self._zoom_in_later(mission, target)
            mission.held = None
            return f"clicked on: {target.kind}"
        engine = mission.camera.focused
        assert engine is not None and isinstance(target, str)
        mission.bomb.press(engine, target)
        mission.held = (engine, target)
        return f"clicked on: {engine.kind}/{target}"

    def _release(self, mission: _Mission) -> str:
        if mission.held is None:
            return "No last used selectable."
        engine, element = mission.held
        mission.held = None
        mission.bomb.release(engine, element)
        return f"Released: {engine.kind}/{element}"

    def _zoom_in_later(self, mission: _Mission, engine: ModuleEngine) -> None:
        def zoom_in() -> None:
            if mission.camera.focused is None and mission.camera.shows(engine):
                mission.camera.focused = engine
                # The mod's Simon tweak: zooming in restarts the flashes (engines that have it).
                restart = getattr(engine, "restart_flashes", None)
                if restart is not None:
                    restart(max(mission.t, 0.0))

        mission.on_run.append(zoom_in)

    def _zoom_out_later(self, mission: _Mission) -> None:
        def zoom_out() -> None:
            mission.camera.focused = None

        mission.on_run.append(zoom_out)

    def _rotate(self, mission: _Mission, name: str) -> None:
        """Turn now, or, when zoomed in, zoom out when time runs and turn 0.5 s later."""
        camera = mission.camera
        if camera.focused is None:
            camera.turn(name)
            return

        def zoom_out_then_turn() -> None:
            camera.focused = None
            mission.scheduled.append((mission.t + ROTATE_AFTER_ZOOM_OUT, lambda: camera.turn(name)))

        mission.on_run.append(zoom_out_then_turn)

    # ---------------------------------------------------------------- action handlers

    def _click(self, mission: _Mission, x: float | None, y: float | None) -> str:
        target = self._target_at(mission, x, y)
        text = self._press(mission, target)
        return text + self._release(mission)

    def _hold(self, mission: _Mission, x: float | None, y: float | None) -> str:
        return self._press(mission, self._target_at(mission, x, y))

    def _release_action(self, mission: _Mission, x: float | None, y: float | None) -> str:
        return self._release(mission)

    def _out(self, mission: _Mission, x: float | None, y: float | None) -> str:
        if mission.camera.focused is None:
            return "No module zoomed into"
        self._zoom_out_later(mission)
        return f"Zooming out from: {mission.camera.focused.kind}"

    def _magic(self, mission: _Mission, x: float | None, y: float | None) -> str:
        """One step of the oracle (docs/protocol.md §6.4), using ``gptnt.rules.oracle``."""
        engine = mission.camera.focused
        if engine is not None and engine.solved:
            self._zoom_out_later(mission)
            return f"Zooming out from: {engine.kind}"
        if engine is not None:
            return self._magic_step(mission, engine)
        target = next((m for m in mission.magic_order if not m.solved), None)
        if target is None:
            return "Can't do step now, try again later"
        if mission.camera.shows(target):
            self._zoom_in_later(mission, target)
            return f"Zoomed into {target.kind}"
        mission.camera.face(target.slot.on_front)
        return "magically flipped to other side"

    def _magic_step(self, mission: _Mission, engine: ModuleEngine) -> str:
        bomb = mission.bomb
        if engine.emerging(bomb.now):
            return "Can't do step now, try again later"
        plan = mission.magic_plan.get(id(engine))
        if plan is None or not plan.steps or plan.strikes != bomb.strike_count:
            state = engine.export(bomb.now, in_focus=True)
            history = mission.magic_history.get(id(engine), [])
            steps = oracle.solve(
                state, bomb.edgework, self.ruleset, bomb.strike_count, history=history
            )
            plan = _MagicPlan(list(steps), bomb.strike_count)
            mission.magic_plan[id(engine)] = plan
        if not plan.steps:
            return "Can't do step now, try again later"
        step = plan.steps[0]
        remaining = bomb.seconds_remaining()
        if isinstance(step, Press):
            if step.when is not None and not step.when.holds(remaining):
                return "Can't do step now, try again later"
            state = engine.export(bomb.now, in_focus=True)
            history = mission.magic_history.get(id(engine), [])
            mission.magic_history[id(engine)] = oracle.record(state, step, history)
            bomb.press(engine, step.element)
            bomb.release(engine, step.element)
        elif isinstance(step, Hold):
            bomb.press(engine, step.element)
            mission.held = (engine, step.element)
        elif isinstance(step, Release):
            if mission.held is None or not step.when.holds(remaining):
                return "Can't do step now, try again later"
            self._release(mission)
        plan.steps.pop(0)
        return "Solved one step"

    def _lottery(self, mission: _Mission, x: float | None, y: float | None) -> str:
        """A uniformly random legal-looking action, done directly on its target (§6.4)."""
        picture = self._picture(mission)
        choices: list[tuple[str, object | None]] = []
        for target in picture.targets:
            choices += [("click", target), ("hold", target)]
        choices += [
            (name, None) for name in ("out", "release", "left", "right", "up", "down", "flip")
        ]
        name, target = choices[mission.rng.randrange(len(choices))]
        if name == "click":
            self._press(mission, target)
            self._release(mission)
        elif name == "hold":
            self._press(mission, target)
        else:
            _ACTIONS[name](self, mission, None, None)
        label = target.kind if isinstance(target, ModuleEngine) else target
        return f"Did: {name}" + (f" {label}" if label is not None else "")


def _turn_handler(name: str) -> _Handler:
    def handler(game: Game, mission: _Mission, x: float | None, y: float | None) -> str:
        game._rotate(mission, name)
        return TURNS[name][1]

    return handler


_Handler = Callable[[Game, _Mission, "float | None", "float | None"], str]
_ACTIONS: dict[str, _Handler] = {
    "click": Game._click,
    "hold": Game._hold,
    "release": Game._release_action,
    "out": Game._out,
    "magic": Game._magic,
    "lottery": Game._lottery,
    **{name: _turn_handler(name) for name in TURNS},
}


def _number(value: float) -> str:
    """A float as .NET prints it by default: ``1``, ``0.5``."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))
