"""Who's on First engine: generation, stages, emerging animation, strikes, oracle self-check."""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from gptnt.protocol._state import ModuleKind, WhosOnFirstModule
from gptnt.rules._edgework import Edgework
from gptnt.rules.modules import whos_on_first as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.whos_on_first import ENGINE, GENERATION, WhosOnFirstEngine


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


def new(seed: int) -> WhosOnFirstEngine:
    engine = ENGINE.generate(
        random.Random(seed), rules=V1, bomb=FakeBomb(Edgework(serial="AB1CD2")), slot=Slot(True, 5)
    )
    assert isinstance(engine, WhosOnFirstEngine)
    return engine


def right_and_wrong(e: WhosOnFirstEngine) -> tuple[str, str]:
    right = rules_file.button_to_press(e.display, e.buttons, V1.whos_on_first)
    return f"button-{right}", f"button-{(right + 1) % 6}"


def test_generation_is_deterministic_and_valid() -> None:
    assert new(4).export(0, in_focus=True) == new(4).export(0, in_focus=True)
    displays = Counter()
    for seed in range(300):
        e = new(seed)
        state = e.export(0.0, in_focus=True)
        assert WhosOnFirstModule.model_validate(state.to_wire()) == state
        assert state.is_emerged and state.stage == 1 and len(set(state.button_words or ())) == 6
        assert any(set(e.buttons) <= set(g) for g in V1.whos_on_first.button_groups)
        displays[e.display] += 1
    assert len(displays) > 20 and "" in V1.whos_on_first.display_words


def test_correct_press_advances_with_an_emerge_animation() -> None:
    e = new(1)
    right, _ = right_and_wrong(e)
    e.press(right, 10.0)
    assert e.emerging(10.1) and not e.emerging(10.0 + GENERATION.emerge_time)
    hidden = e.export(11.0, in_focus=True)
    assert hidden.stage == 2 and not hidden.is_emerged
    assert hidden.display_word is None and hidden.button_words is None
    e.press("button-0", 11.0)  # ignored while emerging
    assert e.stage == 2 and e.bomb.strike_count == 0
    assert e.export(13.0, in_focus=True).is_emerged


def test_wrong_press_strikes_keeps_the_stage_and_redraws() -> None:
    e = new(2)
    right, _ = right_and_wrong(e)
    e.press(right, 0.0)
    t = 5.0
    _, wrong = right_and_wrong(e)
    e.press(wrong, t)
    assert e.bomb.strikes == ["WhosOnFirst"] and e.stage == 2 and e.emerging(t + 0.1)


def test_third_correct_press_solves() -> None:
    e = new(3)
    for stage in range(3):
        right, _ = right_and_wrong(e)
        e.press(right, stage * 5.0)
    assert e.solved and e.stages_done() == 3 and e.export(20.0, in_focus=True).is_solved


def assert_mistakes_cost_one_strike(engine: WhosOnFirstEngine, t: float) -> None:
    state = engine.export(t, in_focus=True)
    for wrong in rules_file.mistakes(state, engine.bomb.edgework, V1.whos_on_first, strikes=0):
        trial = copy.deepcopy(engine, {id(engine.rules): engine.rules})
        before = trial.bomb.strike_count
        trial.press(wrong.element, t)  # type: ignore[union-attr]
        assert trial.bomb.strike_count == before + 1, wrong


def test_oracle_self_check() -> None:
    """200 seeds: three stages solved without a strike; every mistake at every stage costs one."""
    for seed in range(200):
        engine = new(seed)
        t = 0.0
        for _ in range(5):
            state = engine.export(t, in_focus=True)
            plan = rules_file.solve(state, engine.bomb.edgework, V1.whos_on_first, strikes=0)
            if not plan:
                break
            assert_mistakes_cost_one_strike(engine, t)
            for step in plan:
                engine.press(step.element, t)  # type: ignore[union-attr]
                engine.release(step.element, t)  # type: ignore[union-attr]
            t += GENERATION.emerge_time + 0.1  # past the animation
            engine.advance(t)
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
        assert WhosOnFirstModule.model_validate(state.to_wire()) == state
        assert engine.bomb.strike_count >= strikes and (engine.solved or not solved)
        strikes, solved = engine.bomb.strike_count, engine.solved
