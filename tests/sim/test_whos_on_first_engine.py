"""Who's on First engine: generation, stages, emerging animation, strikes, oracle self-check."""

from __future__ import annotations

import random
from collections import Counter

from _support import FakeBomb, follow_the_oracle, generated, random_play_test

from gptnt.protocol import WhosOnFirstModule
from gptnt.rules.modules import whos_on_first as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.whos_on_first import ENGINE, GENERATION, WhosOnFirstEngine


def new(seed: int) -> WhosOnFirstEngine:
    return generated(ENGINE, random.Random(seed), FakeBomb(), Slot(True, 5))


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


def test_oracle_self_check() -> None:
    """200 seeds: three stages solved without a strike; every mistake at every stage costs one."""
    for seed in range(200):
        follow_the_oracle(new(seed), rules_file, V1.whos_on_first, rounds=5)


test_random_play_keeps_a_valid_state = random_play_test(new, WhosOnFirstModule)
