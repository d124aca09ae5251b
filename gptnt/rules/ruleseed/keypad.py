"""Keypad under a rule seed: six columns of seven, each sharing up to three symbols with earlier
columns, drawn from the game's 31 symbols in its own numbering."""

from __future__ import annotations

from gptnt.rules.modules import keypad
from gptnt.rules.ruleseed._random import MonoRandom

# The game's symbol numbers 1–31 (the order the generator draws from).
SYMBOLS: tuple[str, ...] = (
    "copyright", "star", "hollow-star", "pashto-teh", "zh", "omega", "ligature-iotated-e", "ot",
    "kai", "egyptian-kai", "lunate-sampi", "qoppa", "little-yus", "ae", "ha-with-descender",
    "e-with-diaeresis", "thousand-sign", "short-i", "ksi", "inverted-question", "pilcrow",
    "lunate-epsilon", "reversed-lunate-epsilon", "psi", "big-yus", "qa", "titlo", "archaic-koppa",
    "zeta", "lambda-bar", "yat",
)  # fmt: skip


def generate(rng: MonoRandom) -> keypad.KeypadRules:
    unused = list(SYMBOLS)
    overlap: list[str] = []
    columns: list[tuple[str, ...]] = []
    for i in range(6):
        column: list[str] = []
        if i > 0:
            while overlap and len(column) < 3:
                column.append(rng.pop(overlap))
        while len(column) < 7:
            symbol = rng.pop(unused)
            column.append(symbol)
            overlap.append(symbol)
        columns.append(tuple(rng.swap_shuffle(column)))
    return keypad.KeypadRules(columns=tuple(columns))
