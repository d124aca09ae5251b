"""Wires engine: generation (determinism, distribution, schema), cutting, oracle self-check."""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gptnt.errors import SimulatorError
from gptnt.protocol._state import ModuleKind, WiresModule
from gptnt.rules._edgework import Edgework
from gptnt.rules.modules import wires as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.wires import ENGINE, WiresEngine


@dataclass
class FakeBomb:
    """What a module sees of its bomb: edgework, a strike log, and a timer at game time ``now``."""

    edgework: Edgework
    strikes: list[ModuleKind] = field(default_factory=list)
    now: float = 0.0

    @property
    def strike_count(self) -> int:
        return len(self.strikes)

    def timer_text(self) -> str:
        left = max(0.0, 300.0 - self.now)
        return f"{int(left) // 60:02d}:{int(left) % 60:02d}"

    def strike(self, module: ModuleKind) -> None:
        self.strikes.append(module)


def new(seed: int, serial: str | None = None) -> WiresEngine:
    rng = random.Random(seed)
    bomb = FakeBomb(Edgework(serial=serial or f"AB1CD{rng.randrange(10)}"))
    engine = ENGINE.generate(rng, rules=V1, bomb=bomb, slot=Slot(True, 2))
    assert isinstance(engine, WiresEngine)
    return engine


def test_generation_is_deterministic_and_exports_valid_state() -> None:
    assert new(11).export(0, in_focus=False) == new(11).export(0, in_focus=False)
    for seed in range(50):
        e = new(seed)
        state = e.export(0.0, in_focus=True)
        assert WiresModule.model_validate(state.to_wire()) == state
        assert len(state.wires) == 6 and state.index == 2 and state.in_focus
        assert e.elements() == rules_file.elements(state)


def test_count_distribution_matches_the_reference() -> None:
    counts = Counter(len(new(seed).colors) for seed in range(3000))
    assert set(counts) == {3, 4, 5, 6}
    assert abs(counts[6] / 3000 - 0.5) < 0.04
    for n in (3, 4, 5):
        assert abs(counts[n] / 3000 - 1 / 6) < 0.03


def test_wrong_cut_strikes_once_and_right_cut_still_solves() -> None:
    bomb = FakeBomb(Edgework(serial="AB1CD2"))
    colors = dict(enumerate(["blue", "red", "red", "white", "white", "blue"]))
    e = WiresEngine(rules=V1, bomb=bomb, slot=Slot(True, 0), colors=colors)
    assert e.correct_slot() == 3  # Appendix C, even serial
    e.press("wire-0", 1.0)
    e.press("wire-0", 2.0)  # re-cutting a cut wire does nothing
    assert bomb.strikes == ["Wires"] and e.last_strike_time == 1.0 and not e.solved
    assert e.export(2.0, in_focus=True).wires[0].is_cut  # type: ignore[union-attr]
    e.press("wire-3", 3.0)
    assert e.solved and bomb.strike_count == 1
    e.press("wire-5", 4.0)
    assert bomb.strike_count == 1  # solved modules ignore input


def test_unknown_element_is_refused() -> None:
    with pytest.raises(SimulatorError, match="element"):
        new(1).press("wire-9", 0.0)


def assert_mistakes_cost_one_strike(engine: WiresEngine, t: float) -> None:
    state = engine.export(t, in_focus=True)
    for wrong in rules_file.mistakes(
        state, engine.bomb.edgework, V1.wires, strikes=engine.bomb.strike_count
    ):
        trial = copy.deepcopy(engine, {id(engine.rules): engine.rules})
        before = trial.bomb.strike_count
        trial.press(wrong.element, t)
        assert trial.bomb.strike_count == before + 1, wrong


def test_oracle_self_check() -> None:
    """For 200 seeds the oracle solves without a strike; every listed mistake costs one strike."""
    for seed in range(200):
        engine = new(seed)
        t = 0.0
        for _ in range(3):
            state = engine.export(t, in_focus=True)
            plan = rules_file.solve(
                state, engine.bomb.edgework, V1.wires, strikes=engine.bomb.strike_count
            )
            if not plan:
                break
            for step in plan:
                assert_mistakes_cost_one_strike(engine, t)
                engine.press(step.element, t)  # type: ignore[union-attr]
                engine.release(step.element, t)  # type: ignore[union-attr]
                t += 0.5
        assert engine.solved and engine.bomb.strike_count == 0, seed


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
        assert WiresModule.model_validate(state.to_wire()) == state
        assert engine.bomb.strike_count >= strikes and (engine.solved or not solved)
        strikes, solved = engine.bomb.strike_count, engine.solved
