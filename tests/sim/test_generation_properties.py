"""Properties of every module engine over random seeds, edgework and input (hypothesis).

- the same seed gives the same module, and the same input then gives the same states;
- every exported state, at generation and after any presses, holds, releases and waits,
  validates against the protocol's module models (``ModuleState``, the union ``BombState``
  uses) and survives a round trip through its JSON form;
- at generation, the engine's interactable elements are the ones the rules derive from the
  exported state (what the Defuser's set-of-marks and the oracle rely on).

The distributions themselves are checked in ``test_generation.py``.
"""

from __future__ import annotations

from random import Random

import pytest
from _support import FakeBomb
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from gptnt.protocol import MODULE_KINDS, ModuleState
from gptnt.rules import Edgework
from gptnt.rules.oracle import rule_file
from gptnt.rules.ruleset import V1
from gptnt.sim.edgework import generate_widgets
from gptnt.sim.modules import engine_for
from gptnt.sim.modules._base import ModuleEngine, Slot

STATE = TypeAdapter(ModuleState)


def _bomb(edgework: Edgework) -> FakeBomb:
    """A bomb whose timer stands at 01:45 (the test never moves ``now``)."""
    return FakeBomb(edgework, limit=105.0)


def _module(kind: str, seed: int, widgets: int) -> ModuleEngine:
    edgework = Edgework.from_widgets(generate_widgets(Random(seed), widgets)[0])
    slot = Slot(on_front=seed % 2 == 0, index=seed % 6)
    return engine_for(kind).generate(Random(seed), rules=V1, bomb=_bomb(edgework), slot=slot)


def _valid(engine: ModuleEngine, t: float) -> ModuleState:
    state = engine.export(t, in_focus=True)
    assert state.name == engine.kind
    assert STATE.validate_python(state.to_wire()) == state  # the protocol model accepts it
    return state


# One input: which element (index into the current elements), how long after the last input,
# how long it is held (0: a click).
INPUT = st.tuples(st.integers(0, 20), st.floats(0.0, 4.0), st.sampled_from([0.0, 0.0, 0.2, 1.5]))


@pytest.mark.parametrize("kind", MODULE_KINDS)
@given(seed=st.integers(0, 2**32), widgets=st.integers(0, 7), inputs=st.lists(INPUT, max_size=25))
@settings(max_examples=40, deadline=None)
def test_same_seed_same_module_and_valid_states(
    kind: str, seed: int, widgets: int, inputs: list[tuple[int, float, float]]
) -> None:
    first, second = _module(kind, seed, widgets), _module(kind, seed, widgets)
    state = _valid(first, 0.0)
    assert state == second.export(0.0, in_focus=True)
    rules_file = rule_file(kind)
    assert first.elements() == rules_file.elements(state)
    t = 0.0
    for pick, wait, hold in inputs:
        t += wait
        for engine in (first, second):
            engine.advance(t)
            elements = engine.elements()
            element = elements[pick % len(elements)]
            engine.press(element, t)
            engine.advance(t + hold)
            engine.release(element, t + hold)
        t += hold
        assert _valid(first, t) == second.export(t, in_focus=True)
        assert first.bomb.strike_count == second.bomb.strike_count  # type: ignore[attr-defined]
