"""Intervals: Wilson for rates, a seeded bootstrap for means."""

from __future__ import annotations

import pytest

from gptnt.analysis import Rate, mean, wilson


def test_wilson_interval_contains_the_rate_and_stays_in_bounds() -> None:
    assert wilson(0, 0) == (0.0, 0.0)
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.2 < high < 0.35
    low, high = wilson(10, 10)
    assert 0.65 < low < 0.8 and high == 1.0
    low, high = wilson(5, 10)
    assert low < 0.5 < high and abs((0.5 - low) - (high - 0.5)) < 1e-9


def test_rate_text_names_its_n() -> None:
    assert Rate(3, 4).text() == "75% [30%–95%] (n=4)"
    assert Rate(0, 0).text() == "– (n=0)" and Rate(0, 0).ci is None


def test_bootstrap_mean_is_seeded_and_brackets_the_mean() -> None:
    values = [0.0, 1.0, 1.0, 2.0, 5.0, 0.5]
    a, b = mean(values), mean(values)
    assert a == b  # the same report every time it is built
    assert a.low is not None and a.high is not None
    assert a.low < a.value < a.high  # type: ignore[operator]
    assert mean([3.0]).ci is None and mean([3.0]).n == 1
    assert mean([]).value is None


def test_cluster_interval_is_wider_than_binomial_when_bombs_differ() -> None:
    from gptnt.analysis import cluster_interval, wilson

    same = cluster_interval([0.3] * 20, repeats=100)
    split = cluster_interval([0.0] * 14 + [1.0] * 6, repeats=100)  # the bomb decides
    assert same[0] < 0.3 < same[1] and split[0] < 0.3 < split[1]
    assert split[1] - split[0] > 3 * (same[1] - same[0])
    low, high = wilson(300, 1000)  # same rate as 10 independent bombs × 100
    assert same[1] - same[0] == pytest.approx(high - low, rel=0.1)
    assert cluster_interval([], repeats=5) == (0.0, 0.0)
