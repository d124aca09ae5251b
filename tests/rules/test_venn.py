"""Complicated Wires rules: the Venn diagram as data and its edgework conditions."""

from __future__ import annotations

import itertools

import pytest

from gptnt.protocol import VennModule, VennWire
from gptnt.rules._edgework import Edgework
from gptnt.rules._steps import Press
from gptnt.rules.modules.venn import V1, elements, features, mistakes, solve

ODD_NO_PORTS = Edgework(serial="AB1CD3")
EVEN_PARALLEL_2BAT = Edgework(serial="AB1CD2", battery_holders=(2,), port_plates=(("Parallel",),))


def wire(
    pos: int, color: str, led: bool = False, star: bool = False, cut: bool = False
) -> VennWire:
    return VennWire(position=pos, color=color, is_led_on=led, has_star=star, is_cut=cut)  # type: ignore[arg-type]


def test_diagram_covers_all_sixteen_combinations_once() -> None:
    keys = [k for k, _ in V1.diagram]
    assert sorted(keys) == sorted(itertools.product((False, True), repeat=4))


def one_wire(color: str, led: bool, star: bool) -> VennModule:
    return VennModule(on_front=True, index=0, wires=[wire(0, color, led=led, star=star)])


def test_appendix_c_red_blue_star_led_is_never_cut() -> None:
    f = features("red, blue", has_star=True, led_on=True)
    assert V1.instruction(f) == "dont_cut"
    m = one_wire("red, blue", led=True, star=True)
    for edge in (EVEN_PARALLEL_2BAT, ODD_NO_PORTS):
        assert solve(m, edge, V1, strikes=0) == []
        assert mistakes(m, edge, V1, strikes=0) == [Press("wire-0")]


def test_appendix_c_blue_led_no_star_cut_iff_parallel_port() -> None:
    m = one_wire("blue", led=True, star=False)
    assert solve(m, EVEN_PARALLEL_2BAT, V1, strikes=0) == [Press("wire-0")]
    assert solve(m, ODD_NO_PORTS, V1, strikes=0) == []


@pytest.mark.parametrize(
    ("color", "star", "led", "even", "odd"),
    [
        ("white", False, False, True, True),  # plain: cut
        ("white", False, True, False, False),  # LED only: don't
        ("red, white", False, False, True, False),  # red: serial even
        ("white", True, True, True, False),  # star + LED: two batteries
        ("blue, white", True, False, False, False),  # blue + star: don't
    ],
)
def test_conditions_read_the_edgework(
    color: str, star: bool, led: bool, even: bool, odd: bool
) -> None:
    f = features(color, star, led)
    assert V1.should_cut(f, EVEN_PARALLEL_2BAT) is even
    assert V1.should_cut(f, ODD_NO_PORTS) is odd


def test_solver_cuts_left_to_right_and_mistakes_are_the_rest() -> None:
    m = VennModule(
        on_front=False, index=2,
        wires=[wire(0, "white"), None, wire(2, "white", led=True), wire(3, "red", star=True),
               wire(4, "white", cut=True), None],
    )  # fmt: skip
    assert elements(m) == ["wire-0", "wire-2", "wire-3", "wire-4"]
    assert solve(m, ODD_NO_PORTS, V1, strikes=0) == [Press("wire-0"), Press("wire-3")]
    assert mistakes(m, ODD_NO_PORTS, V1, strikes=0) == [Press("wire-2")]
    assert solve(m.model_copy(update={"is_solved": True}), ODD_NO_PORTS, V1, strikes=0) == []
