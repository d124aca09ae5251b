"""Morse Code: a light blinks a word; the manual maps the word to a frequency to transmit on.

The manual's data is the word→frequency table and the Morse alphabet. The dial steps through
exactly the table's frequencies in ascending order, so the solver counts arrow presses from the
current frequency to the word's, then presses TX.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gptnt.errors import ConfigError
from gptnt.protocol import MorseModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._file import no_history
from gptnt.rules._steps import Press, Step

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset

ELEMENTS = ["left", "right", "transmit"]


@dataclass(frozen=True)
class MorseRules:
    """``words``: (word, frequency) pairs, the frequency as the kHz suffix of 3.5xx MHz
    (``505`` = 3.505 MHz), the protocol's unit. ``alphabet``: letter → dots and dashes."""

    words: tuple[tuple[str, int], ...]
    alphabet: tuple[tuple[str, str], ...]

    @property
    def dial(self) -> tuple[int, ...]:
        """The frequencies the dial can show, ascending (an arrow press moves one place)."""
        return tuple(sorted(f for _, f in self.words))

    def frequency(self, word: str) -> int:
        for known, freq in self.words:
            if known == word.lower():
                return freq
        raise ConfigError(
            f"sequence={word!r}: not a word of this manual's Morse table; "
            "describe the blinked word in lower case"
        )

    def code(self, letter: str) -> str:
        """The dots (``.``) and dashes (``-``) of one letter."""
        return dict(self.alphabet)[letter.upper()]


V1 = MorseRules(
    words=(
        ("shell", 505), ("halls", 515), ("slick", 522), ("trick", 532), ("boxes", 535),
        ("leaks", 542), ("strobe", 545), ("bistro", 552), ("flick", 555), ("bombs", 565),
        ("break", 572), ("brick", 575), ("steak", 582), ("sting", 592), ("vector", 595),
        ("beats", 600),
    ),
    alphabet=(
        ("A", ".-"), ("B", "-..."), ("C", "-.-."), ("D", "-.."), ("E", "."), ("F", "..-."),
        ("G", "--."), ("H", "...."), ("I", ".."), ("J", ".---"), ("K", "-.-"), ("L", ".-.."),
        ("M", "--"), ("N", "-."), ("O", "---"), ("P", ".--."), ("Q", "--.-"), ("R", ".-."),
        ("S", "..."), ("T", "-"), ("U", "..-"), ("V", "...-"), ("W", ".--"), ("X", "-..-"),
        ("Y", "-.--"), ("Z", "--.."), ("0", "-----"), ("1", ".----"), ("2", "..---"),
        ("3", "...--"), ("4", "....-"), ("5", "....."), ("6", "-...."), ("7", "--..."),
        ("8", "---.."), ("9", "----."),
    ),
)  # fmt: skip


def _dial_index(rules: MorseRules, frequency: float) -> int:
    dial = rules.dial
    if round(frequency) not in dial:
        raise ConfigError(
            f"current_frequency={frequency}: not a dial position of this manual "
            f"(expected one of {dial})"
        )
    return dial.index(round(frequency))


def elements(module: MorseModule) -> list[str]:
    return list(ELEMENTS)


def solve(
    module: MorseModule,
    edgework: Edgework,
    rules: MorseRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    if module.is_solved:
        return []
    here = _dial_index(rules, module.current_frequency)
    goal = rules.dial.index(rules.frequency(module.sequence))
    arrow = "right" if goal > here else "left"
    steps: list[Step] = [Press(arrow)] * abs(goal - here)
    return [*steps, Press("transmit")]


def mistakes(
    module: MorseModule,
    edgework: Edgework,
    rules: MorseRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """Transmitting on any frequency but the word's is a strike; the arrows never are."""
    if module.is_solved or round(module.current_frequency) == rules.frequency(module.sequence):
        return []
    return [Press("transmit")]


def tables(ruleset: Ruleset) -> MorseRules:
    return ruleset.morse_rules


pressed = no_history
