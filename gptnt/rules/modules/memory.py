"""Memory: five stages; per stage and display digit, press a position, a label, or repeat one.

``MemoryRules.stages[s][d - 1]`` is what stage ``s + 1`` asks for when the display shows ``d``:
a fixed position (``AtPosition``), a fixed label (``WithLabel``), or the position or label
pressed at an earlier stage (``PositionOfStage``, ``LabelOfStage``). Positions (1–4, left to
right) and labels are the manual's terms.

The described state carries no history, so stages 2–5 need the caller's record of earlier
presses: ``solve(..., history=...)`` takes one ``MemoryPress`` per completed stage, and
``pressed`` turns a step into that record. A strike resets the module to stage 1 (and the
history with it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gptnt.errors import ConfigError
from gptnt.protocol import MemoryModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._steps import Press, Step

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset

BUTTONS: tuple[str, ...] = tuple(f"button-{i}" for i in range(4))  # left → right


@dataclass(frozen=True)
class AtPosition:
    position: int  # 1–4


@dataclass(frozen=True)
class WithLabel:
    label: int


@dataclass(frozen=True)
class PositionOfStage:
    stage: int  # 1-based earlier stage


@dataclass(frozen=True)
class LabelOfStage:
    stage: int


Choice = AtPosition | WithLabel | PositionOfStage | LabelOfStage


@dataclass(frozen=True)
class MemoryPress:
    """What was pressed at one stage: position 1–4 and the label it showed."""

    position: int
    label: int


@dataclass(frozen=True)
class MemoryRules:
    stages: tuple[tuple[Choice, ...], ...]  # [stage - 1][display - 1]


V1 = MemoryRules(
    stages=(
        (AtPosition(2), AtPosition(2), AtPosition(3), AtPosition(4)),
        (WithLabel(4), PositionOfStage(1), AtPosition(1), PositionOfStage(1)),
        (LabelOfStage(2), LabelOfStage(1), AtPosition(3), WithLabel(4)),
        (PositionOfStage(1), AtPosition(1), PositionOfStage(2), PositionOfStage(2)),
        (LabelOfStage(1), LabelOfStage(2), LabelOfStage(4), LabelOfStage(3)),
    )
)


def position_to_press(
    stage: int,
    display: int,
    labels: Sequence[int],
    history: Sequence[MemoryPress],
    rules: MemoryRules,
) -> int:
    """The position (1–4) to press at ``stage`` (1-based)."""
    choice = rules.stages[stage - 1][display - 1]
    match choice:
        case AtPosition(p):
            return p
        case WithLabel(label):
            return list(labels).index(label) + 1
        case PositionOfStage(s):
            return _earlier(history, s, stage).position
        case LabelOfStage(s):
            return list(labels).index(_earlier(history, s, stage).label) + 1
    raise AssertionError(f"unknown memory choice {choice!r}")


def _earlier(history: Sequence[MemoryPress], s: int, stage: int) -> MemoryPress:
    if len(history) < s:
        raise ConfigError(
            f"history: stage {stage} needs the press of stage {s}; pass one MemoryPress per "
            "completed stage"
        )
    return history[s - 1]


# ---------------------------------------------------------------- oracle interface


def elements(module: MemoryModule) -> list[str]:
    return list(BUTTONS)


def solve(
    module: MemoryModule,
    edgework: Edgework,
    rules: MemoryRules,
    *,
    strikes: int,
    history: Sequence[MemoryPress] = (),
) -> list[Step]:
    """The one press of the current stage. Empty while solved or while the buttons emerge."""
    if module.is_solved or module.display_number is None or module.button_numbers is None:
        return []
    position = position_to_press(
        module.stage, module.display_number, module.button_numbers, history, rules
    )
    return [Press(BUTTONS[position - 1])]


def pressed(module: MemoryModule, step: Press) -> MemoryPress:
    """The history entry a press makes in this (emerged) state."""
    index = BUTTONS.index(step.element)
    if module.button_numbers is None:
        raise ConfigError("button_numbers: the buttons are not emerged; wait for is_emerged")
    return MemoryPress(position=index + 1, label=module.button_numbers[index])


def mistakes(
    module: MemoryModule,
    edgework: Edgework,
    rules: MemoryRules,
    *,
    strikes: int,
    history: Sequence[MemoryPress] = (),
) -> list[Step]:
    """Every other button: each is one strike (and the module goes back to stage 1)."""
    right = solve(module, edgework, rules, strikes=strikes, history=history)
    if not right:
        return []
    return [Press(b) for b in BUTTONS if Press(b) != right[0]]


def tables(ruleset: Ruleset) -> MemoryRules:
    return ruleset.memory
