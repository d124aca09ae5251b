"""Password rules: the word list, candidates and the notch-by-notch solver."""

from __future__ import annotations

from gptnt.protocol import PasswordModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._steps import Press
from gptnt.rules.modules.password import V1, candidates, elements, mistakes, solve

EDGE = Edgework(serial="AB1CD2")


def module(current: str, goal: str = "PLANT") -> PasswordModule:
    return PasswordModule(on_front=True, index=5, current_word=current, goal_word=goal)


def test_word_list_is_35_distinct_five_letter_words() -> None:
    assert len(set(V1.words)) == 35
    assert all(len(w) == 5 and w.isupper() for w in V1.words)


def test_candidates_spell_from_columns() -> None:
    cols = ["PTW", "LHR", "AIE", "NCT", "TKE"]
    assert candidates(cols, V1) == ["PLACE", "PLANT", "THINK", "WRITE"]
    assert candidates(["P", "L", "A", "N", "T"], V1) == ["PLANT"]


def test_solver_turns_wrong_columns_then_submits() -> None:
    real = module("PCVNK")  # a real state [DATA]
    assert solve(real, EDGE, V1, strikes=0) == [Press("down-1"), Press("down-2"), Press("down-4")]
    assert solve(module("PLANT"), EDGE, V1, strikes=0) == [Press("submit")]
    assert solve(module("PLANT").model_copy(update={"is_solved": True}), EDGE, V1, strikes=0) == []


def test_only_a_wrong_submit_is_a_mistake() -> None:
    assert mistakes(module("PCVNK"), EDGE, V1, strikes=0) == [Press("submit")]
    assert mistakes(module("PLANT"), EDGE, V1, strikes=0) == []


def test_elements_order() -> None:
    assert elements(module("PLANT")) == [
        "up-0", "up-1", "up-2", "up-3", "up-4",
        "down-0", "down-1", "down-2", "down-3", "down-4", "submit",
    ]  # fmt: skip
