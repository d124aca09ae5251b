"""What every module-engine test needs: a fake bomb, hands that carry out oracle steps, and the
two checks all engines share (the oracle self-check and random play).

The self-check here is the unit-test twin of ``gptnt.sim.selfcheck``: it plays one engine on a
fake bomb against its own rule file (not through the oracle's dispatch or a real ``Bomb``), so a
failure points at the engine or the rule file of that module.
"""

from __future__ import annotations

import copy
import random
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import TypeVar

from hypothesis import given, settings
from hypothesis import strategies as st

from gptnt.protocol import ModuleKind, ModuleState, timer_text
from gptnt.rules import Edgework, Hold, Press, Release, Step
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import ModuleEngine, Slot

E = TypeVar("E", bound=ModuleEngine)

CLICK = 0.5  # seconds of game time a click (press and release) takes
HOLD = 1.0  # seconds held before the Button's strip is read
TICK = 0.01  # seconds of game time per wait step (timer digits, animations)
MAX_WAIT = 60.0  # seconds of game time any wait may take before the test fails

PLAIN_EDGEWORK = Edgework(serial="AB1CD2")  # even serial with a vowel; nothing else on the case


@dataclass
class FakeBomb:
    """What a module sees of its bomb: edgework, a strike log, and a timer that counts down from
    ``limit`` as the test moves ``now`` (game time)."""

    edgework: Edgework = PLAIN_EDGEWORK
    limit: float = 300.0
    now: float = 0.0
    strikes: list[ModuleKind] = field(default_factory=list)

    @property
    def strike_count(self) -> int:
        return len(self.strikes)

    def seconds_remaining(self) -> float:
        return max(0.0, self.limit - self.now)

    def timer_text(self) -> str:
        return timer_text(self.seconds_remaining())

    def strike(self, module: ModuleKind) -> None:
        self.strikes.append(module)


def random_serial(rng: random.Random) -> str:
    """Five letters or digits, then a digit (the serial's last character is always a digit)."""
    return "".join(rng.choices(string.ascii_uppercase + string.digits, k=5)) + str(
        rng.randrange(10)
    )


def random_edgework(rng: random.Random) -> Edgework:
    """A random serial and zero to two single-battery holders (what Maze and Morse ignore)."""
    return Edgework(serial=random_serial(rng), battery_holders=(1,) * rng.randrange(3))


def generated(engine_class: type[E], rng: random.Random, bomb: FakeBomb, slot: Slot) -> E:
    """An engine drawn by ``engine_class.generate`` under the v1 rules."""
    engine = engine_class.generate(rng, rules=V1, bomb=bomb, slot=slot)
    assert isinstance(engine, engine_class)
    return engine


@dataclass
class Hands:
    """A Defuser's hands on one engine: carry out oracle steps and keep the game time ``t``."""

    engine: ModuleEngine
    t: float = 0.0
    held: str | None = None

    @property
    def bomb(self) -> FakeBomb:
        assert isinstance(self.engine.bomb, FakeBomb)
        return self.engine.bomb

    def _wait_until(self, done: Callable[[], bool], what: str) -> None:
        start = self.t
        while not done():
            assert self.t - start < MAX_WAIT, f"waited {MAX_WAIT} s for {what}"
            self.t = round(self.t + TICK, 2)
            self.bomb.now = self.t

    def settle(self) -> None:
        """Wait until the module's stage animation is over, then let the engine catch up."""
        self._wait_until(lambda: not self.engine.emerging(self.t), "the animation to end")
        self.engine.advance(self.t)

    def do(self, step: Step) -> None:
        """Carry out one step: a click (at its moment, if timed), a hold, or a timed release."""
        engine, bomb = self.engine, self.bomb
        bomb.now = self.t
        match step:
            case Press(element, when):
                if when is not None:
                    self._wait_until(lambda: when.holds(bomb.seconds_remaining()), f"{when}")
                engine.press(element, self.t)
                engine.release(element, self.t)
                self.t += CLICK
            case Hold(element):
                engine.press(element, self.t)
                self.held = element
                self.t += HOLD
            case Release(when):
                assert self.held is not None, f"{step} without a held element"
                self._wait_until(lambda: when.holds(bomb.seconds_remaining()), f"{when}")
                engine.release(self.held, self.t)
                self.held = None
                self.t += CLICK


