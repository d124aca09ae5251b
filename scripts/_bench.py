"""What the benchmarks share: the median wall time of a repeated call (``bench_*.py`` print it
as a ratio against a floor measured in the same run)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(call: Callable[[], object], rounds: int, *, warm_up: bool = False) -> float:
    """The median of ``rounds`` timed calls (after one untimed call if ``warm_up``)."""
    if warm_up:
        call()
    samples = []
    for _ in range(rounds):
        begin = time.perf_counter()
        call()
        samples.append(time.perf_counter() - begin)
    return statistics.median(samples)
