"""Memory engine: generation, five stages with history, reset on strike, emerging, self-check."""

from __future__ import annotations

import random

from _support import FakeBomb, follow_the_oracle, generated, random_play_test

from gptnt.protocol import MemoryModule
from gptnt.rules.modules import memory as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.memory import ENGINE, GENERATION, MemoryEngine


def new(seed: int) -> MemoryEngine:
    return generated(ENGINE, random.Random(seed), FakeBomb(), Slot(True, 1))


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


def test_oracle_self_check() -> None:
    """200 seeds: five stages solved from the described state plus the oracle's own history,
    without a strike; every mistake at every stage costs exactly one strike."""
    for seed in range(200):
        history: list[object] = []
        follow_the_oracle(new(seed), rules_file, V1.memory, rounds=8, history=history)
        assert len(history) == 5


test_random_play_keeps_a_valid_state = random_play_test(new, MemoryModule)
