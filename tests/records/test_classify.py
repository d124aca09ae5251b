"""``classify``: the outcome from the game's own final state, with a tolerance on the clock.

After strikes speed the clock up, the game stops it a hair above zero (2.8e-14 s was seen);
that is a timeout, not a crash to be re-rolled. Each module type's real bomb state, from the
simulator, with the end states a game can reach."""

from __future__ import annotations

import pytest

from gptnt.protocol import MODULE_KINDS, BombState, MissionConfig, TimerState
from gptnt.records import TIMER_TOLERANCE_S, classify
from gptnt.sim.game import Game


def _state(kind: str) -> BombState:
    game = Game(width=160, height=120, transition_seconds=0.0)
    game.start_mission(MissionConfig(seed=3, time_limit=60, num_strikes=3, needy_time=60,
                                     is_front=True, components=[kind]))  # fmt: skip
    game.timestep()
    return game.state()


def _ended(state: BombState, *, remaining: float, strikes: int, detonated: bool = True):
    timer = TimerState.model_validate(
        {**state.timer_module.model_dump(), "seconds_remaining": remaining}
    )
    return state.model_copy(
        update={"timer_module": timer, "strikes": [state.modules[0].name] * strikes,
                "is_detonated": detonated}
    )  # fmt: skip


@pytest.mark.parametrize("kind", sorted(MODULE_KINDS))
def test_strike_then_timeout_for_every_module_type(kind: str) -> None:
    state = _state(kind)
    for strikes in (1, 2):
        for remaining in (0.0, 2.8e-14, 1e-9, TIMER_TOLERANCE_S):
            ended = _ended(state, remaining=remaining, strikes=strikes)
            assert classify(ended) == ("timeout", "the timer ran out"), (strikes, remaining)
    # The strike that detonates the bomb stops the clock wherever it is.
    assert classify(_ended(state, remaining=12.5, strikes=3))[0] == "strikeout"
    assert classify(_ended(state, remaining=1e-9, strikes=3))[0] == "strikeout"


def test_an_explosion_no_rule_explains_is_a_crash_with_the_facts() -> None:
    state = _state("Wires")
    outcome, reason = classify(_ended(state, remaining=0.5, strikes=1))
    assert outcome == "crashed"
    assert "0.5 s on the clock" in reason and "1 of 3 strikes" in reason
    assert classify(None)[0] == "crashed"
    assert classify(_ended(state, remaining=20, strikes=0, detonated=False))[0] == "crashed"
