"""The simulator checks itself against the oracle: engines and rules must agree.

For each episode a one-module bomb is generated (through the real ``Bomb``, not the server) and
played by the oracle (``gptnt.rules.oracle``) from the module's exported state: following the
oracle must solve the module with no strike, and every step the oracle calls a mistake, tried
on a deep copy of the bomb, must cost exactly one strike. Any disagreement is a *miss*, reported
with its seed so it can be replayed.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from gptnt.rules import Hold, Press, Release, Step, Timing, oracle
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.bomb import Bomb, BombSpec
from gptnt.sim.modules import ModuleEngine

TICK = 0.05  # seconds of game time per wait step (digits, animations)
HOLD_SETTLE = 1.0  # seconds held before the Button's strip is read
MAX_WAIT = 30.0  # seconds of game time any wait may take before it is a miss
MAX_ROUNDS = 100  # oracle calls per module before it is a miss
TIME_LIMIT = 600.0


class StepFailed(Exception):
    """A step could not be carried out (a digit never showed, an animation never ended)."""


@dataclass
class ModuleReport:
    """Self-check results of one module kind."""

    kind: str
    bombs: int = 0
    clean: int = 0  # solved by following the oracle with no strike
    mistakes_checked: int = 0
    recovered: int = 0  # solved by the oracle after one deliberate mistake
    misses: list[str] = field(default_factory=list)


def check_module(
    kind: str, episodes: int, seed: int, rules: Ruleset, *, try_mistakes: bool = True
) -> ModuleReport:
    """Play ``episodes`` one-module bombs of ``kind`` (seeds ``seed``, ``seed + 1``, …).

    ``try_mistakes=False`` only solves (the benchmark's generation + solve throughput).
    """
    report = ModuleReport(kind)
    for i in range(episodes):
        bomb_seed = seed + i
        spec = BombSpec(
            seed=bomb_seed,
            components=(kind,),
            time_limit=TIME_LIMIT,
            max_strikes=3,
            opt_widgets=bomb_seed % 6,
            front_only=True,
        )
        report.bombs += 1
        try:
            _play(Bomb.generate(spec, rules), rules, report, bomb_seed, try_mistakes)
        except StepFailed as err:
            report.misses.append(f"seed={bomb_seed}: {err}")
    return report


def _play(bomb: Bomb, rules: Ruleset, report: ModuleReport, seed: int, try_mistakes: bool) -> None:
    if _solve(Hands(bomb, bomb.modules[0]), rules, report, f"seed={seed}", probe=try_mistakes):
        report.clean += 1


def _solve(hands: Hands, rules: Ruleset, report: ModuleReport, label: str, *, probe: bool) -> bool:
    """Follow the oracle until the module is solved; True when no strike happened on the way.

    With ``probe``, every mistake the oracle names is tried on a deep copy first, and the first
    copy that struck is played on to the end (the oracle must still be right after a strike:
    Simon's colours change, Memory starts over).
    """
    bomb, engine = hands.bomb, hands.engine
    strikes = bomb.strike_count
    recovery_tried = False
    for _ in range(MAX_ROUNDS):
        hands.settle()
        if engine.solved:
            break
        state = engine.export(bomb.now, in_focus=True)
        history = hands.history
        tries = oracle.mistakes(state, bomb.edgework, rules, strikes, history=history)
        for mistake in tries if probe else ():
            twin = copy.deepcopy(hands, memo={id(rules): rules})
            twin.do(mistake)
            report.mistakes_checked += 1
            cost = twin.bomb.strike_count - strikes
            if cost != 1:
                report.misses.append(
                    f"{label}: mistake {mistake} cost {cost} strikes in state {state.to_wire()}"
                )
            elif not recovery_tried and twin.bomb.outcome is None:
                recovery_tried = True
                if _solve(twin, rules, report, f"{label} after {mistake}", probe=False):
                    report.recovered += 1
        steps = oracle.solve(state, bomb.edgework, rules, strikes, history=history)
        if not steps:
            report.misses.append(f"{label}: no step for unsolved state {state.to_wire()}")
            return False
        for step in steps:
            hands.history = oracle.record(
                engine.export(bomb.now, in_focus=True), step, hands.history
            )
            hands.do(step)
            if bomb.strike_count != strikes:
                report.misses.append(f"{label}: step {step} struck in state {state.to_wire()}")
                return False
    else:
        report.misses.append(f"{label}: not solved after {MAX_ROUNDS} oracle rounds")
        return False
    if bomb.outcome != "solved":
        report.misses.append(f"{label}: module solved but bomb outcome is {bomb.outcome}")
        return False
    return True


@dataclass
class Hands:
    """A Defuser's hands on one module: carries out oracle steps, remembers what it holds."""

    bomb: Bomb
    engine: ModuleEngine
    held: str | None = None
    history: list[object] = field(default_factory=list)  # the oracle's memory (Memory presses)

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` of game time pass in ticks."""
        end = self.bomb.now + seconds
        while self.bomb.now < end - 1e-9:
            self.bomb.advance(min(end, self.bomb.now + TICK))

    def wait_for(self, when: Timing) -> None:
        """Let game time pass until the timer shows the moment ``when``."""
        waited = 0.0
        while not when.holds(self.bomb.seconds_remaining()):
            if waited > MAX_WAIT:
                raise StepFailed(f"{when} never held on the timer within {MAX_WAIT} s")
            self.bomb.advance(self.bomb.now + TICK)
            waited += TICK

    def settle(self) -> None:
        """Wait until the module's stage animation is over."""
        waited = 0.0
        while self.engine.emerging(self.bomb.now):
            if waited > MAX_WAIT:
                raise StepFailed(f"{self.engine.kind} still emerging after {MAX_WAIT} s")
            self.bomb.advance(self.bomb.now + TICK)
            waited += TICK

    def do(self, step: Step) -> None:
        """Carry out one oracle step (clicks are instant; timed ones wait for their moment)."""
        bomb, engine = self.bomb, self.engine
        if isinstance(step, Press):
            self.settle()
            if step.when is not None:
                self.wait_for(step.when)
            bomb.press(engine, step.element)
            bomb.release(engine, step.element)
        elif isinstance(step, Hold):
            self.settle()
            bomb.press(engine, step.element)
            self.held = step.element
            self.wait(HOLD_SETTLE)
        elif isinstance(step, Release):
            if self.held is None:
                raise StepFailed(f"{step} without a held element")
            self.wait_for(step.when)
            bomb.release(engine, self.held)
            self.held = None
        else:  # pragma: no cover - Step is a closed union
            raise StepFailed(f"unknown step {step!r}")
