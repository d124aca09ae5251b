"""Wires engine: generation (determinism, distribution, schema), cutting, oracle self-check."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from _support import FakeBomb, follow_the_oracle, generated, random_play_test

from gptnt.errors import SimulatorError
from gptnt.protocol import WiresModule
from gptnt.rules import Edgework
from gptnt.rules.modules import wires as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.wires import ENGINE, WiresEngine


def new(seed: int, serial: str | None = None) -> WiresEngine:
    rng = random.Random(seed)
    bomb = FakeBomb(Edgework(serial=serial or f"AB1CD{rng.randrange(10)}"))
    return generated(ENGINE, rng, bomb, Slot(True, 2))


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


def test_oracle_self_check() -> None:
    """For 200 seeds the oracle solves without a strike; every listed mistake costs one strike."""
    for seed in range(200):
        follow_the_oracle(new(seed), rules_file, V1.wires, rounds=3)


test_random_play_keeps_a_valid_state = random_play_test(new, WiresModule)
