"""Estimates with their uncertainty: every rate and mean the report prints carries a 95 %
interval and its n.

- A rate (k of n) gets the Wilson score interval: it stays inside [0, 1] and behaves at 0 or
  n successes, where the normal approximation does not.
- A mean gets a percentile bootstrap interval (2000 resamples, seeded, so a report is the same
  every time it is built): per-episode counts such as messages per turn are skewed and small.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 14


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (0, 0 for n = 0)."""
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # Clamp float rounding: the interval always holds p (exactly 0 at k = 0, 1 at k = n).
    return max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p))


CLUSTER_BOMBS = 10
"""Bombs per module type in the paper's baseline (its ten single-module missions)."""


def cluster_interval(
    per_bomb: Sequence[float], repeats: int, bombs: int = CLUSTER_BOMBS, z: float = Z95
) -> tuple[float, float]:
    """The 95 % interval of a module type's rate measured as ``bombs`` bombs × ``repeats``
    episodes, given the per-bomb rates ``per_bomb`` (one per bomb, each of ``repeats``).

    The episodes of one bomb are not independent draws of the type's rate: the bomb decides
    much (a Maze path, a Morse word). Its variance is the between-bomb variance over ``bombs``
    (the spread of ``per_bomb`` less its own binomial noise) plus the binomial variance of
    ``bombs × repeats`` episodes."""
    if not per_bomb:
        return 0.0, 0.0
    rate = sum(per_bomb) / len(per_bomb)
    spread = sum((p - rate) ** 2 for p in per_bomb) / len(per_bomb)
    noise = sum(p * (1 - p) for p in per_bomb) / len(per_bomb) / max(repeats - 1, 1)
    between = max(spread - noise, 0.0)
    half = z * math.sqrt(between / bombs + rate * (1 - rate) / (bombs * repeats))
    return max(0.0, rate - half), min(1.0, rate + half)


@dataclass(frozen=True)
class Rate:
    """``k`` of ``n``, with its 95 % Wilson interval; ``mark`` is a change marker a paper
    table prints after it (↑, ↓), empty otherwise."""

    k: int
    n: int
    mark: str = ""

    @property
    def value(self) -> float | None:
        return self.k / self.n if self.n else None

    @property
    def ci(self) -> tuple[float, float] | None:
        return wilson(self.k, self.n) if self.n else None

    def text(self) -> str:
        if not self.n:
            return "– (n=0)"
        low, high = wilson(self.k, self.n)
        mark = f" {self.mark}" if self.mark else ""
        return f"{self.k / self.n:.0%}{mark} [{low:.0%}–{high:.0%}] (n={self.n})"


@dataclass(frozen=True)
class Mean:
    """The mean of ``n`` values with a 95 % percentile-bootstrap interval."""

    value: float | None
    low: float | None
    high: float | None
    n: int
    digits: int = 2

    @property
    def ci(self) -> tuple[float, float] | None:
        return None if self.low is None or self.high is None else (self.low, self.high)

    def text(self) -> str:
        if self.value is None:
            return "– (n=0)"
        d = self.digits
        if self.low is None or self.high is None:
            return f"{self.value:.{d}f} (n={self.n})"
        return f"{self.value:.{d}f} [{self.low:.{d}f}–{self.high:.{d}f}] (n={self.n})"


def mean(values: Sequence[float], digits: int = 2) -> Mean:
    """The mean with its bootstrap interval (no interval for fewer than two values)."""
    n = len(values)
    if n == 0:
        return Mean(None, None, None, 0, digits)
    data = np.asarray(values, dtype=float)
    centre = float(data.mean())
    if n < 2:
        return Mean(centre, None, None, n, digits)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    samples = data[rng.integers(0, n, size=(BOOTSTRAP_RESAMPLES, n))].mean(axis=1)
    low, high = np.percentile(samples, [2.5, 97.5])
    return Mean(centre, float(low), float(high), n, digits)
