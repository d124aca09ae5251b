"""Morse engine: the blinking signal over game time, the dial, TX, and the oracle self-check."""

from __future__ import annotations

import random

from _support import FakeBomb, follow_the_oracle, generated, random_edgework

from gptnt.protocol import MorseModule
from gptnt.rules import Edgework
from gptnt.rules.modules import morse as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.morse import ENGINE, MorseEngine, MorseTiming, signal


def new(seed: int) -> MorseEngine:
    bomb = FakeBomb(random_edgework(random.Random(seed)))
    return generated(ENGINE, random.Random(seed), bomb, Slot(False, 2))


def word_engine(word: str) -> MorseEngine:
    return MorseEngine(
        rules=V1, bomb=FakeBomb(Edgework(serial="AB1CD2")), slot=Slot(True, 0), word=word
    )


def test_signal_units() -> None:
    timing = MorseTiming()
    code = dict(V1.morse.alphabet)
    # "ET": E = dot, letter gap, T = dash, word gap.
    assert (
        signal("et", code, timing) == (True, False, False, False, True, True, True) + (False,) * 10
    )
    # S = dot gap dot gap dot.
    assert signal("s", code, timing)[:6] == (True, False, True, False, True, False)


def test_light_blinks_on_the_quarter_second_unit_and_loops() -> None:
    e = word_engine("trick")  # T = one dash: lit for 3 units
    assert [e.light_on(0.25 * k + 0.01) for k in range(5)] == [True, True, True, False, False]
    period = len(signal("trick", dict(V1.morse.alphabet), MorseTiming())) * 0.25
    for k in range(40):
        assert e.light_on(0.1 + 0.25 * k) == e.light_on(0.1 + 0.25 * k + 3 * period)


def test_dial_starts_at_505_and_clamps_at_both_ends() -> None:
    e = word_engine("beats")
    assert e.export(0, in_focus=False).current_frequency == 505.0
    e.press("left", 0.0)
    assert e.frequency == 505
    for _ in range(20):
        e.press("right", 0.0)
    assert e.frequency == 600 and e.bomb.strike_count == 0


def test_appendix_c_boxes_four_rights_then_tx_solves() -> None:
    e = word_engine("boxes")
    e.press("transmit", 1.0)
    assert e.bomb.strike_count == 1 and not e.solved and e.frequency == 505
    for _ in range(4):
        e.press("right", 2.0)
    assert e.frequency == 535
    e.press("transmit", 3.0)
    assert e.solved and e.bomb.strike_count == 1
    state = e.export(3.0, in_focus=True)
    assert (state.sequence, state.current_frequency, state.correct_frequency) == (
        "boxes",
        535.0,
        535.0,
    )


def test_generation_is_deterministic_and_covers_words() -> None:
    assert new(3).export(0, in_focus=False) == new(3).export(0, in_focus=False)
    words = {new(seed).word for seed in range(300)}
    assert words == {w for w, _ in V1.morse.words}
    MorseModule.model_validate(new(1).export(0, in_focus=True).to_wire())


def test_oracle_self_check() -> None:
    """For 200 seeds the oracle solves without a strike; every listed mistake costs one strike."""
    for seed in range(200):
        follow_the_oracle(new(seed), rules_file, V1.morse, rounds=5)
