"""The mod's ``magic`` oracle action (docs/protocol.md §6.4) solves every single-module mission
step by step without a strike, Simon Says included (each call is one press of the stage)."""

from __future__ import annotations

import pytest

from gptnt.missions import load_missions
from gptnt.protocol import Lifecycle
from gptnt.sim.game import Game

SINGLE = sorted(m.id for m in load_missions().values() if m.kind == "single")


def _playing(mission_id: str) -> Game:
    """The mission at LightsOn, paused; no frames are captured (magic needs no pixels)."""
    game = Game(width=160, height=120, transition_seconds=0.0, clock=lambda: 0.0,
                capture_frames=False)  # fmt: skip
    game.health()
    game.start_mission(load_missions()[mission_id].config)
    while game.health() != Lifecycle.LIGHTS_ON.value:
        game.timestep()
    return game


def _solve_by_magic(mission_id: str) -> tuple[bool, int, list[str]]:
    game = _playing(mission_id)
    texts: list[str] = []
    for _ in range(400):
        texts.append(game.action("magic"))
        state = game.state()
        if state.is_solved or state.is_detonated:
            break
        game.timestep()
    state = game.state()
    return state.is_solved, len(state.strikes), texts


def test_there_are_110_single_module_missions() -> None:
    assert len(SINGLE) == 110


@pytest.mark.parametrize("mission_id", SINGLE)
def test_magic_solves_without_a_strike(mission_id: str) -> None:
    solved, strikes, texts = _solve_by_magic(mission_id)
    assert (solved, strikes) == (True, 0), texts[-5:]
    assert "Solved one step" in texts


def test_simon_takes_one_magic_call_per_press() -> None:
    """Stage k needs k presses; each press is its own ``Solved one step``."""
    simon = _playing("Simon-234").state().modules[0]
    length = len(simon.beep_sequence)  # type: ignore[union-attr]
    solved, _, texts = _solve_by_magic("Simon-234")
    assert solved
    assert texts.count("Solved one step") == length * (length + 1) // 2
