"""The Button engine: tap vs hold, the strip, release on the timer digit, oracle self-check."""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from gptnt.protocol._state import BigButtonModule, ModuleKind
from gptnt.rules._edgework import Edgework, Indicator
from gptnt.rules._steps import Hold, Press, ReleaseOnDigit, Step
from gptnt.rules.modules import big_button as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.big_button import ENGINE, ButtonEngine


@dataclass
class FakeBomb:
    """What a module sees of its bomb; the timer counts down from ``limit`` with ``now``."""

    edgework: Edgework
    limit: float = 300.0
    strikes: list[ModuleKind] = field(default_factory=list)
    now: float = 0.0

    @property
    def strike_count(self) -> int:
        return len(self.strikes)

    def timer_text(self) -> str:
        left = max(0.0, self.limit - self.now)
        if left >= 60:
            return f"{int(left) // 60:02d}:{int(left) % 60:02d}"
        return f"{int(left):02d}.{int(left * 100) % 100:02d}"

    def strike(self, module: ModuleKind) -> None:
        self.strikes.append(module)


def random_edgework(rng: random.Random) -> Edgework:
    labels = rng.sample(["CAR", "FRK", "BOB", "SND"], rng.randrange(3))
    return Edgework(
        serial="AB1CD2",
        battery_holders=tuple(rng.choice((1, 2)) for _ in range(rng.randrange(4))),
        indicators=tuple(Indicator(label, rng.random() < 0.6) for label in labels),
    )


def new(seed: int, *, limit: float = 300.0) -> ButtonEngine:
    rng = random.Random(seed)
    bomb = FakeBomb(random_edgework(rng), limit=limit)
    engine = ENGINE.generate(rng, rules=V1, bomb=bomb, slot=Slot(True, 0))
    assert isinstance(engine, ButtonEngine)
    return engine


def apply(engine: ButtonEngine, step: Step, t: float) -> float:
    """Perform one oracle step at ``t`` as a Defuser would; the game time afterwards."""
    bomb = engine.bomb
    assert isinstance(bomb, FakeBomb)
    bomb.now = t
    match step:
        case Press(element):
            engine.press(element, t)
            engine.release(element, t)
            return t + 0.5
        case Hold(element):
            engine.press(element, t)
            return t + 1.0
        case ReleaseOnDigit(digit):
            while str(digit) not in bomb.timer_text():
                t = round(t + 0.01, 2)
                bomb.now = t
            engine.release("button", t)
            return t + 0.5
    raise AssertionError(step)


def test_generation_is_deterministic_valid_and_never_black() -> None:
    assert new(5).export(0, in_focus=False) == new(5).export(0, in_focus=False)
    colors = Counter(new(seed).color for seed in range(400))
    assert set(colors) == {"red", "blue", "yellow", "white"}
    state = new(3).export(0.0, in_focus=True)
    assert BigButtonModule.model_validate(state.to_wire()) == state
    assert rules_file.elements(state) == new(3).elements() == ["button"]


def test_strip_is_exported_while_held_and_lit_after_the_delay() -> None:
    e = new(1)
    assert e.export(0.0, in_focus=True).strip_color is None
    e.press("button", 10.0)
    held = e.export(10.1, in_focus=True)
    assert held.is_held and held.strip_color == e.strip
    assert e.strip_lit(10.2) is None and e.strip_lit(10.5) == e.strip
    e.release("button", 12.0)
    assert not e.export(12.0, in_focus=True).is_held and e.strip_lit(12.0) is None


def test_appendix_c_release_on_timer_digit() -> None:
    bomb = FakeBomb(Edgework(serial="AB1CD2"))
    e = ButtonEngine(
        rules=V1,
        bomb=bomb,
        slot=Slot(True, 0),
        color="blue",
        word="Abort",
        strip="blue",
        rng=random.Random(0),
    )
    bomb.now = 1.0
    e.press("button", 1.0)
    bomb.now = 300 - (4 * 60 + 37)  # timer shows 04:37
    assert bomb.timer_text() == "04:37"
    e.release("button", bomb.now)
    assert e.solved and bomb.strike_count == 0

    bomb2 = FakeBomb(Edgework(serial="AB1CD2"), limit=60.0)
    e2 = ButtonEngine(
        rules=V1,
        bomb=bomb2,
        slot=Slot(True, 0),
        color="blue",
        word="Abort",
        strip="yellow",
        rng=random.Random(0),
    )
    e2.press("button", 0.0)
    bomb2.now = 47.5  # 12.50: contains 5
    assert bomb2.timer_text() == "12.50"
    e2.release("button", 47.5)
    assert e2.solved and bomb2.strike_count == 0


