"""Morse engine: the blinking signal over game time, the dial, TX, and the oracle self-check."""

from __future__ import annotations

import copy
import random
import string
from dataclasses import dataclass, field

from gptnt.protocol._state import ModuleKind, MorseModule
from gptnt.rules._edgework import Edgework
from gptnt.rules.modules import morse as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.morse import ENGINE, MorseEngine, MorseTiming, signal


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
    return Edgework(serial=serial, battery_holders=(1,) * rng.randrange(3))


def new(seed: int) -> MorseEngine:
    bomb = FakeBomb(random_edgework(random.Random(seed)))
    engine = ENGINE.generate(random.Random(seed), rules=V1, bomb=bomb, slot=Slot(False, 2))
    assert isinstance(engine, MorseEngine)
    return engine


def word_engine(word: str) -> MorseEngine:
    return MorseEngine(
        rules=V1, bomb=FakeBomb(Edgework(serial="AB1CD2")), slot=Slot(True, 0), word=word
    )


def test_signal_units() -> None:
    timing = MorseTiming()
    code = dict(V1.morse.alphabet)
    # "ET": E = dot, letter gap, T = dash, word gap.
    assert (
        signal("et", code, timing) == (True, False, False, False, True, True, True) + (False,) * 10
    )
    # S = dot gap dot gap dot.
    assert signal("s", code, timing)[:6] == (True, False, True, False, True, False)


def test_light_blinks_on_the_quarter_second_unit_and_loops() -> None:
    e = word_engine("trick")  # T = one dash: lit for 3 units
    assert [e.light_on(0.25 * k + 0.01) for k in range(5)] == [True, True, True, False, False]
    period = len(signal("trick", dict(V1.morse.alphabet), MorseTiming())) * 0.25
    for k in range(40):
        assert e.light_on(0.1 + 0.25 * k) == e.light_on(0.1 + 0.25 * k + 3 * period)


def test_dial_starts_at_505_and_clamps_at_both_ends() -> None:
    e = word_engine("beats")
    assert e.export(0, in_focus=False).current_frequency == 505.0
    e.press("left", 0.0)
    assert e.frequency == 505
    for _ in range(20):
        e.press("right", 0.0)
    assert e.frequency == 600 and e.bomb.strike_count == 0


def test_appendix_c_boxes_four_rights_then_tx_solves() -> None:
    e = word_engine("boxes")
    e.press("transmit", 1.0)
    assert e.bomb.strike_count == 1 and not e.solved and e.frequency == 505
    for _ in range(4):
        e.press("right", 2.0)
    assert e.frequency == 535
    e.press("transmit", 3.0)
    assert e.solved and e.bomb.strike_count == 1
    state = e.export(3.0, in_focus=True)
    assert (state.sequence, state.current_frequency, state.correct_frequency) == (
        "boxes",
        535.0,
        535.0,
    )


def test_generation_is_deterministic_and_covers_words() -> None:
    assert new(3).export(0, in_focus=False) == new(3).export(0, in_focus=False)
    words = {new(seed).word for seed in range(300)}
    assert words == {w for w, _ in V1.morse.words}
    MorseModule.model_validate(new(1).export(0, in_focus=True).to_wire())


def assert_mistakes_cost_one_strike(engine: MorseEngine, t: float) -> None:
    state = engine.export(t, in_focus=True)
    for wrong in rules_file.mistakes(state, engine.bomb.edgework, V1.morse, strikes=0):
        trial = copy.deepcopy(engine, {id(engine.rules): engine.rules})
        before = trial.bomb.strike_count
        trial.press(wrong.element, t)
        assert trial.bomb.strike_count == before + 1, wrong


def test_oracle_self_check() -> None:
    """For 200 seeds the oracle solves without a strike; every listed mistake costs one strike."""
    for seed in range(200):
        engine = new(seed)
        t = 0.0
        for _ in range(5):
            if engine.solved:
                break
            plan = rules_file.solve(
                engine.export(t, in_focus=True), engine.bomb.edgework, V1.morse, strikes=0
            )
            assert plan, seed
            for step in plan:
                assert_mistakes_cost_one_strike(engine, t)
                engine.press(step.element, t)
                engine.release(step.element, t)
                t += 0.1
            t += 2.0
            engine.advance(t)
        assert engine.solved, seed
        assert engine.bomb.strike_count == 0, seed
