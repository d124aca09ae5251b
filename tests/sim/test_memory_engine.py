"""Memory engine: generation, five stages with history, reset on strike, emerging, self-check."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from gptnt.protocol._state import MemoryModule, ModuleKind
from gptnt.rules._edgework import Edgework
from gptnt.rules.modules import memory as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.memory import ENGINE, GENERATION, MemoryEngine


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


def new(seed: int) -> MemoryEngine:
    engine = ENGINE.generate(
        random.Random(seed), rules=V1, bomb=FakeBomb(Edgework(serial="AB1CD2")), slot=Slot(True, 1)
    )
    assert isinstance(engine, MemoryEngine)
    return engine


def right_position(e: MemoryEngine) -> int:
    return rules_file.position_to_press(e.stage, e.display, e.labels, e.history, V1.memory)


def test_generation_is_deterministic_and_valid() -> None:
    assert new(6).export(0, in_focus=True) == new(6).export(0, in_focus=True)
    for seed in range(100):
        e = new(seed)
        state = e.export(0.0, in_focus=True)
        assert MemoryModule.model_validate(state.to_wire()) == state
        assert state.to_wire()["displayNumber"] == str(e.display)  # strings on the wire
        assert sorted(state.button_numbers or ()) == [1, 2, 3, 4] and state.stage == 1


def test_stages_record_history_and_hide_numbers_while_emerging() -> None:
    e = new(1)
    t = 0.0
    for stage in range(1, 4):
        p = right_position(e)
        label = e.labels[p - 1]
        e.press(f"button-{p - 1}", t)
        assert e.history[-1] == rules_file.MemoryPress(p, label)
        hidden = e.export(t + 0.5, in_focus=True)
        assert hidden.stage == stage + 1 and not hidden.is_emerged and hidden.display_number is None
        t += GENERATION.emerge_time
        assert e.export(t, in_focus=True).is_emerged
    assert e.stages_done() == 3


def test_strike_resets_to_stage_one() -> None:
    e = new(2)
    for _ in range(2):
        e.press(f"button-{right_position(e) - 1}", 0.0)
        e.emerged_at = 0.0
    assert e.stage == 3 and len(e.history) == 2
    wrong = right_position(e) % 4  # a different position, as an index
    e.press(f"button-{wrong}", 1.0)
    assert e.bomb.strikes == ["Memory"] and e.stage == 1 and e.history == [] and e.emerging(1.5)


def assert_mistakes_cost_one_strike(engine: MemoryEngine, t: float, history: list) -> None:
    state = engine.export(t, in_focus=True)
    for wrong in rules_file.mistakes(
        state, engine.bomb.edgework, V1.memory, strikes=0, history=history
    ):
        trial = copy.deepcopy(engine, {id(engine.rules): engine.rules})
        before = trial.bomb.strike_count
        trial.press(wrong.element, t)  # type: ignore[union-attr]
        assert trial.bomb.strike_count == before + 1, wrong


def test_oracle_self_check() -> None:
    """200 seeds: five stages solved from the described state plus the oracle's own history,
    without a strike; every mistake at every stage costs exactly one strike."""
    for seed in range(200):
        engine = new(seed)
        t = 0.0
        history: list[rules_file.MemoryPress] = []
        for _ in range(8):
            state = engine.export(t, in_focus=True)
            plan = rules_file.solve(
                state, engine.bomb.edgework, V1.memory, strikes=0, history=history
            )
            if not plan:
                break
            assert_mistakes_cost_one_strike(engine, t, history)
            for step in plan:
                history.append(rules_file.pressed(state, step))  # type: ignore[arg-type]
                engine.press(step.element, t)  # type: ignore[union-attr]
                engine.release(step.element, t)  # type: ignore[union-attr]
            t += GENERATION.emerge_time + 0.1
            engine.advance(t)
        assert engine.solved and engine.bomb.strike_count == 0, seed
        assert len(history) == 5


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
        assert MemoryModule.model_validate(state.to_wire()) == state
        assert engine.bomb.strike_count >= strikes and (engine.solved or not solved)
        strikes, solved = engine.bomb.strike_count, engine.solved
