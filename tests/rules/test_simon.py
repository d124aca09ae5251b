"""Simon Says rules: Appendix C vectors, the table's shape, the strike-row clamp, stages."""

from __future__ import annotations

from gptnt.protocol import SimonModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._steps import Press
from gptnt.rules.modules.simon import COLORS, V1, elements, mapped, mistakes, solve

VOWEL = Edgework(serial="AE1CD2")
NO_VOWEL = Edgework(serial="BC1DF2")


def test_appendix_c_vowel_rows() -> None:
    m = SimonModule(
        on_front=True, index=0, beep_sequence=["red", "blue", "green"], solve_progress=1
    )
    assert solve(m, VOWEL, V1, strikes=0) == [Press("blue"), Press("red")]
    assert mapped("red", True, 1, V1) == "yellow"


def test_each_row_is_a_permutation_and_strikes_clamp_at_two() -> None:
    for row in V1.table.values():
        assert sorted(row) == sorted(COLORS) and sorted(row.values()) == sorted(COLORS)
    assert mapped("blue", False, 0, V1) == "yellow"
    assert mapped("green", False, 1, V1) == "yellow"
    assert mapped("red", False, 5, V1) == mapped("red", False, 2, V1) == "yellow"


def test_stage_one_and_mistakes() -> None:
    m = SimonModule(
        on_front=True, index=0, beep_sequence=["green", "red", "red", "blue"], solve_progress=0
    )
    assert elements(m) == ["red", "blue", "green", "yellow"]
    assert solve(m, NO_VOWEL, V1, strikes=0) == [Press("green")]
    assert mistakes(m, NO_VOWEL, V1, strikes=0) == [Press("red"), Press("blue"), Press("yellow")]
    assert solve(m.model_copy(update={"is_solved": True}), NO_VOWEL, V1, strikes=0) == []
