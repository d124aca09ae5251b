"""Keypad: six columns of seven symbols; the column holding all four keys gives the press order.

Symbols are the protocol's names (``KEYPAD_SYMBOLS``, e.g. ``archaic-koppa`` for Ϙ); ``GLYPHS``
maps each name to the character the game prints on the key. Any four symbols of one v1 column
identify that column uniquely (two columns share at most three symbols).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gptnt.errors import ConfigError
from gptnt.protocol import KeypadKey, KeypadModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._file import no_history
from gptnt.rules._steps import Press, Step

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset

# Element ids in mask order; key i is exported as top_left, top_right, bottom_left, bottom_right.
KEYS: tuple[str, ...] = ("top-left", "top-right", "bottom-left", "bottom-right")

# All 31 keypad symbols of the game (rule seeds draw columns from these) → printed character.
GLYPHS: dict[str, str] = {
    "archaic-koppa": "\u03d8", "little-yus": "\u0466", "lambda-bar": "\u019b",
    "qoppa": "\u03de", "ligature-iotated-e": "\u046c", "kai": "\u03d7",
    "reversed-lunate-epsilon": "\u03ff", "e-with-diaeresis": "\u04ec", "qa": "\u04a8",
    "hollow-star": "\u2606", "inverted-question": "\u00bf", "copyright": "\u00a9",
    "ot": "\u047c", "zh": "\u0496", "ha-with-descender": "\u0506", "lunate-sampi": "\u03ec",
    "pilcrow": "\u00b6", "yat": "\u0463", "pashto-teh": "\u067c", "psi": "\u03a8",
    "lunate-epsilon": "\u03fe", "ksi": "\u046f", "star": "\u2605", "titlo": "\u0482",
    "ae": "\u04d5", "short-i": "\u048a", "omega": "\u03a9", "egyptian-kai": "\u03eb",
    "thousand-sign": "\u0488", "big-yus": "\u046a", "zeta": "\u03b6",
}  # fmt: skip


@dataclass(frozen=True)
class KeypadRules:
    """The manual's symbol columns, each listed top to bottom."""

    columns: tuple[tuple[str, ...], ...]


V1 = KeypadRules(
    columns=(
        ("archaic-koppa", "little-yus", "lambda-bar", "qoppa", "ligature-iotated-e", "kai",
         "reversed-lunate-epsilon"),
        ("e-with-diaeresis", "archaic-koppa", "reversed-lunate-epsilon", "qa", "hollow-star",
         "kai", "inverted-question"),
        ("copyright", "ot", "qa", "zh", "ha-with-descender", "lambda-bar", "hollow-star"),
        ("lunate-sampi", "pilcrow", "yat", "ligature-iotated-e", "zh", "inverted-question",
         "pashto-teh"),
        ("psi", "pashto-teh", "yat", "lunate-epsilon", "pilcrow", "ksi", "star"),
        ("lunate-sampi", "e-with-diaeresis", "titlo", "ae", "psi", "short-i", "omega"),
    )
)  # fmt: skip


def column_of(symbols: Sequence[str], rules: KeypadRules) -> tuple[str, ...]:
    """The one column holding every symbol in ``symbols``."""
    for column in rules.columns:
        if all(s in column for s in symbols):
            return column
    raise ConfigError(f"keypad symbols={list(symbols)}: no manual column holds all of them")


def press_order(symbols: Sequence[str], rules: KeypadRules) -> list[int]:
    """Indices into ``symbols`` in the order they must be pressed (their column order)."""
    column = column_of(symbols, rules)
    return sorted(range(len(symbols)), key=lambda i: column.index(symbols[i]))


# ---------------------------------------------------------------- oracle interface


def _keys(module: KeypadModule) -> list[KeypadKey]:
    return [module.top_left, module.top_right, module.bottom_left, module.bottom_right]


def elements(module: KeypadModule) -> list[str]:
    return list(KEYS)


def solve(
    module: KeypadModule,
    edgework: Edgework,
    rules: KeypadRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """The keys not yet lit green, in column order."""
    if module.is_solved:
        return []
    keys = _keys(module)
    order = press_order([k.symbol for k in keys], rules)
    return [Press(KEYS[i]) for i in order if keys[i].color != "green"]


def mistakes(
    module: KeypadModule,
    edgework: Edgework,
    rules: KeypadRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """Every unpressed key except the next one in order: each is one strike (progress kept)."""
    todo = solve(module, edgework, rules, strikes=strikes)
    return todo[1:]


def tables(ruleset: Ruleset) -> KeypadRules:
    return ruleset.keypad


pressed = no_history
