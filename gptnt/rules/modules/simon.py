"""Simon Says: each flashed colour maps to a button, by serial vowel and the strikes so far.

The mapping table is data, indexed by (serial has a vowel?, strike row); the row is the strike
count clamped to the last row the manual defines (``max_strike_row``). Stage k flashes the
first k colours of the sequence and wants all k mapped presses, starting again from the first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gptnt.protocol import SimonModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._file import no_history
from gptnt.rules._steps import Press, Step

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset

# Button colours in mask order (also the game's colour indices 0–3).
COLORS: tuple[str, ...] = ("red", "blue", "green", "yellow")


@dataclass(frozen=True)
class SimonRules:
    """``table[(serial_has_vowel, row)]`` maps a flashed colour to the colour to press."""

    table: Mapping[tuple[bool, int], Mapping[str, str]]
    max_strike_row: int


def _row(red: str, blue: str, green: str, yellow: str) -> dict[str, str]:
    return {"red": red, "blue": blue, "green": green, "yellow": yellow}


V1 = SimonRules(
    table={
        (True, 0): _row("blue", "red", "yellow", "green"),
        (True, 1): _row("yellow", "green", "blue", "red"),
        (True, 2): _row("green", "red", "yellow", "blue"),
        (False, 0): _row("blue", "yellow", "green", "red"),
        (False, 1): _row("red", "blue", "yellow", "green"),
        (False, 2): _row("yellow", "green", "blue", "red"),
    },
    # The manual stops at 2 strikes; clamping beyond is inferred, not a rule of the manual.
    max_strike_row=2,
)


def mapped(flash: str, has_vowel: bool, strikes: int, rules: SimonRules) -> str:
    """The button to press for one flashed colour."""
    return rules.table[(has_vowel, min(strikes, rules.max_strike_row))][flash]


def stage_presses(
    flashes: Sequence[str], has_vowel: bool, strikes: int, rules: SimonRules
) -> list[str]:
    return [mapped(f, has_vowel, strikes, rules) for f in flashes]


# ---------------------------------------------------------------- oracle interface


def elements(module: SimonModule) -> list[str]:
    return list(COLORS)


def _stage_flashes(module: SimonModule) -> list[str]:
    """The colours flashing at the current stage: ``solve_progress`` stages are done."""
    return list(module.beep_sequence[: module.solve_progress + 1])


def solve(
    module: SimonModule,
    edgework: Edgework,
    rules: SimonRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """All presses of the current stage, from its first colour."""
    if module.is_solved:
        return []
    presses = stage_presses(_stage_flashes(module), edgework.serial_has_vowel, strikes, rules)
    return [Press(c) for c in presses]


def mistakes(
    module: SimonModule,
    edgework: Edgework,
    rules: SimonRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """At the start of a stage, each of the three wrong colours is one strike."""
    if module.is_solved:
        return []
    first = solve(module, edgework, rules, strikes=strikes)[0]
    return [Press(c) for c in COLORS if Press(c) != first]


def tables(ruleset: Ruleset) -> SimonRules:
    return ruleset.simon


pressed = no_history
