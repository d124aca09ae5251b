"""Wires rules: Appendix C vectors, the rule lists as data, elements and mistakes."""

from __future__ import annotations

import pytest

from gptnt.protocol import Wire, WiresModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._steps import Press
from gptnt.rules.modules.wires import (
    V1,
    CutNth,
    WireRule,
    WiresRules,
    elements,
    mistakes,
    solve,
    wire_to_cut,
)

EVEN = Edgework(serial="AB1CD2")
ODD = Edgework(serial="AB1CD3")


def module(*colors: str | None, cut: tuple[int, ...] = ()) -> WiresModule:
    wires = [
        None if c is None else Wire(position=i, color=c, is_cut=i in cut)
        for i, c in enumerate(colors)
    ]
    return WiresModule(on_front=True, index=0, wires=wires)


def test_appendix_c_six_wires_depends_on_serial_parity() -> None:
    colors = ["blue", "red", "red", "white", "white", "blue"]
    assert wire_to_cut(colors, EVEN, V1) == 3  # the 4th wire
    assert wire_to_cut(colors, ODD, V1) == 2  # the 3rd wire


def test_appendix_c_three_wires() -> None:
    assert wire_to_cut(["red", "white", "white"], EVEN, V1) == 2  # last wire is white
    assert wire_to_cut(["blue", "blue", "red"], EVEN, V1) == 1  # the last blue


@pytest.mark.parametrize(
    ("colors", "edgework", "expected"),
    [
        (["yellow", "blue", "black"], EVEN, 1),  # 3: no red → 2nd
        (["red", "blue", "red", "red"], ODD, 3),  # 4: >1 red, odd → last red
        (["blue", "blue", "black", "yellow"], EVEN, 0),  # 4: last yellow, no red → 1st
        (["red", "yellow", "yellow", "black"], EVEN, 3),  # 4: >1 yellow → last
        (["red", "red", "white", "black", "black"], ODD, 3),  # 5: last black & odd → 4th
        (["red", "yellow", "yellow", "white", "black"], EVEN, 0),  # 5: 1 red, >1 yellow → 1st
        (["white", "white", "white", "white", "blue"], EVEN, 1),  # 5: no black → 2nd
        (["blue", "blue", "blue", "blue", "blue", "red"], ODD, 2),  # 6: no yellow, odd → 3rd
        (
            ["yellow", "white", "white", "blue", "blue", "blue"],
            EVEN,
            3,
        ),  # 6: 1 yellow, >1 white → 4th
        (["yellow", "yellow", "white", "blue", "blue", "blue"], EVEN, 5),  # 6: no red → last
    ],
)
def test_every_rule_list(colors: list[str], edgework: Edgework, expected: int) -> None:
    assert wire_to_cut(colors, edgework, V1) == expected


def test_rules_are_data_another_table_changes_the_answer() -> None:
    always_first = WiresRules(by_count={3: (WireRule(when=(), cut=CutNth(1)),)})
    assert wire_to_cut(["red", "white", "white"], EVEN, always_first) == 0


def test_solve_uses_slots_and_skips_empty_ones() -> None:
    m = module(None, "red", None, "white", "white", None)
    assert elements(m) == ["wire-1", "wire-3", "wire-4"]
    assert solve(m, EVEN, V1, strikes=0) == [Press("wire-4")]
    assert mistakes(m, EVEN, V1, strikes=0) == [Press("wire-1"), Press("wire-3")]


def test_mistakes_skip_cut_wires_and_solved_is_empty() -> None:
    m = module(None, "red", None, "white", "white", None, cut=(1,))
    assert mistakes(m, EVEN, V1, strikes=1) == [Press("wire-3")]
    solved = m.model_copy(update={"is_solved": True})
    assert solve(solved, EVEN, V1, strikes=0) == [] and mistakes(solved, EVEN, V1, strikes=0) == []
