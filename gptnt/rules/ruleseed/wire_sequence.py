"""Wire Sequence under a rule seed: each (colour, occurrence, letter) is cut with p = 0.45."""

from __future__ import annotations

from gptnt.rules.modules import wire_sequence
from gptnt.rules.ruleseed._random import MonoRandom


def generate(rng: MonoRandom) -> wire_sequence.WireSequenceRules:
    table = tuple(
        (color, tuple("".join(t for t in "ABC" if rng.draw() > 0.55) for _ in range(9)))
        for color in ("red", "blue", "black")
    )
    return wire_sequence.WireSequenceRules(cut_letters=table)
