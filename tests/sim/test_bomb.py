"""The bomb: layout, timer with strike speed-up, strikes, outcomes, export, determinism."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gptnt.errors import SimulatorError
from gptnt.protocol import MODULE_KINDS, BombState, timer_text
from gptnt.rules.ruleset import V1
from gptnt.sim.bomb import Bomb, BombSpec


def _bomb(seed: int = 1, components: tuple[str, ...] = ("Wires",), **kw: object) -> Bomb:
    return Bomb.generate(BombSpec(seed=seed, components=components, **kw), V1)  # type: ignore[arg-type]


def _export(bomb: Bomb) -> BombState:
    return BombState(
        seed=bomb.spec.seed,
        max_strikes=bomb.spec.max_strikes,
        timer_module=bomb.timer_state(),
        widgets=bomb.widgets,
        modules=[engine.export(bomb.now, in_focus=False) for engine in bomb.modules],
        strikes=bomb.strikes,
    )


@given(
    seed=st.integers(0, 10**9),
    kinds=st.lists(st.sampled_from(MODULE_KINDS), min_size=1, max_size=11),
    front_only=st.booleans(),
    widgets=st.integers(0, 10),
)
@settings(max_examples=60, deadline=None)
def test_generation_is_deterministic_and_exports_valid_state(
    seed: int, kinds: list[str], front_only: bool, widgets: int
) -> None:
    if front_only:
        kinds = kinds[:5]
    spec = BombSpec(seed=seed, components=tuple(kinds), opt_widgets=widgets, front_only=front_only)
    first, second = Bomb.generate(spec, V1), Bomb.generate(spec, V1)
    state = _export(first)
    assert state == _export(second)
    assert BombState.model_validate(state.to_wire()) == state  # round-trips the protocol model
    slots = [(m.slot.on_front, m.slot.index) for m in first.modules]
    slots.append((first.timer_slot.on_front, first.timer_slot.index))
    assert len(set(slots)) == len(slots)  # no two things in one slot
    assert [m.kind for m in first.modules] == kinds  # component order kept
    if front_only:
        assert all(m.slot.on_front for m in first.modules)
    for module in first.modules:
        if module.kind == "BigButton":
            assert module.slot.on_front == first.timer_slot.on_front


def test_different_seeds_differ() -> None:
    states = {str(_export(_bomb(seed)).to_wire()) for seed in range(20)}
    assert len(states) == 20


def test_too_many_modules_and_unknown_kinds_are_refused() -> None:
    with pytest.raises(SimulatorError, match="at most 5"):
        _bomb(components=("Wires",) * 6, front_only=True)
    with pytest.raises(SimulatorError, match="Piano"):
        _bomb(components=("Piano",))
    with pytest.raises(SimulatorError, match="non-needy"):
        _bomb(components=("NeedyKnob",))


def test_timer_counts_down_and_speeds_up_with_strikes() -> None:
    bomb = _bomb(time_limit=100.0, max_strikes=5)
    bomb.advance(10.0)
    assert bomb.seconds_remaining() == pytest.approx(90.0)
    expected = 90.0
    for strikes, rate in enumerate((1.25, 1.5, 1.75, 2.0), start=1):
        bomb.strike("Wires")
        assert bomb.strike_count == strikes
        bomb.advance(bomb.now + 4.0)
        expected -= 4.0 * rate
        assert bomb.seconds_remaining() == pytest.approx(expected)
    assert bomb.outcome is None


def test_strike_limit_explodes() -> None:
    bomb = _bomb(max_strikes=2, time_limit=100.0)
    bomb.strike("Wires")
    assert bomb.outcome is None
    bomb.advance(1.0)
    bomb.strike("Keypad")
    assert bomb.outcome == "strikeout" and bomb.is_detonated
    assert bomb.strikes == ["Wires", "Keypad"]
    frozen = bomb.seconds_remaining()
    bomb.advance(50.0)
    assert bomb.seconds_remaining() == frozen
    bomb.strike("Wires")  # no strikes after the end
    assert len(bomb.strikes) == 2


def test_time_out_happens_exactly_at_zero() -> None:
    bomb = _bomb(time_limit=10.0)
    bomb.strike("Wires")  # rate 1.25 → zero at 8 s
    assert bomb.time_of_zero() == pytest.approx(8.0)
    bomb.advance(30.0)
    assert bomb.outcome == "timeout"
    assert bomb.ended_at == pytest.approx(8.0)
    assert bomb.seconds_remaining() == 0.0
    assert bomb.timer_state().seconds_remaining == 0.0


def test_solving_every_module_defuses_and_stops_the_clock() -> None:
    bomb = _bomb(components=("Wires", "Keypad"), time_limit=100.0)
    bomb.advance(5.0)
    bomb.force_solve(bomb.modules[0])
    assert bomb.outcome is None
    bomb.force_solve(bomb.modules[1])
    assert bomb.outcome == "solved" and not bomb.is_detonated
    bomb.advance(20.0)
    assert bomb.seconds_remaining() == pytest.approx(95.0)


def test_solved_modules_and_finished_bombs_ignore_input() -> None:
    bomb = _bomb(components=("Wires", "Keypad"))
    wires = bomb.modules[0]
    bomb.force_solve(wires)
    assert bomb.press(wires, "wire-0") is False
    bomb.detonate()
    assert bomb.outcome == "detonated"
    assert bomb.press(bomb.modules[1], "top-left") is False


def test_time_cannot_go_back() -> None:
    bomb = _bomb()
    bomb.advance(2.0)
    with pytest.raises(SimulatorError, match="back"):
        bomb.advance(1.0)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (300.0, "05:00"),
        (77.9, "01:17"),
        (60.0, "01:00"),
        (59.999, "59.99"),
        (7.3, "07.30"),
        (0.0, "00.00"),
        (-3.0, "00.00"),
    ],
)
def test_timer_text(seconds: float, text: str) -> None:
    assert timer_text(seconds) == text


def test_timer_text_follows_the_bomb_clock() -> None:
    bomb = _bomb(time_limit=65.0)
    assert bomb.timer_text() == "01:05"
    bomb.advance(5.5)
    assert bomb.timer_text() == "59.50"
