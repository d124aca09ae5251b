"""The oracle's vocabulary: what to do to a module, in terms of its named elements.

Element ids are the names a module's interactables have in ``elements(module)`` (see
``gptnt.rules.elements``): e.g. ``wire-3``, ``button``, ``top-left``, ``red``, ``up``. The
simulator's renderer paints exactly these elements, in this order, into the segmentation mask,
so an element id can be turned into a set-of-marks label and a click point.

Some steps must happen at a moment of the bomb timer (The Button's release, and under rule seeds
its timed tap): ``Timing`` names that moment, and ``Timing.holds`` decides it from the seconds
remaining, the same way for the game, the oracle and the scripted Defuser.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gptnt.protocol import timer_text

TimingKind = Literal[
    "timer_has_digit",  # the digit shows anywhere on the timer text (MM:SS, or SS.hh below 60 s)
    "seconds_ones_digit_is",  # the last digit of the whole seconds remaining
    "any_time",
    "seconds_digits_sum_multiple_of_4",  # the two seconds digits add up to 0, 4, 8 or 12
    "seconds_digits_sum_5",  # the sum, less 10 when above 10, is 5 (5 or 15)
    "seconds_digits_sum_7",  # ... is 7 (7 or 17)
    "seconds_digits_sum_3_or_13",  # ... is 3 (3 or 13)
    "seconds_prime_or_zero",  # the seconds shown are 0 or a prime
    "seconds_digits_match",  # the two seconds digits are equal (00, 11, ..., 55)
    "seconds_digits_differ",  # the opposite: a moment at which a timed tap is a mistake
]

PRIMES_OR_ZERO = frozenset({0, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59})
_SUM_TARGET = {
    "seconds_digits_sum_5": 5,
    "seconds_digits_sum_7": 7,
    "seconds_digits_sum_3_or_13": 3,
}


@dataclass(frozen=True)
class Timing:
    """A moment on the bomb timer; ``digit`` for the two kinds that name one.

    The seconds are those shown: the whole seconds remaining (truncated) modulo 60, as the rule
    seed generator's semantics define them.
    """

    kind: TimingKind
    digit: int | None = None

    def holds(self, seconds_remaining: float) -> bool:
        whole = int(max(0.0, seconds_remaining))
        shown = whole % 60
        tens, ones = divmod(shown, 10)
        match self.kind:
            case "timer_has_digit":
                return str(self.digit) in timer_text(seconds_remaining)
            case "seconds_ones_digit_is":
                return whole % 10 == self.digit
            case "any_time":
                return True
            case "seconds_digits_sum_multiple_of_4":
                return (tens + ones) % 4 == 0
            case "seconds_digits_sum_5" | "seconds_digits_sum_7" | "seconds_digits_sum_3_or_13":
                total = tens + ones
                return (total - 10 if total > 10 else total) == _SUM_TARGET[self.kind]
            case "seconds_prime_or_zero":
                return shown in PRIMES_OR_ZERO
            case "seconds_digits_match":
                return shown % 11 == 0
            case "seconds_digits_differ":
                return shown % 11 != 0
        raise AssertionError(f"unknown timing {self.kind!r}")


@dataclass(frozen=True)
class Press:
    """Click (press and release at once) one element; at a moment of the timer if ``when``."""

    element: str
    when: Timing | None = None
    kind: Literal["press"] = "press"


@dataclass(frozen=True)
class Hold:
    """Press an element and keep holding it (The Button)."""

    element: str
    kind: Literal["hold"] = "hold"


@dataclass(frozen=True)
class Release:
    """Release the held element at the moment ``when`` names."""

    when: Timing
    kind: Literal["release"] = "release"


Step = Press | Hold | Release
