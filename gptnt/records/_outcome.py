"""The outcome of an episode, decided from the game's own final bomb state."""

from __future__ import annotations

from gptnt.protocol import BombState
from gptnt.records._schema import EpisodeOutcome

TIMER_TOLERANCE_S = 0.05
"""Game seconds: a bomb that exploded with at most this on its clock timed out. After strikes
speed the clock up, the game's float arithmetic stops it a hair above zero (e.g. 2.8e-14 s)."""


def classify(state: BombState | None) -> tuple[EpisodeOutcome, str]:
    """The outcome of a finished bomb, from the game's own final state (no float equality).

    Strikes are checked before the clock: the strike that detonates the bomb stops the clock
    wherever it was. ``crashed`` is kept for states no game rule explains.
    """
    if state is None:
        return "crashed", "no final bomb state"
    if state.all_solved:
        return "solved", "every module solved"
    if len(state.strikes) >= state.max_strikes:
        return "strikeout", f"{len(state.strikes)} strikes"
    remaining = state.timer_module.seconds_remaining
    if remaining <= TIMER_TOLERANCE_S:
        return "timeout", "the timer ran out"
    if state.is_detonated:
        return "crashed", (
            f"the bomb detonated with {remaining:g} s on the clock and "
            f"{len(state.strikes)} of {state.max_strikes} strikes"
        )
    return "crashed", "the game ended without an outcome"
