"""Complicated Wires engine: generation, cuts and strikes, and the oracle self-check."""

from __future__ import annotations

import copy
import random
import string
from collections import Counter
from dataclasses import dataclass, field

from gptnt.protocol._state import ModuleKind, VennModule
from gptnt.rules._edgework import Edgework
from gptnt.rules.modules import venn as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.venn import ENGINE, ComplicatedWire, VennEngine


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
    plates = (("Parallel", "Serial"),) if rng.random() < 0.5 else (("PS/2",),)
    return Edgework(serial=serial, battery_holders=(2,) * rng.randrange(2), port_plates=plates)


def new(seed: int) -> VennEngine:
    bomb = FakeBomb(random_edgework(random.Random(seed)))
    engine = ENGINE.generate(random.Random(seed), rules=V1, bomb=bomb, slot=Slot(True, 4))
    assert isinstance(engine, VennEngine)
    return engine


def test_generation_deterministic_counts_and_at_least_one_cut() -> None:
    assert new(5).export(0, in_focus=False) == new(5).export(0, in_focus=False)
    counts: Counter[int] = Counter()
    for seed in range(600):
        e = new(seed)
        counts[len(e.elements())] += 1
        assert e._to_cut(), seed
        VennModule.model_validate(e.export(0, in_focus=True).to_wire())
    assert set(counts) == {4, 5, 6}
    assert 0.58 < counts[6] / 600 < 0.75  # P(6) = 2/3


def test_cut_rules_strike_and_solve() -> None:
    # Odd serial, no parallel port, no batteries: plain white cut; white+LED keep.
    bomb = FakeBomb(Edgework(serial="AB1CD3"))
    wires = [ComplicatedWire("white", led=False, star=False), None,
             ComplicatedWire("white", led=True, star=False), None, None, None]  # fmt: skip
    e = VennEngine(rules=V1, bomb=bomb, slot=Slot(True, 0), wires=wires)
    assert e.elements() == ["wire-0", "wire-2"]
    e.press("wire-2", 1.0)
    assert bomb.strike_count == 1 and wires[2] is not None and wires[2].cut and not e.solved
    e.press("wire-2", 2.0)  # already cut: nothing
    assert bomb.strike_count == 1
    e.press("wire-0", 3.0)
    assert e.solved and bomb.strike_count == 1
    exported = e.export(3.0, in_focus=True).wires
    assert exported[0] is not None and exported[0].is_cut and exported[1] is None


def test_appendix_c_vectors_on_the_engine() -> None:
    parallel = FakeBomb(Edgework(serial="AB1CD2", port_plates=(("Parallel",),)))
    never = ComplicatedWire("red, blue", led=True, star=True)
    blue_led = ComplicatedWire("blue", led=True, star=False)
    e = VennEngine(
        rules=V1, bomb=parallel, slot=Slot(True, 0), wires=[never, blue_led, None, None, None, None]
    )
    e.press("wire-1", 1.0)  # blue + LED, parallel port: cut, and the last wire to cut
    assert parallel.strike_count == 0 and e.solved
    bare = FakeBomb(Edgework(serial="AB1CD2"))
    e = VennEngine(
        rules=V1,
        bomb=bare,
        slot=Slot(True, 0),
        wires=[ComplicatedWire("red, blue", led=True, star=True), ComplicatedWire("blue", led=True, star=False),
               ComplicatedWire("white", led=False, star=False), None, None, None],
    )  # fmt: skip
    e.press("wire-1", 1.0)  # no parallel port: strike
    e.press("wire-0", 2.0)  # never cut: strike
    assert bare.strike_count == 2 and not e.solved


def test_striped_colours_keep_the_protocol_text() -> None:
    colors = {w.color for seed in range(200) for w in new(seed).wires if w is not None}
    assert colors == {"white", "red", "blue", "red, white", "blue, white", "red, blue"}


def assert_mistakes_cost_one_strike(engine: VennEngine, t: float) -> None:
    state = engine.export(t, in_focus=True)
    for wrong in rules_file.mistakes(state, engine.bomb.edgework, V1.venn, strikes=0):
        trial = copy.deepcopy(engine, {id(engine.rules): engine.rules})
        before = trial.bomb.strike_count
        trial.press(wrong.element, t)
        assert trial.bomb.strike_count == before + 1, wrong


def test_oracle_self_check() -> None:
    """For 200 seeds the oracle solves without a strike; every listed mistake costs one strike."""
    mistakes_seen = 0
    for seed in range(200):
        engine = new(seed)
        t = 0.0
        for _ in range(5):
            if engine.solved:
                break
            state = engine.export(t, in_focus=True)
            mistakes_seen += len(
                rules_file.mistakes(state, engine.bomb.edgework, V1.venn, strikes=0)
            )
            plan = rules_file.solve(state, engine.bomb.edgework, V1.venn, strikes=0)
            assert plan, seed
            for step in plan:
                assert_mistakes_cost_one_strike(engine, t)
                engine.press(step.element, t)
                t += 0.1
            engine.advance(t)
        assert engine.solved, seed
        assert engine.bomb.strike_count == 0, seed
    assert mistakes_seen > 100
