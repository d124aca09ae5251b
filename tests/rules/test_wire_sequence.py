"""Wire Sequence rules: occurrence tables counted over panels."""

from __future__ import annotations

from gptnt.protocol import SequenceWire, WireSequenceModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._steps import Press
from gptnt.rules.modules.wire_sequence import V1, elements, mistakes, required, solve

EDGE = Edgework(serial="AB1CD2")


def w(slot: int, color: str, letter: str, cut: bool = False) -> SequenceWire:
    return SequenceWire(
        start_position_number=slot, end_position_letter=letter, color=color, is_cut=cut
    )  # type: ignore[arg-type]


def module(wires: list[SequenceWire | None], panel: int = 1) -> WireSequenceModule:
    return WireSequenceModule(on_front=True, index=3, panel=panel, wires=wires)


def test_appendix_c_first_black_cut_whatever_the_letter() -> None:
    for letter in "ABC":
        assert required([w(0, "black", letter)], V1) == {0: True}
        assert solve(module([w(0, "black", letter)]), EDGE, V1, strikes=0) == [
            Press("wire-0"),
            Press("down"),
        ]


def test_appendix_c_first_red_to_a_is_not_cut() -> None:
    assert required([w(0, "red", "A")], V1) == {0: False}
    assert required([w(0, "red", "C")], V1) == {0: True}
    assert solve(module([w(0, "red", "A")]), EDGE, V1, strikes=0) == [Press("down")]
    assert mistakes(module([w(0, "red", "A")]), EDGE, V1, strikes=0) == [Press("wire-0")]


def test_occurrences_count_per_colour_across_panels() -> None:
    wires = [w(0, "red", "C"), None, w(2, "blue", "B"), None, w(4, "red", "B"), w(5, "red", "B")]
    # red #1→C cut, blue #1→B cut, red #2→B cut, red #3 (needs A)→B keep
    assert required(wires, V1) == {0: True, 2: True, 4: True, 5: False}


def test_tables_have_nine_rows_per_colour() -> None:
    assert {len(letters) for _, letters in V1.cut_letters} == {9}
    assert {c for c, _ in V1.cut_letters} == {"red", "blue", "black"}


def test_solver_cuts_then_goes_down_and_mistakes() -> None:
    wires = [w(0, "red", "A"), w(1, "black", "B"), None, w(3, "blue", "B")]
    first = module(wires)
    assert elements(first) == ["wire-0", "wire-1", "down", "up"]
    assert solve(first, EDGE, V1, strikes=0) == [Press("wire-1"), Press("down")]
    assert mistakes(first, EDGE, V1, strikes=0) == [Press("wire-0"), Press("down")]
    done = module([w(0, "red", "A"), w(1, "black", "B", cut=True), None, w(3, "blue", "B")])
    assert solve(done, EDGE, V1, strikes=0) == [Press("down")]
    assert mistakes(done, EDGE, V1, strikes=0) == [Press("wire-0")]
    second = module(done.wires, panel=2)
    assert elements(second) == ["wire-3", "down", "up"]
    assert solve(second, EDGE, V1, strikes=0) == [Press("wire-3"), Press("down")]


def test_nothing_to_do_past_the_last_panel() -> None:
    assert solve(module([w(0, "red", "C", cut=True)], panel=5), EDGE, V1, strikes=0) == []
