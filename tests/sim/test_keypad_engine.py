"""Keypad engine: generation, press order, LEDs (green stays, red flashes), oracle self-check."""

from __future__ import annotations

import random
from collections import Counter

from _support import FakeBomb, follow_the_oracle, generated, random_play_test

from gptnt.protocol import KeypadModule
from gptnt.rules import Edgework
from gptnt.rules.modules import keypad as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.keypad import ENGINE, KeypadEngine


def new(seed: int) -> KeypadEngine:
    return generated(ENGINE, random.Random(seed), FakeBomb(), Slot(False, 4))


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


def test_oracle_self_check() -> None:
    """200 seeds: the oracle solves with four presses and no strike; each listed mistake costs one
    strike, checked before every key (so also with progress made)."""
    for seed in range(200):
        played = follow_the_oracle(new(seed), rules_file, V1.keypad, rounds=1)
        assert [len(plan) for _, plan in played] == [4]


test_random_play_keeps_a_valid_state = random_play_test(new, KeypadModule)
