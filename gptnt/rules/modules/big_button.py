"""The Button: tap or hold, decided by a rule list; when held, the strip colour names a digit.

Both tables are data: ``ButtonRules.rules`` is the manual's ordered list of (conditions → tap or
hold) with a final ``otherwise``; ``strip_digit`` maps the lit strip's colour to the digit that
must show anywhere on the timer (``MM:SS`` or ``SS.hh``) at the moment of release.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from gptnt.errors import ConfigError
from gptnt.protocol._state import BigButtonModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._file import no_history
from gptnt.rules._steps import Hold, Press, ReleaseOnDigit, Step

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset

Action = Literal["tap", "hold"]

# ---------------------------------------------------------------- conditions


@dataclass(frozen=True)
class ColorIs:
    """The button's colour is ``color``."""

    color: str


@dataclass(frozen=True)
class WordIs:
    """The button's label reads ``word`` (compared case-insensitively)."""

    word: str


@dataclass(frozen=True)
class BatteriesAbove:
    """The bomb has more than ``n`` batteries."""

    n: int


@dataclass(frozen=True)
class LitIndicator:
    """A lit indicator labelled ``label`` is on the bomb."""

    label: str


Condition = ColorIs | WordIs | BatteriesAbove | LitIndicator


@dataclass(frozen=True)
class ButtonRule:
    """If every condition in ``when`` holds, the button must be handled with ``action``."""

    when: tuple[Condition, ...]
    action: Action


@dataclass(frozen=True)
class ButtonRules:
    """The tap-or-hold rule list (first match wins), its fallback, and the strip → digit table."""

    rules: tuple[ButtonRule, ...]
    otherwise: Action
    strip_digit: Mapping[str, int]  # lit strip colour → digit to release on
    other_digit: int  # any strip colour missing from ``strip_digit``


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
    strip_digit={"blue": 4, "white": 1, "yellow": 5},
    other_digit=1,
)

# ---------------------------------------------------------------- evaluator


def _holds(condition: Condition, color: str, word: str, edgework: Edgework) -> bool:
    match condition:
        case ColorIs(c):
            return color == c
        case WordIs(w):
            return word.lower() == w.lower()
        case BatteriesAbove(n):
            return edgework.batteries > n
        case LitIndicator(label):
            return edgework.lit(label)
    raise AssertionError(f"unknown button condition {condition!r}")


def action(color: str, word: str, edgework: Edgework, rules: ButtonRules) -> Action:
    """Whether the button must be tapped or held."""
    for rule in rules.rules:
        if all(_holds(c, color, word, edgework) for c in rule.when):
            return rule.action
    return rules.otherwise


def release_digit(strip_color: str, rules: ButtonRules) -> int:
    """The digit the timer must show when a held button is released."""
    return rules.strip_digit.get(strip_color, rules.other_digit)


def release_ok(timer_text: str, strip_color: str, rules: ButtonRules) -> bool:
    """A release is correct iff the timer text shows the strip's digit anywhere."""
    return str(release_digit(strip_color, rules)) in timer_text


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
    """Tap; or hold, then (called again once held, strip visible) release on the strip's digit.

    If the button is already held although it must be tapped, every release is a strike; the
    release step is returned anyway, since it is the only way back to a tappable button.
    """
    if module.is_solved:
        return []
    if module.is_held:
        if module.strip_color is None:
            raise ConfigError("strip_color: the button is held but no strip colour is described")
        return [ReleaseOnDigit(release_digit(module.strip_color, rules))]
    if action(module.button_color, module.button_word, edgework, rules) == "tap":
        return [Press("button")]
    return [Hold("button")]


def mistakes(
    module: BigButtonModule,
    edgework: Edgework,
    rules: ButtonRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """Steps that strike at once: a tap when a hold is needed; any release of a wrongly held button.

    Holding a button that must be tapped only strikes at its later release, so it is not listed
    while the button is up.
    """
    if module.is_solved:
        return []
    needed = action(module.button_color, module.button_word, edgework, rules)
    if module.is_held:
        return [ReleaseOnDigit(0)] if needed == "tap" else []
    return [Press("button")] if needed == "hold" else []


def tables(ruleset: Ruleset) -> ButtonRules:
    return ruleset.big_button


pressed = no_history
