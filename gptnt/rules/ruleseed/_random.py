"""The rule-seed RNG: Mono's ``System.Random`` (Knuth's subtractive generator), draw by draw.

Every rule-seed generator of the game and of the community manual site seeds its own instance
with the rule seed, so each module's tables depend only on (seed, module). Bit-exactness
matters: the tables of a seed are whatever this stream says, so the arithmetic is the signed
32-bit wrap-around of C# and JavaScript, the cursor starts at 31 (Mono; .NET Framework uses
21) and ``next(lo, hi)`` with ``hi - lo <= 1`` consumes nothing. ``draws`` counts the samples
taken, the figure the reference tables are checked by.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, MutableMapping, Sequence
from typing import TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)

MBIG = 2147483647  # 2**31 - 1
MSEED = 161803398
SCALE = 4.6566128752457969e-10  # 1 / MBIG, as the double the generator multiplies by


def _int32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - 0x100000000 if value >= 0x80000000 else value


class MonoRandom:
    """One generator seeded with ``seed`` (any int; coerced to int32 like the site's ``#N``)."""

    def __init__(self, seed: int) -> None:
        seed = _int32(seed)
        table = [0] * 56
        mj = _int32(MSEED - _int32(abs(seed)))  # |-2**31| wraps, as in JS
        table[55] = mj
        mk = 1
        for i in range(1, 55):
            ii = (21 * i) % 55
            table[ii] = mk
            mk = _int32(mj - mk)
            if mk < 0:
                mk += MBIG
            mj = table[ii]
        for _ in range(4):
            for k in range(1, 56):
                v = _int32(table[k] - table[1 + (k + 30) % 55])
                table[k] = v + MBIG if v < 0 else v
        self._table = table
        self._inext = 0
        self._inextp = 31
        self.draws = 0

    def raw(self) -> int:
        """One sample as the generator's integer in [0, MBIG)."""
        self._inext = 1 if self._inext + 1 >= 56 else self._inext + 1
        self._inextp = 1 if self._inextp + 1 >= 56 else self._inextp + 1
        v = _int32(self._table[self._inext] - self._table[self._inextp])
        if v < 0:
            v += MBIG
        self._table[self._inext] = v
        self.draws += 1
        return v

    def draw(self) -> float:
        """One sample in [0, 1)."""
        return self.raw() * SCALE

    def next(self, lo: int, hi: int) -> int:
        """An int in [lo, hi); a range of one value costs no draw."""
        if hi - lo <= 1:
            return lo
        return lo + int(self.draw() * (hi - lo))

    def pick(self, items: Sequence[T]) -> T:
        return items[self.next(0, len(items))]

    def pop(self, items: list[T]) -> T:
        return items.pop(self.next(0, len(items)))

    def key_shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list ordered by one drawn key per element (stable: C# ``OrderBy``)."""
        keys = [self.draw() for _ in items]
        order = sorted(range(len(items)), key=keys.__getitem__)
        return [items[i] for i in order]

    def fisher_yates(self, items: list[T]) -> list[T]:
        """Shuffle in place from the end (n - 1 draws); returns ``items``."""
        i = len(items)
        while i > 1:
            j = self.next(0, i)
            i -= 1
            items[i], items[j] = items[j], items[i]
        return items

    def swap_shuffle(self, items: list[T]) -> list[T]:
        """Swap every position with a uniformly drawn one (n draws; Keypad's shuffle)."""
        n = len(items)
        for k in range(n):
            j = self.next(0, n)
            items[k], items[j] = items[j], items[k]
        return items

    def weighted(
        self,
        items: Sequence[T],
        weights: MutableMapping[K, float],
        factor: float,
        *,
        key: Callable[[T], K],
        initial: Callable[[K], float] = lambda _: 1.0,
    ) -> T:
        """Pick with probability ∝ weight and shrink the picked key's weight by ``factor``.

        A key seen for the first time gets ``initial(key)``; a key listed twice counts twice.
        """
        for item in items:
            weights.setdefault(key(item), initial(key(item)))
        total = sum(weights[key(item)] for item in items)
        r = self.draw() * total
        for item in items:
            w = weights[key(item)]
            if r < w:
                weights[key(item)] = w * factor
                return item
            r -= w
        return self.pick(items)  # reachable only through rounding