def _history(history: list[object] | None) -> dict[str, object]:
    """``history=`` for the rule file that takes one (Memory)."""
    return {} if history is None else {"history": history}


def assert_mistakes_cost_one_strike(
    hands: Hands, rule_file: ModuleType, table: object, history: list[object] | None = None
) -> None:
    """Every step ``rule_file.mistakes`` names right now, tried on a deep copy, costs one strike."""
    engine, bomb = hands.engine, hands.bomb
    state = engine.export(hands.t, in_focus=True)
    for wrong in rule_file.mistakes(
        state, bomb.edgework, table, strikes=bomb.strike_count, **_history(history)
    ):
        trial = copy.deepcopy(hands, {id(engine.rules): engine.rules})
        trial.do(wrong)
        assert trial.bomb.strike_count == bomb.strike_count + 1, wrong


def follow_the_oracle(
    engine: ModuleEngine,
    rule_file: ModuleType,
    table: object,
    *,
    rounds: int,
    probe_every_step: bool = True,
    history: list[object] | None = None,
) -> list[tuple[ModuleState, list[Step]]]:
    """Follow ``rule_file.solve`` until the module is solved; the (state, plan) of every round.

    Asserts that the plan is never empty while the module is unsolved, that at most ``rounds``
    plans solve it with no strike, and that ``solve`` has nothing left to do afterwards. Before
    every step (or, with ``probe_every_step=False``, before each round's first step, for modules
    whose described state does not show progress within a round) every listed mistake must cost
    exactly one strike on a copy. Memory's rule file also gets the ``history`` of its presses,
    kept here as the oracle's caller would.
    """
    hands, bomb = Hands(engine), engine.bomb
    played: list[tuple[ModuleState, list[Step]]] = []
    for _ in range(rounds):
        hands.settle()
        if engine.solved:
            break
        state = engine.export(hands.t, in_focus=True)
        plan = rule_file.solve(
            state, bomb.edgework, table, strikes=bomb.strike_count, **_history(history)
        )
        assert plan, f"no plan for the unsolved {state.to_wire()}"
        played.append((state, plan))
        for i, step in enumerate(plan):
            if probe_every_step or i == 0:
                assert_mistakes_cost_one_strike(hands, rule_file, table, history)
            if history is not None:
                history.append(rule_file.pressed(state, step))
            hands.do(step)
    hands.settle()
    final = engine.export(hands.t, in_focus=True)
    assert engine.solved and bomb.strike_count == 0, f"after {len(played)} plans: {final.to_wire()}"
    assert rule_file.solve(final, bomb.edgework, table, strikes=0, **_history(history)) == []
    return played


def random_play_test(
    new: Callable[[int], ModuleEngine], model: type[ModuleState]
) -> Callable[..., None]:
    """A property test for the engines ``new(seed)`` makes, to be bound to a ``test_`` name."""

    @settings(max_examples=40, deadline=None)
    @given(
        seed=st.integers(0, 2**32),
        inputs=st.lists(st.tuples(st.integers(0, 11), st.floats(0.0, 4.0)), max_size=25),
    )
    def test_random_play_keeps_a_valid_state(seed: int, inputs: list[tuple[int, float]]) -> None:
        """Any input sequence: the export validates, strikes only add up, solved stays solved."""
        engine = new(seed)
        t, strikes, solved = 0.0, 0, False
        for which, pause in inputs:
            t += pause
            element = engine.elements()[which % len(engine.elements())]
            engine.press(element, t)
            engine.release(element, t + 0.1 * which)  # some quick taps, some long holds
            state = engine.export(t, in_focus=True)
            assert model.model_validate(state.to_wire()) == state
            assert engine.bomb.strike_count >= strikes and (engine.solved or not solved)
            strikes, solved = engine.bomb.strike_count, engine.solved

    return test_random_play_keeps_a_valid_state
