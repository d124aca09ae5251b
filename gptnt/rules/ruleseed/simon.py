"""Simon Says under a rule seed: six rows (vowel × strikes 0–2), each never a single colour."""

from __future__ import annotations

from gptnt.rules.modules import simon
from gptnt.rules.ruleseed._random import MonoRandom


def generate(rng: MonoRandom) -> simon.SimonRules:
    table: dict[tuple[bool, int], dict[str, str]] = {}
    for vowel in (True, False):
        for strikes in range(3):
            row = [simon.COLORS[rng.next(0, 4)] for _ in simon.COLORS]
            while len(set(row)) == 1:
                position = rng.next(0, 4)
                row[position] = simon.COLORS[rng.next(0, 4)]
            table[(vowel, strikes)] = dict(zip(simon.COLORS, row, strict=True))
    return simon.SimonRules(table=table, max_strike_row=2)
