"""The bomb: its faces and slots, its modules, the timer, strikes and the outcome.

A ``Bomb`` is the rules-level game: no lifecycle, no camera, no wall clock. Its time is **bomb
time** (game seconds since the bomb clock started); callers move it forward with ``advance``
and send input with ``press``/``release`` at the current time. ``Game`` wraps it with the
lifecycle, the view and the frames; the self-check drives it directly.

Generation (``Bomb.generate``) is a pure function of the seed, the mission's settings and the
ruleset. Every concern draws from its own ``random.Random`` seeded with a string derived from
the bomb seed (``"<seed>:layout"``, ``"<seed>:edgework"``, ``"<seed>:module:<i>:<kind>"``), so
adding, say, a widget does not reshuffle the modules. String seeds are hashed by ``random``
with SHA-512: stable across processes and Python versions.

Layout assumptions (KTANE's placement rules are not documented; configurable via the constants):
the timer goes to the front face at a uniformly chosen slot; modules that must see the timer
(The Button) are placed first on the timer's face; the others take a uniformly chosen free slot on any allowed
face (front only when ``front_only``); the remaining slots hold empty plates. A face's slot
``index`` is row-major as seen when looking at that face: 0–2 top row, 3–5 bottom row.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from gptnt.errors import SimulatorError
from gptnt.protocol import (
    KINDS,
    GameOutcome,
    ModuleKind,
    TimerState,
    Widget,
    timer_text,
)
from gptnt.rules import Edgework
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.edgework import WidgetSpot, generate_widgets
from gptnt.sim.modules import ModuleEngine, Slot, engine_for

SLOTS_PER_FACE = 6
# The timer runs faster with each strike: rate by strikes so far, capped at the last entry.
STRIKE_RATES = (1.0, 1.25, 1.5, 1.75, 2.0)
# Modules that must share the timer's face (KTANE's RequiresTimerVisibility).
NEEDS_TIMER: frozenset[str] = frozenset(spec.name for spec in KINDS if spec.needs_timer)
# Needy modules are accepted by /startmission but not simulated (the mod does not report them).
NEEDY_KINDS: frozenset[str] = frozenset({"NeedyVentGas", "NeedyCapacitor", "NeedyKnob"})


@dataclass(frozen=True)
class BombSpec:
    """What a bomb is generated from (the generation-relevant part of a mission)."""

    seed: int
    components: tuple[str, ...]
    time_limit: float = 300.0
    max_strikes: int = 3
    opt_widgets: int = 5
    front_only: bool = False
    clock_start: float = 0.0  # bomb time at which the timer starts counting down


class Bomb:
    """One live bomb. Implements ``BombContext`` for its modules."""

    def __init__(
        self,
        spec: BombSpec,
        rules: Ruleset,
        widgets: list[Widget],
        spots: list[WidgetSpot],
        timer_slot: Slot,
    ) -> None:
        self.spec = spec
        self.rules = rules
        self.widgets = widgets
        self.widget_spots = spots
        self.timer_slot = timer_slot
        self._edgework = Edgework.from_widgets(widgets)
        self.modules: list[ModuleEngine] = []
        self.now = 0.0  # bomb time, seconds
        self.strikes: list[str] = []
        self.outcome: GameOutcome | None = None
        self.ended_at: float | None = None  # bomb time of the outcome
        # Timer: remaining = _anchor_remaining - (now - _anchor_t) * rate, re-anchored at strikes.
        self._anchor_t = spec.clock_start
        self._anchor_remaining = float(spec.time_limit)
        self._rate = STRIKE_RATES[0]

    # ---------------------------------------------------------------- generation

    @classmethod
    def generate(cls, spec: BombSpec, rules: Ruleset) -> Bomb:
        """A new bomb: layout, edgework and every module drawn from seeded generators."""
        kinds = [k for k in spec.components if k not in NEEDY_KINDS]
        if not kinds:
            raise SimulatorError("components: name at least one non-needy module, e.g. Wires")
        capacity = SLOTS_PER_FACE - 1 if spec.front_only else 2 * SLOTS_PER_FACE - 1
        if len(kinds) > capacity:
            raise SimulatorError(
                f"components: {len(kinds)} modules do not fit; at most {capacity} "
                f"{'with isFront=true' if spec.front_only else 'per bomb'}"
            )
        for kind in kinds:
            engine_for(kind)  # unknown kinds fail here, before anything is built
        rules.require(kinds)  # and kinds whose tables the rule seed lacks (no word pools)
        layout = random.Random(f"{spec.seed}:layout")
        timer_slot = Slot(on_front=True, index=layout.randrange(SLOTS_PER_FACE))
        free = [
            Slot(face, i)
            for face in ((True,) if spec.front_only else (True, False))
            for i in range(SLOTS_PER_FACE)
            if Slot(face, i) != timer_slot
        ]
        slots: dict[int, Slot] = {}
        order = sorted(range(len(kinds)), key=lambda i: kinds[i] not in NEEDS_TIMER)
        for i in order:
            choices = (
                [s for s in free if s.on_front == timer_slot.on_front]
                if kinds[i] in NEEDS_TIMER
                else free
            )
            slots[i] = choices[layout.randrange(len(choices))] if choices else free[0]
            free.remove(slots[i])
        widgets, spots = generate_widgets(random.Random(f"{spec.seed}:edgework"), spec.opt_widgets)
        bomb = cls(spec, rules, widgets, spots, timer_slot)
        for i, kind in enumerate(kinds):
            rng = random.Random(f"{spec.seed}:module:{i}:{kind}")
            bomb.modules.append(
                engine_for(kind).generate(rng, rules=rules, bomb=bomb, slot=slots[i])
            )
        return bomb

    # ---------------------------------------------------------------- BombContext

    @property
    def edgework(self) -> Edgework:
        return self._edgework

    @property
    def strike_count(self) -> int:
        return len(self.strikes)

    def timer_text(self) -> str:
        """``MM:SS`` from a minute up, ``SS.hh`` below (digits truncated, as the game shows)."""
        return timer_text(self.seconds_remaining())

    def strike(self, module: ModuleKind) -> None:
        if self.outcome is not None:
            return
        self._anchor_remaining = self.seconds_remaining()
        self._anchor_t = max(self.now, self._anchor_t)  # a strike before the clock starts
        self.strikes.append(module)
        self._rate = STRIKE_RATES[min(len(self.strikes), len(STRIKE_RATES) - 1)]
        if len(self.strikes) >= self.spec.max_strikes:
            self._end("strikeout")

    # ---------------------------------------------------------------- time

    def seconds_remaining(self, t: float | None = None) -> float:
        """The bomb clock at bomb time ``t`` (default now); frozen once the bomb is over."""
        if t is None:
            t = self.now
        if self.ended_at is not None:
            t = min(t, self.ended_at)
        running = max(0.0, t - self._anchor_t)
        return max(0.0, self._anchor_remaining - running * self._rate)

    def time_of_zero(self) -> float:
        """The bomb time at which the clock reaches zero at the current rate."""
        return self._anchor_t + self._anchor_remaining / self._rate

    def advance(self, t: float) -> None:
        """Move bomb time forward to ``t``, exploding exactly when the clock hits zero."""
        if t < self.now:
            raise SimulatorError(f"bomb time cannot go back from {self.now:.3f} s to {t:.3f} s")
        if self.outcome is not None:
            self.now = t
            return
        zero = self.time_of_zero()
        if t >= zero:
            self._run_modules(zero)
            if self.outcome is None:
                self._end("timeout")
        self._run_modules(t)

    def _run_modules(self, t: float) -> None:
        self.now = max(self.now, t)
        if self.outcome is not None:
            return
        for engine in self.modules:
            engine.advance(self.now)
        self._check_solved()

    # ---------------------------------------------------------------- input

    def accepts_input(self, engine: ModuleEngine) -> bool:
        """Solved modules, animating modules and finished bombs ignore input."""
        return self.outcome is None and not engine.solved and not engine.emerging(self.now)

    def press(self, engine: ModuleEngine, element: str) -> bool:
        """Press ``element`` of ``engine`` now. False when the input was ignored."""
        if not self.accepts_input(engine):
            return False
        engine.press(element, self.now)
        self._check_solved()
        return True

    def release(self, engine: ModuleEngine, element: str) -> bool:
        """Release ``element`` of ``engine`` now (the end of a click or of a hold)."""
        if self.outcome is not None or engine.solved:
            return False
        engine.release(element, self.now)
        self._check_solved()
        return True

    def force_solve(self, engine: ModuleEngine) -> None:
        """Solve a module without input (``/solve``, ``/random``)."""
        engine.solved = True
        self._check_solved()

    def detonate(self) -> None:
        """Explode now (``/detonate``)."""
        if self.outcome is None:
            self._end("detonated")

    def _check_solved(self) -> None:
        if self.outcome is None and all(engine.solved for engine in self.modules):
            self._end("solved")

    def _end(self, outcome: GameOutcome) -> None:
        self._anchor_remaining = self.seconds_remaining()
        self._anchor_t = self.now
        self.outcome = outcome
        self.ended_at = self.now

    # ---------------------------------------------------------------- export

    @property
    def is_detonated(self) -> bool:
        return self.outcome in ("strikeout", "timeout", "detonated")

    def timer_state(self) -> TimerState:
        return TimerState(
            seconds_remaining=self.seconds_remaining(),
            on_front=self.timer_slot.on_front,
            index=self.timer_slot.index,
        )

    def modules_on_face(self, on_front: bool) -> Sequence[ModuleEngine]:
        """The face's modules in bomb component order (the segmentation order)."""
        return [m for m in self.modules if m.slot.on_front == on_front]
