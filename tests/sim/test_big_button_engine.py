"""The Button engine: tap vs hold, the strip, release on the timer digit, oracle self-check."""

from __future__ import annotations

import random
from collections import Counter

from _support import FakeBomb, Hands, follow_the_oracle, generated, random_play_test

from gptnt.protocol import BigButtonModule
from gptnt.rules import Edgework, Hold, Indicator, Release, Timing
from gptnt.rules.modules import big_button as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.big_button import ENGINE, ButtonEngine


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
    return generated(ENGINE, rng, bomb, Slot(True, 0))


def fixed(bomb: FakeBomb, color: str, word: str, strip: str) -> ButtonEngine:
    return ButtonEngine(
        rules=V1,
        bomb=bomb,
        slot=Slot(True, 0),
        color=color,
        word=word,
        strip=strip,
        rng=random.Random(0),
    )


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
    e = fixed(bomb, "blue", "Abort", "blue")
    bomb.now = 1.0
    e.press("button", 1.0)
    bomb.now = 300 - (4 * 60 + 37)  # timer shows 04:37
    assert bomb.timer_text() == "04:37"
    e.release("button", bomb.now)
    assert e.solved and bomb.strike_count == 0

    bomb2 = FakeBomb(Edgework(serial="AB1CD2"), limit=60.0)
    e2 = fixed(bomb2, "blue", "Abort", "yellow")
    e2.press("button", 0.0)
    bomb2.now = 47.5  # 12.50: contains 5
    assert bomb2.timer_text() == "12.50"
    e2.release("button", 47.5)
    assert e2.solved and bomb2.strike_count == 0


def test_wrong_release_tap_instead_of_hold_and_hold_instead_of_tap_strike() -> None:
    bomb = FakeBomb(Edgework(serial="AB1CD2"))
    hold = fixed(bomb, "blue", "Abort", "blue")
    hold.press("button", 1.0)
    bomb.now = 300 - (2 * 60 + 33)
    assert bomb.timer_text() == "02:33"  # the blue strip wants a 4
    hold.release("button", bomb.now)
    assert bomb.strike_count == 1 and not hold.solved
    hold.press("button", 200.0)
    hold.release("button", 200.0)  # a tap on a hold button
    assert bomb.strike_count == 2 and not hold.solved

    tap = fixed(bomb, "red", "Hold", "white")
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
        hands = Hands(e)
        hands.do(Hold("button"))
        wrong = rules_file.mistakes(
            e.export(hands.t, in_focus=True), e.bomb.edgework, V1.big_button, strikes=0
        )
        assert wrong == [Release(Timing("any_time"))]
        hands.do(wrong[0])
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


def test_oracle_self_check() -> None:
    """200 seeds, timers from 300 s and from 45 s (SS.hh): solved without a strike; the listed
    mistakes cost one strike each before every step (a press, a hold, a release)."""
    for seed in range(200):
        engine = new(seed, limit=300.0 if seed % 2 else 45.0)
        follow_the_oracle(engine, rules_file, V1.big_button, rounds=4)


test_random_play_keeps_a_valid_state = random_play_test(new, BigButtonModule)
