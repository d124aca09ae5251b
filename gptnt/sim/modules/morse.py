"""The Morse Code engine: a light blinking a word forever, a frequency dial and a TX button.

The blinking is a pure function of game time (``light_on``), so a frame at time ``t`` is the same
however time got there. TX on the word's frequency (``rules.morse``) solves; elsewhere it strikes
and the dial stays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from gptnt.protocol import ModuleKind, MorseModule
from gptnt.rules.modules.morse import ELEMENTS
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.modules._base import BombContext, ModuleEngine, Slot


@dataclass(frozen=True)
class MorseTiming:
    """Assumptions (docs/mechanics-audit.md, Morse Code): KtaneDefuser's 0.25 s unit and 10-unit word gap;
    dot 1 unit lit, dash 3, 1 dark unit between elements, 3 between letters. The word is uniform
    over the table and the dial starts at its lowest frequency (seen in a real state: 505)."""

    unit: float = 0.25  # seconds of game time
    dot: int = 1
    dash: int = 3
    element_gap: int = 1
    letter_gap: int = 3
    word_gap: int = 10
    start_index: int = 0  # dial position at generation


def signal(word: str, code: dict[str, str], timing: MorseTiming) -> tuple[bool, ...]:
    """One period of the light, one entry per unit: the word then the dark gap before it repeats."""
    units: list[bool] = []
    for i, letter in enumerate(word.upper()):
        if i:
            units += [False] * timing.letter_gap
        for j, mark in enumerate(code[letter]):
            if j:
                units += [False] * timing.element_gap
            units += [True] * (timing.dot if mark == "." else timing.dash)
    return tuple(units + [False] * timing.word_gap)


class MorseEngine(ModuleEngine):
    kind: ClassVar[ModuleKind] = "Morse"
    timing: ClassVar[MorseTiming] = MorseTiming()

    def __init__(self, *, rules: Ruleset, bomb: BombContext, slot: Slot, word: str) -> None:
        super().__init__(rules=rules, bomb=bomb, slot=slot)
        self.word = word
        self.dial_index = self.timing.start_index
        self._signal = signal(word, dict(rules.morse_rules.alphabet), self.timing)

    @classmethod
    def generate(
        cls, rng: random.Random, *, rules: Ruleset, bomb: BombContext, slot: Slot
    ) -> MorseEngine:
        word, _ = rng.choice(rules.morse_rules.words)
        return cls(rules=rules, bomb=bomb, slot=slot, word=word)

    @property
    def frequency(self) -> int:
        """The dial's frequency, as the kHz suffix of 3.5xx MHz."""
        return self.rules.morse_rules.dial[self.dial_index]

    def light_on(self, t: float) -> bool:
        """Whether the amber light is lit at game time ``t`` (it blinks from time 0 on)."""
        return self._signal[int(max(t, 0.0) / self.timing.unit) % len(self._signal)]

    def elements(self) -> list[str]:
        return list(ELEMENTS)

    def press(self, element: str, t: float) -> None:
        if self.solved:
            return
        last = len(self.rules.morse_rules.dial) - 1
        if element == "left":
            self.dial_index = max(0, self.dial_index - 1)
        elif element == "right":
            self.dial_index = min(last, self.dial_index + 1)
        elif element == "transmit":
            if self.frequency == self.rules.morse_rules.frequency(self.word):
                self.solved = True
            else:
                self._strike(t)

    def export(self, t: float, *, in_focus: bool) -> MorseModule:
        return MorseModule(
            **self._common(in_focus),
            sequence=self.word,
            current_frequency=float(self.frequency),
            correct_frequency=float(self.rules.morse_rules.frequency(self.word)),
        )


ENGINE = MorseEngine
