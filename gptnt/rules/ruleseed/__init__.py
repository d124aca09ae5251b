"""Rule seeds: one seed regenerates every module's rule tables, as the Rule Seed Modifier does.

A port of the community's generators (Mono's ``System.Random`` and one generator per module,
each seeding its own stream with the rule seed), consuming exactly their draws. Seed 1 is the v1
manual itself (the game's hard-coded tables), not the generators' output at 1.

Morse Code and Password draw from word pools gptnt does not ship (``_pools``); without them a
seed's ruleset lacks those two tables and ``Ruleset.require`` refuses missions that need them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gptnt.rules.ruleseed import (
    big_button,
    keypad,
    maze,
    memory,
    morse,
    password,
    simon,
    venn,
    whos_on_first,
    wire_sequence,
    wires,
)
from gptnt.rules.ruleseed._pools import ENV, HOW_TO, WordPools, import_pools, locate, read_pools
from gptnt.rules.ruleseed._random import MonoRandom

__all__ = [
    "ENV",
    "GENERATORS",
    "HOW_TO",
    "POOLED",
    "MonoRandom",
    "WordPools",
    "generate",
    "import_pools",
    "locate",
    "pools_in_force",
    "read_pools",
]

# Ruleset field → its generator, given a fresh stream (the pooled ones also take their pool).
GENERATORS: dict[str, Callable[[MonoRandom], object]] = {
    "wires": wires.generate,
    "big_button": big_button.generate,
    "keypad": keypad.generate,
    "simon": simon.generate,
    "whos_on_first": whos_on_first.generate,
    "memory": memory.generate,
    "venn": venn.generate,
    "wire_sequence": wire_sequence.generate,
    "maze": maze.generate,
}
POOLED: dict[str, Callable[[MonoRandom, WordPools], object]] = {
    "morse": lambda rng, pools: morse.generate(rng, pools.morse),
    "password": lambda rng, pools: password.generate(rng, pools.password),
}


def generate(stem: str, seed: int, pools: WordPools | None = None) -> tuple[object, int]:
    """One module's tables at ``seed`` from the generator (no seed-1 special case), and the
    number of draws it consumed."""
    rng = MonoRandom(seed)
    if stem in POOLED:
        if pools is None:
            raise ValueError(f"{stem} needs the word pools")
        return POOLED[stem](rng, pools), rng.draws
    return GENERATORS[stem](rng), rng.draws


def pools_in_force(explicit: Path | None = None) -> WordPools | None:
    """The pools found where ``locate`` looks (checked), or None."""
    path = locate(explicit)
    return None if path is None else read_pools(path)
