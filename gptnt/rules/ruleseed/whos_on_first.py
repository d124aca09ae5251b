"""Who's on First under a rule seed: a drawn button per display word, shuffled priority lists."""

from __future__ import annotations

from gptnt.rules.modules import whos_on_first
from gptnt.rules.ruleseed._random import MonoRandom

# The display words in the generator's order ("" is the empty display).
DISPLAY_WORDS = (
    "YES", "FIRST", "DISPLAY", "OKAY", "SAYS", "NOTHING", "", "BLANK", "NO", "LED", "LEAD",
    "READ", "RED", "REED", "LEED", "HOLD ON", "YOU", "YOU ARE", "YOUR", "YOU'RE", "UR", "THERE",
    "THEY'RE", "THEIR", "THEY ARE", "SEE", "C", "CEE",
)  # fmt: skip


def generate(rng: MonoRandom) -> whos_on_first.WhosOnFirstRules:
    groups = whos_on_first.V1.button_groups
    positions = {word: rng.next(0, 6) for word in DISPLAY_WORDS}
    priority = {label: tuple(rng.fisher_yates(list(g))) for g in groups for label in g}
    return whos_on_first.WhosOnFirstRules(
        display_position=positions, priority=priority, button_groups=groups
    )
