"""Password engine: one spellable word by construction, cycling, submit, and the oracle self-check."""

from __future__ import annotations

import copy
import random
import string
from dataclasses import dataclass, field

from gptnt.protocol._state import ModuleKind, PasswordModule
from gptnt.rules._edgework import Edgework
from gptnt.rules.modules import password as rules_file
from gptnt.rules.modules.password import candidates
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.password import ENGINE, PasswordEngine


@dataclass
class FakeBomb:
    """The part of a bomb a module sees: fixed edgework, a strike log, a frozen timer."""

    edgework: Edgework
    strikes: list[ModuleKind] = field(default_factory=list)

    @property
    def strike_count(self) -> int:
        return len(self.strikes)

    def timer_text(self) -> str:
        return "04:59"

    def strike(self, module: ModuleKind) -> None:
        self.strikes.append(module)


def random_edgework(rng: random.Random) -> Edgework:
    serial = "".join(rng.choices(string.ascii_uppercase + string.digits, k=5)) + str(
        rng.randrange(10)
    )
    return Edgework(serial=serial)


def new(seed: int) -> PasswordEngine:
    bomb = FakeBomb(random_edgework(random.Random(seed)))
    engine = ENGINE.generate(random.Random(seed), rules=V1, bomb=bomb, slot=Slot(False, 0))
    assert isinstance(engine, PasswordEngine)
    return engine


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


def assert_mistakes_cost_one_strike(engine: PasswordEngine, t: float) -> None:
    state = engine.export(t, in_focus=True)
    for wrong in rules_file.mistakes(state, engine.bomb.edgework, V1.password, strikes=0):
        trial = copy.deepcopy(engine, {id(engine.rules): engine.rules})
        before = trial.bomb.strike_count
        trial.press(wrong.element, t)
        assert trial.bomb.strike_count == before + 1, wrong


def test_oracle_self_check() -> None:
    """For 200 seeds the oracle solves without a strike; every listed mistake costs one strike."""
    for seed in range(200):
        engine = new(seed)
        t = 0.0
        for _ in range(10):  # at most 5 notches per column, then submit
            if engine.solved:
                break
            plan = rules_file.solve(
                engine.export(t, in_focus=True), engine.bomb.edgework, V1.password, strikes=0
            )
            assert plan, seed
            for step in plan:
                assert_mistakes_cost_one_strike(engine, t)
                engine.press(step.element, t)
                t += 0.1
            engine.advance(t)
        assert engine.solved, seed
        assert engine.bomb.strike_count == 0, seed