def test_wrong_release_tap_instead_of_hold_and_hold_instead_of_tap_strike() -> None:
    bomb = FakeBomb(Edgework(serial="AB1CD2"))
    hold = ButtonEngine(
        rules=V1,
        bomb=bomb,
        slot=Slot(True, 0),
        color="blue",
        word="Abort",
        strip="blue",
        rng=random.Random(0),
    )
    hold.press("button", 1.0)
    bomb.now = 300 - (2 * 60 + 33)
    assert bomb.timer_text() == "02:33"  # the blue strip wants a 4
    hold.release("button", bomb.now)
    assert bomb.strike_count == 1 and not hold.solved
    hold.press("button", 200.0)
    hold.release("button", 200.0)  # a tap on a hold button
    assert bomb.strike_count == 2 and not hold.solved

    tap = ButtonEngine(
        rules=V1,
        bomb=bomb,
        slot=Slot(True, 0),
        color="red",
        word="Hold",
        strip="white",
        rng=random.Random(0),
    )
    tap.press("button", 10.0)
    tap.release("button", 12.0)  # held past the strip delay
    assert bomb.strike_count == 3 and not tap.solved
    tap.press("button", 13.0)
    tap.release("button", 13.2)  # quick: a tap
    assert tap.solved and bomb.strike_count == 3


def test_wrongly_held_button_mistake_costs_one_strike() -> None:
    found = 0
    for seed in range(60):
        e = new(seed)
        needed = rules_file.action(e.color, e.word, e.bomb.edgework, V1.big_button)
        if needed != "tap":
            continue
        apply(e, Hold("button"), 0.0)
        wrong = rules_file.mistakes(
            e.export(1.0, in_focus=True), e.bomb.edgework, V1.big_button, strikes=0
        )
        assert wrong == [ReleaseOnDigit(0)]
        apply(e, wrong[0], 1.0)
        assert e.bomb.strike_count == 1 and not e.solved
        found += 1
    assert found > 5


def test_reroll_strip_draws_a_new_colour_per_hold() -> None:
    from gptnt.sim.modules.big_button import ButtonGeneration

    rng = random.Random(4)
    bomb = FakeBomb(Edgework(serial="AB1CD2"))
    e = ENGINE.generate(
        rng, rules=V1, bomb=bomb, slot=Slot(True, 0), generation=ButtonGeneration(reroll_strip=True)
    )
    seen = set()
    for i in range(20):
        e.press("button", i * 10.0)
        seen.add(e.export(i * 10.0, in_focus=True).strip_color)
        e.held_since = None
    assert len(seen) > 1


def assert_mistakes_cost_one_strike(engine: ButtonEngine, t: float) -> None:
    state = engine.export(t, in_focus=True)
    for wrong in rules_file.mistakes(
        state, engine.bomb.edgework, V1.big_button, strikes=engine.bomb.strike_count
    ):
        trial = copy.deepcopy(engine, {id(engine.rules): engine.rules})
        before = trial.bomb.strike_count
        apply(trial, wrong, t)
        assert trial.bomb.strike_count == before + 1, wrong


def test_oracle_self_check() -> None:
    """200 seeds, timers from 300 s and from 45 s (SS.hh): solved without a strike."""
    for seed in range(200):
        engine = new(seed, limit=300.0 if seed % 2 else 45.0)
        t = 0.0
        for _ in range(4):
            state = engine.export(t, in_focus=True)
            plan = rules_file.solve(
                state, engine.bomb.edgework, V1.big_button, strikes=engine.bomb.strike_count
            )
            if not plan:
                break
            assert_mistakes_cost_one_strike(engine, t)
            for step in plan:
                t = apply(engine, step, t)
        assert engine.solved and engine.bomb.strike_count == 0, seed


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    inputs=st.lists(st.tuples(st.integers(0, 11), st.floats(0.0, 4.0)), max_size=25),
)
def test_random_play_keeps_a_valid_state(seed: int, inputs: list[tuple[int, float]]) -> None:
    """Any input sequence: the export validates, strikes only add up, solved stays solved."""
    engine = new(seed)
    t, strikes, solved = 0.0, 0, False
    for which, pause in inputs:
        t += pause
        element = engine.elements()[which % len(engine.elements())]
        engine.press(element, t)
        engine.release(element, t + 0.1 * which)  # some quick taps, some long holds
        state = engine.export(t, in_focus=True)
        assert BigButtonModule.model_validate(state.to_wire()) == state
        assert engine.bomb.strike_count >= strikes and (engine.solved or not solved)
        strikes, solved = engine.bomb.strike_count, engine.solved
