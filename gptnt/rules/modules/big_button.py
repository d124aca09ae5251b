"""The Button: tap or hold, decided by a rule list; when held, the strip colour names a moment.

Both tables are data: ``ButtonRules.rules`` is the manual's ordered list of (conditions → tap,
hold, or under rule seeds a tap timed to the seconds digits) with a final ``otherwise``;
``strip_release`` maps the lit strip's colour to the ``Timing`` of a correct release (the v1
manual: a digit anywhere on the timer, ``MM:SS`` or ``SS.hh``), ``other_release`` covers every
other colour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from gptnt.errors import ConfigError
from gptnt.protocol import BigButtonModule
from gptnt.rules._edgework import (
    BatteriesAbove,
    Edgework,
    EdgeworkCondition,
    EmptyPortPlate,
    LitIndicator,
    PortPresent,
    SerialOdd,
    SerialStartsWithLetter,
)
from gptnt.rules._file import no_history
from gptnt.rules._steps import Hold, Press, Release, Step, Timing

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset

# "tap_when_seconds_digits_match": tap while the two seconds digits are equal (rule seeds only).
Action = Literal["tap", "hold", "tap_when_seconds_digits_match"]
TAP_WHEN_MATCH = Timing("seconds_digits_match")

# ---------------------------------------------------------------- conditions


@dataclass(frozen=True)
class ColorIs:
    """The button's colour is ``color``."""

    color: str


@dataclass(frozen=True)
class WordIs:
    """The button's label reads ``word`` (compared case-insensitively)."""

    word: str


Condition = ColorIs | WordIs | EdgeworkCondition


@dataclass(frozen=True)
class ButtonRule:
    """If every condition in ``when`` holds, the button must be handled with ``action``."""

    when: tuple[Condition, ...]
    action: Action


@dataclass(frozen=True)
class ButtonRules:
    """The rule list (first match wins), its fallback, and the strip → release-moment table."""

    rules: tuple[ButtonRule, ...]
    otherwise: Action
    strip_release: Mapping[str, Timing]  # lit strip colour → when to release
    other_release: Timing  # any strip colour missing from ``strip_release``


def _digit(d: int) -> Timing:
    return Timing("timer_has_digit", d)


V1 = ButtonRules(
    rules=(
        ButtonRule((ColorIs("blue"), WordIs("Abort")), "hold"),
        ButtonRule((BatteriesAbove(1), WordIs("Detonate")), "tap"),
        ButtonRule((ColorIs("white"), LitIndicator("CAR")), "hold"),
        ButtonRule((BatteriesAbove(2), LitIndicator("FRK")), "tap"),
        ButtonRule((ColorIs("yellow"),), "hold"),
        ButtonRule((ColorIs("red"), WordIs("Hold")), "tap"),
    ),
    otherwise="hold",
    strip_release={"blue": _digit(4), "white": _digit(1), "yellow": _digit(5)},
    other_release=_digit(1),
)

# ---------------------------------------------------------------- evaluator


def _holds(condition: Condition, color: str, word: str, edgework: Edgework) -> bool:
    match condition:
        case ColorIs(c):
            return color == c
        case WordIs(w):
            return word.lower() == w.lower()
        case (
            BatteriesAbove()
            | LitIndicator()
            | PortPresent()
            | EmptyPortPlate()
            | SerialOdd()
            | SerialStartsWithLetter()
        ):
            return condition.holds(edgework)
    raise AssertionError(f"unknown button condition {condition!r}")


def action(color: str, word: str, edgework: Edgework, rules: ButtonRules) -> Action:
    """Whether the button must be tapped (maybe at a moment) or held."""
    for rule in rules.rules:
        if all(_holds(c, color, word, edgework) for c in rule.when):
            return rule.action
    return rules.otherwise


def release_timing(strip_color: str, rules: ButtonRules) -> Timing:
    """When a held button with this strip colour must be released."""
    return rules.strip_release.get(strip_color, rules.other_release)


def release_ok(seconds_remaining: float, strip_color: str, rules: ButtonRules) -> bool:
    """A release is correct iff the strip's moment holds on the timer."""
    return release_timing(strip_color, rules).holds(seconds_remaining)


def tap_ok(seconds_remaining: float, needed: Action) -> bool:
    """A tap is correct iff a tap is needed (and, for a timed tap, its moment holds)."""
    if needed == "tap_when_seconds_digits_match":
        return TAP_WHEN_MATCH.holds(seconds_remaining)
    return needed == "tap"


# ---------------------------------------------------------------- oracle interface


def elements(module: BigButtonModule) -> list[str]:
    return ["button"]


def solve(
    module: BigButtonModule,
    edgework: Edgework,
    rules: ButtonRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """Tap (when the seconds digits match, if the rule says so); or hold, then (called again
    once held, strip visible) release at the strip's moment.

    If the button is already held although it must be tapped, every release is a strike; the
    release step is returned anyway, since it is the only way back to a tappable button.
    """
    if module.is_solved:
        return []
    if module.is_held:
        if module.strip_color is None:
            raise ConfigError("strip_color: the button is held but no strip colour is described")
        return [Release(release_timing(module.strip_color, rules))]
    match action(module.button_color, module.button_word, edgework, rules):
        case "tap":
            return [Press("button")]
        case "tap_when_seconds_digits_match":
            return [Press("button", when=TAP_WHEN_MATCH)]
        case "hold":
            return [Hold("button")]


def mistakes(
    module: BigButtonModule,
    edgework: Edgework,
    rules: ButtonRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """Steps that strike at once: a tap when a hold is needed, or a timed tap at any moment;
    any release of a wrongly held button.

    Holding a button that must be tapped only strikes at its later release, so it is not listed
    while the button is up. A timed tap's mistake is the same tap while the digits differ.
    """
    if module.is_solved:
        return []
    needed = action(module.button_color, module.button_word, edgework, rules)
    if module.is_held:
        return [Release(Timing("any_time"))] if needed != "hold" else []
    match needed:
        case "tap":
            return []
        case "tap_when_seconds_digits_match":
            return [Press("button", when=Timing("seconds_digits_differ"))]
        case "hold":
            return [Press("button")]


def tables(ruleset: Ruleset) -> ButtonRules:
    return ruleset.big_button


pressed = no_history
