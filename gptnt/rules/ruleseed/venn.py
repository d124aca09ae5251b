"""Complicated Wires under a rule seed: a weighted letter for each of the 16 cells."""

from __future__ import annotations

from gptnt.rules.modules import venn
from gptnt.rules.ruleseed._random import MonoRandom

LETTERS: dict[str, venn.Instruction] = {
    "C": "cut", "D": "dont_cut", "S": "serial_even", "P": "parallel_port", "B": "two_batteries",
}  # fmt: skip


def generate(rng: MonoRandom) -> venn.VennRules:
    weights: dict[str, float] = {}
    letters = ["C"]
    for _cell in range(1, 16):
        letters.append(rng.weighted(list(LETTERS), weights, 0.1, key=lambda c: c))
    if letters.count("C") >= 2:  # practically always; the plain wire is drawn again
        letters[0] = rng.weighted(list(LETTERS), weights, 0.1, key=lambda c: c)
    diagram = tuple(
        ((bool(i & 8), bool(i & 4), bool(i & 2), bool(i & 1)), LETTERS[letter])
        for i, letter in enumerate(letters)
    )
    return venn.VennRules(diagram=diagram)
