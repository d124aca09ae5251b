"""Password engine: one spellable word by construction, cycling, submit, and the oracle self-check."""

from __future__ import annotations

import random

from _support import FakeBomb, follow_the_oracle, generated, random_serial

from gptnt.protocol import PasswordModule
from gptnt.rules import Edgework
from gptnt.rules.modules import password as rules_file
from gptnt.rules.modules.password import candidates
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.password import ENGINE, PasswordEngine


def new(seed: int) -> PasswordEngine:
    bomb = FakeBomb(Edgework(serial=random_serial(random.Random(seed))))
    return generated(ENGINE, random.Random(seed), bomb, Slot(False, 0))


def test_exactly_one_word_is_spellable() -> None:
    assert new(4).export(0, in_focus=False) == new(4).export(0, in_focus=False)
    goals = set()
    for seed in range(500):
        e = new(seed)
        assert [len(set(col)) for col in e.columns] == [6] * 5
        assert candidates(e.columns, V1.password) == [e.goal]
        goals.add(e.goal)
        PasswordModule.model_validate(e.export(0, in_focus=True).to_wire())
    assert len(goals) > 30


def test_columns_cycle_both_ways_with_wraparound() -> None:
    e = PasswordEngine(
        rules=V1, bomb=FakeBomb(Edgework(serial="AB1CD2")), slot=Slot(True, 0), goal="PLANT",
        columns=["PQRSTU", "LABCDE", "AFGHIJ", "NKMOPQ", "TVWXYZ"], shown=[5, 0, 0, 0, 0],
    )  # fmt: skip
    assert e.current_word == "ULANT"
    e.press("down-0", 0.0)
    assert e.current_word == "PLANT"
    e.press("up-0", 0.0)
    e.press("up-1", 0.0)
    assert e.current_word == "UEANT"
    for _ in range(6):
        e.press("down-2", 0.0)
    assert e.current_word == "UEANT" and e.bomb.strike_count == 0
    e.press("submit", 1.0)
    assert e.bomb.strike_count == 1 and not e.solved
    e.press("down-0", 2.0)
    e.press("down-1", 2.0)
    e.press("submit", 3.0)
    assert e.solved and e.bomb.strike_count == 1


def test_oracle_self_check() -> None:
    """For 200 seeds the oracle solves without a strike; every listed mistake costs one strike."""
    for seed in range(200):
        follow_the_oracle(new(seed), rules_file, V1.password, rounds=10)
