"""Keypad engine: generation, press order, LEDs (green stays, red flashes), oracle self-check."""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from gptnt.protocol._state import KeypadModule, ModuleKind
from gptnt.rules._edgework import Edgework
from gptnt.rules.modules import keypad as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.keypad import ENGINE, KeypadEngine


@dataclass
class FakeBomb:
    """What a module sees of its bomb: fixed edgework, a strike log, a frozen timer."""

    edgework: Edgework
    strikes: list[ModuleKind] = field(default_factory=list)

    @property
    def strike_count(self) -> int:
        return len(self.strikes)

    def timer_text(self) -> str:
        return "04:59"

    def strike(self, module: ModuleKind) -> None:
        self.strikes.append(module)


def new(seed: int) -> KeypadEngine:
    engine = ENGINE.generate(
        random.Random(seed), rules=V1, bomb=FakeBomb(Edgework(serial="AB1CD2")), slot=Slot(False, 4)
    )
    assert isinstance(engine, KeypadEngine)
    return engine


def test_generation_is_deterministic_and_valid() -> None:
    assert new(9).export(0, in_focus=True) == new(9).export(0, in_focus=True)
    columns = Counter()
    for seed in range(300):
        e = new(seed)
        assert len(set(e.symbols)) == 4
        columns[rules_file.column_of(e.symbols, V1.keypad)] += 1
        state = e.export(0.0, in_focus=False)
        assert KeypadModule.model_validate(state.to_wire()) == state
    assert len(columns) == 6  # every column occurs


def test_appendix_c_order_leds_and_strikes() -> None:
    bomb = FakeBomb(Edgework(serial="AB1CD2"))
    symbols = ("hollow-star", "lambda-bar", "qa", "ha-with-descender")
    e = KeypadEngine(rules=V1, bomb=bomb, slot=Slot(True, 0), symbols=symbols)
    e.press("bottom-left", 1.0)  # Ҩ first
    e.press("top-left", 2.0)  # ☆ is last: strike, red flash
    state = e.export(2.5, in_focus=True)
    assert state.bottom_left.color == "green" and state.top_left.color == "red"
    assert bomb.strikes == ["Keypad"]
    assert e.export(3.5, in_focus=True).top_left.color is None  # the flash is over
    e.press("bottom-left", 4.0)  # already down: nothing
    assert bomb.strike_count == 1
    for key in ("bottom-right", "top-right", "top-left"):
        e.press(key, 5.0)
    assert e.solved and bomb.strike_count == 1


def assert_mistakes_cost_one_strike(engine: KeypadEngine, t: float) -> None:
    state = engine.export(t, in_focus=True)
    for wrong in rules_file.mistakes(
        state, engine.bomb.edgework, V1.keypad, strikes=engine.bomb.strike_count
    ):
        trial = copy.deepcopy(engine, {id(engine.rules): engine.rules})
        before = trial.bomb.strike_count
        trial.press(wrong.element, t)  # type: ignore[union-attr]
        assert trial.bomb.strike_count == before + 1, wrong


def test_oracle_self_check() -> None:
    """200 seeds: the oracle solves without a strike; each listed mistake costs one strike,
    checked before every key (so also with progress made)."""
    for seed in range(200):
        engine = new(seed)
        t = 0.0
        plan = rules_file.solve(
            engine.export(t, in_focus=True), engine.bomb.edgework, V1.keypad, strikes=0
        )
        assert len(plan) == 4
        for step in plan:
            assert_mistakes_cost_one_strike(engine, t)
            engine.press(step.element, t)  # type: ignore[union-attr]
            engine.release(step.element, t)  # type: ignore[union-attr]
            t += 0.5
        assert engine.solved and engine.bomb.strike_count == 0, seed
        assert (
            rules_file.solve(
                engine.export(t, in_focus=True), engine.bomb.edgework, V1.keypad, strikes=0
            )
            == []
        )


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
        assert KeypadModule.model_validate(state.to_wire()) == state
        assert engine.bomb.strike_count >= strikes and (engine.solved or not solved)
        strikes, solved = engine.bomb.strike_count, engine.solved
