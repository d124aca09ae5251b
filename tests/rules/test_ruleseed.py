"""Rule seeds: the port reproduces the community generators' tables and draw counts exactly."""

from __future__ import annotations

import pytest
from _ruleseed_fixtures import SEEDS, comparable, draws, expected, fixture, pools_path

from gptnt.errors import ConfigError
from gptnt.rules._steps import Timing
from gptnt.rules.ruleseed import GENERATORS, POOLED, MonoRandom, generate, read_pools
from gptnt.rules.ruleseed import wires as wires_generator
from gptnt.rules.ruleset import V1, Ruleset

STEMS = (*GENERATORS, *POOLED)


@pytest.fixture(scope="module")
def pools():
    return read_pools(pools_path())


@pytest.mark.fixtures
@pytest.mark.parametrize("seed", [s for s in SEEDS if s != 1])
@pytest.mark.parametrize("stem", STEMS)
def test_generator_equals_the_site(seed: int, stem: str, pools) -> None:
    table = fixture(f"seed-{seed}.json")
    got, used = generate(stem, seed, pools)
    assert comparable(stem, got) == expected(table, stem)
    assert used == draws(table, stem)


@pytest.mark.fixtures
@pytest.mark.parametrize("stem", STEMS)
def test_seed_one_is_the_v1_manual(stem: str) -> None:
    table = fixture("seed-1.json")
    assert comparable(stem, getattr(Ruleset.from_seed(1), stem)) == expected(table, stem)
    assert Ruleset.from_seed(1) is V1


@pytest.mark.fixtures
@pytest.mark.parametrize("stem", [s for s in STEMS if s not in ("big_button", "whos_on_first")])
def test_raw_generator_at_seed_one(stem: str, pools) -> None:
    """The test vector: the generators themselves at seed 1, their seed-1 branches active."""
    table = fixture("seed-1-raw-generator.json")
    if stem == "wires":
        rng = MonoRandom(1)
        got, used = wires_generator.generate(rng, seed_one=True), rng.draws
    else:
        got, used = generate(stem, 1, pools)
    assert comparable(stem, got) == expected(table, stem)
    assert used == draws(table, stem)


def test_rng_test_vectors() -> None:
    """The reference's first raw integers for seeds 0, 1 and 1764, and next(0, 100) at 1."""
    for seed, first in (
        (0, [1976681210, 551155468, 2145952487, 324791282, 261666074]),
        (1, [787814235, 446536433, 2047446447, 542114668, 1948695961]),
        (1764, [759376782, 686771370, 179989687, 1431155020, 1917535647]),
    ):
        rng = MonoRandom(seed)
        assert [rng.raw() for _ in range(5)] == first
    rng = MonoRandom(1)
    assert [rng.next(0, 100) for _ in range(5)] == [36, 20, 95, 25, 90]
    assert rng.next(3, 4) == 3 and rng.draws == 5  # a one-value range costs no draw


def test_timer_moments() -> None:
    t = 4 * 60 + 37.6  # 04:37 shown; seconds digits 3 and 7
    assert Timing("timer_has_digit", 4).holds(t) and not Timing("timer_has_digit", 5).holds(t)
    assert Timing("seconds_ones_digit_is", 7).holds(t)
    assert not Timing("seconds_digits_sum_multiple_of_4").holds(t)  # 3 + 7 = 10
    assert Timing("seconds_prime_or_zero").holds(t)  # 37
    assert Timing("seconds_digits_sum_5").holds(60 + 14.2)  # 1 + 4
    assert Timing("seconds_digits_sum_3_or_13").holds(60 + 49.9)  # 4 + 9 = 13
    assert Timing("seconds_digits_sum_7").holds(2 * 60 + 16)  # 1 + 6
    assert Timing("seconds_digits_match").holds(3 * 60 + 44.5)
    assert Timing("seconds_digits_differ").holds(3 * 60 + 45)
    assert Timing("timer_has_digit", 9).holds(12.95)  # SS.hh under a minute


def test_without_pools_nine_modules_work_and_two_are_refused_in_one_line() -> None:
    rules = Ruleset.from_seed(42)
    assert rules.missing == ("Morse", "Password")
    rules.require(["Wires", "BigButton", "Maze"])
    with pytest.raises(ConfigError) as err:
        rules.require(["Wires", "Password", "Morse"])
    line = str(err.value)
    assert "\n" not in line and line.startswith("rule_seed=42: Morse and Password need")
    assert "gptnt ruleseed pools import FILE" in line and "--pools FILE" in line


def test_identity_names_the_tables(pools) -> None:
    a, b = Ruleset.from_seed(42, pools), Ruleset.from_seed(42, pools)
    assert a.identity == b.identity != Ruleset.from_seed(43, pools).identity
    assert a.identity != Ruleset.from_seed(42).identity  # without the pools' two tables
    assert V1.identity.startswith("rule-seed-1:")


def test_a_pools_file_in_another_order_is_refused(tmp_path) -> None:
    import json

    data = json.loads(pools_path().read_text(encoding="utf-8"))
    data["password"]["words"] = data["password"]["words"][::-1]
    bad = tmp_path / "pools.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ConfigError, match=r"password.words \(1550 words\) is not the rule-seed"):
        read_pools(bad)
