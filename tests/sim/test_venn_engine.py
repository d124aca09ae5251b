"""Complicated Wires engine: generation, cuts and strikes, and the oracle self-check."""

from __future__ import annotations

import random
from collections import Counter

from _support import FakeBomb, follow_the_oracle, generated, random_serial

from gptnt.protocol import VennModule
from gptnt.rules import Edgework
from gptnt.rules.modules import venn as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.venn import ENGINE, ComplicatedWire, VennEngine


def random_edgework(rng: random.Random) -> Edgework:
    serial = random_serial(rng)
    plates = (("Parallel", "Serial"),) if rng.random() < 0.5 else (("PS/2",),)
    return Edgework(serial=serial, battery_holders=(2,) * rng.randrange(2), port_plates=plates)


def new(seed: int) -> VennEngine:
    bomb = FakeBomb(random_edgework(random.Random(seed)))
    return generated(ENGINE, random.Random(seed), bomb, Slot(True, 4))


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


def test_oracle_self_check() -> None:
    """For 200 seeds the oracle solves without a strike; every listed mistake costs one strike,
    and there are plenty of them (counted at the start of each round)."""
    mistakes_seen = 0
    for seed in range(200):
        engine = new(seed)
        for state, _ in follow_the_oracle(engine, rules_file, V1.venn, rounds=5):
            mistakes_seen += len(
                rules_file.mistakes(state, engine.bomb.edgework, V1.venn, strikes=0)
            )
    assert mistakes_seen > 100
