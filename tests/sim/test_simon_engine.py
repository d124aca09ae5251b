"""Simon Says engine: generation, flashes as a function of game time, GPTNT's delays, strikes
changing the mapping, oracle self-check."""

from __future__ import annotations

import random
from collections import Counter

from _support import FakeBomb, follow_the_oracle, generated, random_play_test

from gptnt.protocol import SimonModule
from gptnt.rules import Edgework
from gptnt.rules.modules import simon as rules_file
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import Slot
from gptnt.sim.modules.simon import ENGINE, GENERATION, SimonEngine


def new(seed: int) -> SimonEngine:
    rng = random.Random(seed)
    serial = rng.choice(["AE1CD2", "BC1DF3"])  # with and without a vowel
    return generated(ENGINE, rng, FakeBomb(Edgework(serial=serial)), Slot(True, 3))


def fixed(sequence: tuple[str, ...], serial: str = "AE1CD2") -> SimonEngine:
    return SimonEngine(
        rules=V1, bomb=FakeBomb(Edgework(serial=serial)), slot=Slot(True, 0), sequence=sequence
    )


def test_generation_is_deterministic_and_valid() -> None:
    assert new(2).sequence == new(2).sequence
    lengths = Counter(len(new(seed).sequence) for seed in range(300))
    assert set(lengths) == {3, 4, 5}
    state = new(2).export(0.0, in_focus=True)
    assert SimonModule.model_validate(state.to_wire()) == state
    assert state.solve_progress == 0 and state.beep_sequence == list(new(2).sequence)


def test_flashes_are_a_function_of_time() -> None:
    e = fixed(("green", "red", "blue"))
    g = GENERATION
    assert e.lit_color(0.1) == "green" and e.lit_color(g.flash_on + 0.01) is None
    e.progress = 2  # stage 3 shows three flashes, then the replay delay
    step = g.flash_on + g.flash_gap
    assert [e.lit_color(i * step + 0.1) for i in range(3)] == ["green", "red", "blue"]
    assert e.lit_color(3 * step + 0.1) is None
    assert e.lit_color(3 * step + g.replay_delay + 0.1) == "green"  # it loops


def test_zoom_press_and_strike_delays() -> None:
    e = fixed(("green", "red", "blue", "yellow"))
    e.restart_flashes(10.0)
    assert e.lit_color(10.5) is None and e.lit_color(11.1) == "green"
    e.press("yellow", 20.0)  # vowel, 0 strikes: green → yellow; stage 1 done
    assert e.progress == 1 and e.lit_color(20.1) == "yellow"  # the pressed button lights
    assert e.lit_color(20.0 + GENERATION.after_stage + 0.1) == "green"
    e.press("yellow", 30.0)  # first of stage 2: correct, next playback 5 s later
    assert e.entered == 1 and e.lit_color(34.0) is None and e.lit_color(35.1) == "green"
    e.press("red", 40.0)  # wrong: strike; input resets, replay after 1 s
    assert e.bomb.strike_count == 1 and e.entered == 0 and e.progress == 1
    assert e.lit_color(41.1) == "green"


def test_strike_count_changes_the_mapping_of_later_presses() -> None:
    e = fixed(("red", "red", "red"))
    e.press("green", 1.0)  # wrong with 0 strikes (red → blue): strike
    assert e.bomb.strike_count == 1
    e.press("yellow", 2.0)  # vowel, 1 strike: red → yellow (Appendix C)
    assert e.progress == 1 and e.bomb.strike_count == 1


def test_solved_module_stops_flashing_and_ignores_input() -> None:
    e = fixed(("blue", "blue", "blue"), serial="BC1DF2")  # no vowel, 0 strikes: blue → yellow
    for n in range(1, 4):
        for i in range(n):
            e.press("yellow", 10.0 * n + i)
    assert e.solved and e.export(40.0, in_focus=True).solve_progress == 3
    assert all(e.lit_color(40.0 + i * 0.25) is None for i in range(40))
    e.press("red", 50.0)
    assert e.bomb.strike_count == 0


def test_oracle_self_check() -> None:
    """200 seeds: stage by stage the oracle solves without a strike; each listed mistake at the
    start of every stage costs exactly one strike (the described state does not show the presses
    made within a stage, so mistakes are only known at its start)."""
    for seed in range(200):
        played = follow_the_oracle(
            new(seed), rules_file, V1.simon, rounds=6, probe_every_step=False
        )
        assert all(len(plan) == state.solve_progress + 1 for state, plan in played)


test_random_play_keeps_a_valid_state = random_play_test(new, SimonModule)
