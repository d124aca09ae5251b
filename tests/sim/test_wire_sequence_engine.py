"""Wire Sequence engine: generation, panels and their animation, strikes, and the oracle self-check."""

from __future__ import annotations

import copy
import random
import string
from collections import Counter
from dataclasses import dataclass, field

from gptnt.protocol._state import ModuleKind, WireSequenceModule
from gptnt.rules._edgework import Edgework
from gptnt.rules.modules import wire_sequence as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.wire_sequence import ENGINE, PlugWire, WireSequenceEngine


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


def new(seed: int) -> WireSequenceEngine:
    bomb = FakeBomb(random_edgework(random.Random(seed)))
    engine = ENGINE.generate(random.Random(seed), rules=V1, bomb=bomb, slot=Slot(True, 5))
    assert isinstance(engine, WireSequenceEngine)
    return engine


def fixed(wires: list[PlugWire | None]) -> WireSequenceEngine:
    padded = wires + [None] * (12 - len(wires))
    return WireSequenceEngine(
        rules=V1, bomb=FakeBomb(Edgework(serial="AB1CD2")), slot=Slot(True, 0), wires=padded
    )


def test_generation_shape() -> None:
    assert new(9).export(0, in_focus=False) == new(9).export(0, in_focus=False)
    sizes: Counter[int] = Counter()
    for seed in range(300):
        e = new(seed)
        present = [w for w in e.wires if w is not None]
        sizes[len(present)] += 1
        assert len(e.wires) == 12
        assert any(w is not None for w in e.wires[:3]), seed
        assert max(Counter(w.color for w in present).values()) <= 9
        WireSequenceModule.model_validate(e.export(0, in_focus=True).to_wire())
    assert set(sizes) == {9, 10}


def test_appendix_c_first_black_and_first_red_to_a() -> None:
    e = fixed([PlugWire("black", "C"), PlugWire("red", "A")])
    e.press("wire-0", 1.0)  # first black: always cut
    assert e.bomb.strike_count == 0
    e.press("wire-1", 2.0)  # first red to A: must stay
    assert e.bomb.strike_count == 1


def test_down_with_a_cut_undone_strikes_and_stays() -> None:
    e = fixed([PlugWire("black", "A"), PlugWire("red", "A")])  # black #1 cut, red #1 to A keep
    assert e.elements() == ["wire-0", "wire-1", "down", "up"]
    e.press("down", 1.0)
    assert e.bomb.strike_count == 1 and e.panel == 1 and not e.emerging(1.0)
    e.press("wire-1", 2.0)
    assert e.bomb.strike_count == 2 and e.wires[1] is not None and e.wires[1].cut
    e.press("wire-0", 3.0)
    e.press("down", 4.0)
    assert e.bomb.strike_count == 2 and e.panel == 2


def test_page_change_animates_and_ignores_input() -> None:
    e = fixed(
        [PlugWire("blue", "B"), None, None, PlugWire("blue", "B")]
    )  # blue #1→B cut, #2→B keep
    e.press("wire-0", 0.0)
    e.press("down", 1.0)
    assert e.panel == 2 and e.emerging(1.5)
    assert e.export(1.5, in_focus=True).is_emerged is False
    e.press("wire-3", 1.6)  # ignored while the panel slides in
    assert e.wires[3] is not None and not e.wires[3].cut and e.bomb.strike_count == 0
    assert e.export(2.3, in_focus=True).is_emerged is True
    e.press("up", 2.3)
    assert e.panel == 1
    e.press("up", 4.0)  # nothing above panel 1
    assert e.panel == 1 and e.bomb.strike_count == 0


def test_down_past_the_last_panel_solves_and_reads_panel_5() -> None:
    e = fixed([None] * 12)
    for k in range(4):
        e.press("down", 2.0 * k)
    assert e.solved and e.panel == 5
    assert e.export(10.0, in_focus=True).panel == 5


def assert_mistakes_cost_one_strike(engine: WireSequenceEngine, t: float) -> None:
    state = engine.export(t, in_focus=True)
    for wrong in rules_file.mistakes(state, engine.bomb.edgework, V1.wire_sequence, strikes=0):
        trial = copy.deepcopy(engine, {id(engine.rules): engine.rules})
        before = trial.bomb.strike_count
        trial.press(wrong.element, t)
        assert trial.bomb.strike_count == before + 1, wrong


def test_oracle_self_check() -> None:
    """For 200 seeds the oracle solves without a strike; every listed mistake costs one strike."""
    for seed in range(200):
        engine = new(seed)
        t = 0.0
        for _ in range(8):  # one solve call per panel
            if engine.solved:
                break
            state = engine.export(t, in_focus=True)
            assert state.is_emerged
            plan = rules_file.solve(state, engine.bomb.edgework, V1.wire_sequence, strikes=0)
            assert plan, seed
            for step in plan:
                assert_mistakes_cost_one_strike(engine, t)
                engine.press(step.element, t)
                t += 0.1
            t += 2.0  # past the panel change
            engine.advance(t)
        assert engine.solved, seed
        assert engine.bomb.strike_count == 0, seed
