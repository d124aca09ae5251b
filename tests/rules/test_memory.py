"""Memory rules: Appendix C vectors, every stage table, history handling, mistakes."""

from __future__ import annotations

import pytest

from gptnt.errors import ConfigError
from gptnt.protocol import MemoryModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._steps import Press
from gptnt.rules.modules.memory import (
    V1,
    MemoryPress,
    elements,
    mistakes,
    position_to_press,
    pressed,
    solve,
)

EDGE = Edgework(serial="AB1CD2")


def module(stage: int, display: int, labels: list[int]) -> MemoryModule:
    return MemoryModule(
        on_front=True, index=0, stage=stage, display_number=display, button_numbers=labels
    )


def test_appendix_c_stage_one_and_two() -> None:
    m1 = module(1, 3, [2, 4, 1, 3])
    assert solve(m1, EDGE, V1, strikes=0) == [Press("button-2")]
    history = [pressed(m1, Press("button-2"))]
    assert history == [MemoryPress(position=3, label=1)]
    m2 = module(2, 1, [4, 1, 3, 2])
    assert solve(m2, EDGE, V1, strikes=0, history=history) == [Press("button-0")]  # labelled 4


@pytest.mark.parametrize(
    ("stage", "display", "expected"),
    [
        (1, 1, 2), (1, 2, 2), (1, 4, 4),
        (2, 2, 3), (2, 3, 1), (2, 4, 3),  # P1 = 3
        (3, 1, 4), (3, 2, 1), (3, 3, 3), (3, 4, 3),  # L2→4, L1→1, "4"→3
        (4, 1, 3), (4, 2, 1), (4, 3, 2), (4, 4, 2),  # P1 = 3, P2 = 2
        (5, 1, 1), (5, 2, 4), (5, 3, 3), (5, 4, 2),  # L1 = 1, L2 = 2, L4 = 4, L3 = 3
    ],
)  # fmt: skip
def test_every_stage_table(stage: int, display: int, expected: int) -> None:
    labels = [1, 3, 4, 2]
    history = [MemoryPress(3, 1), MemoryPress(2, 2), MemoryPress(1, 3), MemoryPress(4, 4)]
    assert position_to_press(stage, display, labels, history[: stage - 1], V1) == expected


def test_missing_history_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="history"):
        solve(module(2, 2, [1, 2, 3, 4]), EDGE, V1, strikes=0)


def test_mistakes_and_emerging() -> None:
    m = module(1, 4, [1, 2, 3, 4])
    assert elements(m) == ["button-0", "button-1", "button-2", "button-3"]
    assert mistakes(m, EDGE, V1, strikes=0) == [
        Press("button-0"),
        Press("button-1"),
        Press("button-2"),
    ]
    hidden = MemoryModule(on_front=True, index=0, stage=3, is_emerged=False)
    assert solve(hidden, EDGE, V1, strikes=0) == [] and mistakes(hidden, EDGE, V1, strikes=0) == []
