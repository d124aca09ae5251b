"""Morse rules: word→frequency table, the dial, the solver and the TX mistake."""

from __future__ import annotations

import pytest

from gptnt.errors import ConfigError
from gptnt.protocol import MorseModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._steps import Press
from gptnt.rules.modules.morse import V1, elements, mistakes, solve

EDGE = Edgework(serial="AB1CD2")


def module(word: str, current: float = 505.0) -> MorseModule:
    return MorseModule(
        on_front=True, index=1, sequence=word, current_frequency=current,
        correct_frequency=float(V1.frequency(word)),
    )  # fmt: skip


def test_appendix_c_boxes_is_four_rights_from_505() -> None:
    assert solve(module("boxes"), EDGE, V1, strikes=0) == [Press("right")] * 4 + [Press("transmit")]


def test_dial_is_the_sixteen_frequencies_ascending() -> None:
    assert len(V1.dial) == 16 and list(V1.dial) == sorted(V1.dial)
    assert V1.dial[0] == 505 and V1.dial[-1] == 600


def test_solver_steps_left_when_past_the_word() -> None:
    assert solve(module("shell", 515.0), EDGE, V1, strikes=0) == [Press("left"), Press("transmit")]
    assert solve(module("beats", 600.0), EDGE, V1, strikes=0) == [Press("transmit")]


def test_alphabet_has_letters_and_digits() -> None:
    assert V1.code("s") == "..." and V1.code("O") == "---" and V1.code("0") == "-----"
    assert all(set(code) <= {".", "-"} for _, code in V1.alphabet)
    assert len(V1.alphabet) == 36


def test_mistake_is_transmit_off_frequency_only() -> None:
    assert mistakes(module("boxes"), EDGE, V1, strikes=0) == [Press("transmit")]
    assert mistakes(module("boxes", 535.0), EDGE, V1, strikes=0) == []


def test_bad_descriptions_name_the_field() -> None:
    with pytest.raises(ConfigError, match="sequence"):
        V1.frequency("bomb")
    with pytest.raises(ConfigError, match="current_frequency"):
        solve(module("boxes", 506.0), EDGE, V1, strikes=0)


def test_elements_and_solved() -> None:
    assert elements(module("boxes")) == ["left", "right", "transmit"]
    assert solve(module("boxes").model_copy(update={"is_solved": True}), EDGE, V1, strikes=0) == []
