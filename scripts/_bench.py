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


def paired_medians(
    floor: Callable[[], object], call: Callable[[], object], rounds: int
) -> tuple[float, float]:
    """The medians of ``floor`` and of ``call``, timed in turn (floor, call, floor, call, …)
    after one untimed call of each, so that a shared machine's changing load weighs on both
    alike and their ratio means something even when their absolute times do not."""
    floor()
    call()
    floors, calls = [], []
    for _ in range(rounds):
        for timed, samples in ((floor, floors), (call, calls)):
            begin = time.perf_counter()
            timed()
            samples.append(time.perf_counter() - begin)
    return statistics.median(floors), statistics.median(calls)
