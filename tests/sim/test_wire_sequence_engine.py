"""Wire Sequence engine: generation, panels and their animation, strikes, and the oracle self-check."""

from __future__ import annotations

import random
from collections import Counter

from _support import FakeBomb, follow_the_oracle, generated, random_serial

from gptnt.protocol import WireSequenceModule
from gptnt.rules import Edgework
from gptnt.rules.modules import wire_sequence as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.wire_sequence import ENGINE, PlugWire, WireSequenceEngine


def new(seed: int) -> WireSequenceEngine:
    bomb = FakeBomb(Edgework(serial=random_serial(random.Random(seed))))
    return generated(ENGINE, random.Random(seed), bomb, Slot(True, 5))


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


def test_oracle_self_check() -> None:
    """For 200 seeds the oracle solves without a strike; every listed mistake costs one strike;
    each panel is planned only once it has slid in."""
    for seed in range(200):
        played = follow_the_oracle(new(seed), rules_file, V1.wire_sequence, rounds=8)
        assert all(state.is_emerged for state, _ in played)
