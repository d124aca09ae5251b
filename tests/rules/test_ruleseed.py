"""Rule seeds: the port reproduces the community generators' tables and draw counts exactly."""

from __future__ import annotations

import pytest
from _ruleseed_fixtures import SEEDS, comparable, draws, expected, fixture, pools_path

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
