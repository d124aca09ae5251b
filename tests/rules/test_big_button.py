"""The Button rules: Appendix C vectors, every rule line, strip digits, solve/mistakes by state."""

from __future__ import annotations

import pytest

from gptnt.errors import ConfigError
from gptnt.protocol import BigButtonModule
from gptnt.rules._edgework import Edgework, Indicator
from gptnt.rules._steps import Hold, Press, Release, Timing
from gptnt.rules.modules.big_button import V1, action, mistakes, release_ok, release_timing, solve

PLAIN = Edgework(serial="AB1CD2")


def edge(batteries: int = 0, lit: tuple[str, ...] = ()) -> Edgework:
    return Edgework(
        serial="AB1CD2",
        battery_holders=(1,) * batteries,
        indicators=tuple(Indicator(label, True) for label in lit),
    )


def test_appendix_c_blue_abort_holds_whatever_the_edgework() -> None:
    for e in (PLAIN, edge(3, ("FRK", "CAR")), edge(2)):
        assert action("blue", "Abort", e, V1) == "hold"


def test_appendix_c_red_detonate_two_batteries_taps() -> None:
    assert action("red", "Detonate", edge(2), V1) == "tap"


def test_appendix_c_release_digits() -> None:
    assert release_ok(4 * 60 + 37.2, "blue", V1)  # 04:37
    assert release_ok(12.50, "yellow", V1)  # 12.50
    assert not release_ok(12.50, "blue", V1)
    assert release_timing("red", V1) == release_timing("white", V1) == Timing("timer_has_digit", 1)


@pytest.mark.parametrize(
    ("color", "word", "edgework", "expected"),
    [
        ("white", "Press", edge(0, ("CAR",)), "hold"),  # rule 3
        (
            "white",
            "Press",
            Edgework(serial="AB1CD2", indicators=(Indicator("CAR", False),)),
            "hold",
        ),
        ("red", "Press", edge(3, ("FRK",)), "tap"),  # rule 4
        ("red", "Press", edge(2, ("FRK",)), "hold"),  # rule 4 needs > 2 batteries
        ("yellow", "Hold", PLAIN, "hold"),  # rule 5
        ("red", "Hold", PLAIN, "tap"),  # rule 6
        ("blue", "Detonate", edge(1), "hold"),  # otherwise
        ("white", "Abort", PLAIN, "hold"),
    ],
)
def test_rule_lines(color: str, word: str, edgework: Edgework, expected: str) -> None:
    assert action(color, word, edgework, V1) == expected


def state(
    color: str, word: str, *, held: bool = False, strip: str | None = None
) -> BigButtonModule:
    return BigButtonModule(
        on_front=True,
        index=0,
        button_color=color,
        button_word=word,
        is_held=held,
        strip_color=strip,
    )


def test_solve_and_mistakes_follow_the_state() -> None:
    assert solve(state("red", "Hold"), PLAIN, V1, strikes=0) == [Press("button")]
    assert mistakes(state("red", "Hold"), PLAIN, V1, strikes=0) == []
    assert solve(state("blue", "Abort"), PLAIN, V1, strikes=0) == [Hold("button")]
    assert mistakes(state("blue", "Abort"), PLAIN, V1, strikes=0) == [Press("button")]
    held = state("blue", "Abort", held=True, strip="yellow")
    assert solve(held, PLAIN, V1, strikes=0) == [Release(Timing("timer_has_digit", 5))]
    wrongly_held = state("red", "Hold", held=True, strip="blue")
    assert mistakes(wrongly_held, PLAIN, V1, strikes=0) == [Release(Timing("any_time"))]
    assert (
        solve(state("red", "Hold").model_copy(update={"is_solved": True}), PLAIN, V1, strikes=0)
        == []
    )


def test_held_without_a_strip_colour_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="strip_color"):
        solve(state("blue", "Abort", held=True), PLAIN, V1, strikes=0)
