"""The oracle: from a described module and the edgework, what the manual says to do.

One entry point per question, dispatched by the module's ``name`` (its kind) to the rule file
``gptnt.rules.modules.<stem>``, with that file's tables taken from the given ``Ruleset`` (the
Ruleset's field for a kind is named like the file). The scripted Expert, the simulator's
``magic`` action and the self-check all ask through here.

Memory's later stages depend on earlier presses, which its described state does not show: its
rule file takes a ``history`` (one entry per completed stage). Callers keep that history with
``record`` after each step they carry out and pass it back to ``solve``/``mistakes``; for every
other module the history stays empty and is ignored.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from gptnt.errors import ConfigError
from gptnt.protocol._state import ModuleState
from gptnt.rules._edgework import Edgework
from gptnt.rules._steps import Step

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset

# Protocol module kind → rule file stem, which is also the Ruleset field of that kind's tables.
STEMS: dict[str, str] = {
    "Wires": "wires",
    "BigButton": "big_button",
    "Keypad": "keypad",
    "Simon": "simon",
    "WhosOnFirst": "whos_on_first",
    "Memory": "memory",
    "Morse": "morse",
    "Venn": "venn",
    "WireSequence": "wire_sequence",
    "Maze": "maze",
    "Password": "password",
}


def _rule_file(kind: str) -> tuple[ModuleType, str]:
    stem = STEMS.get(kind)
    if stem is None:
        raise ConfigError(f"module name {kind!r} has no rules; use one of {', '.join(STEMS)}")
    return importlib.import_module(f"gptnt.rules.modules.{stem}"), stem


def elements(module: ModuleState) -> list[str]:
    """The module's interactable element ids when zoomed in, in segmentation-mask order."""
    rule_file, _ = _rule_file(module.name)
    return rule_file.elements(module)


def solve(
    module: ModuleState,
    edgework: Edgework,
    ruleset: Ruleset,
    strikes: int,
    *,
    history: Sequence[object] = (),
) -> list[Step]:
    """The steps that finish the module's current stage (the whole module if it has none).

    Empty when the module is solved. Ask again after each stage with the new state.
    """
    if module.is_solved:
        return []
    rule_file, stem = _rule_file(module.name)
    return rule_file.solve(
        module,
        edgework,
        getattr(ruleset, stem),
        strikes=strikes,
        **_extra(rule_file.solve, history),
    )


def mistakes(
    module: ModuleState,
    edgework: Edgework,
    ruleset: Ruleset,
    strikes: int,
    *,
    history: Sequence[object] = (),
) -> list[Step]:
    """Steps that, by the rules, each cost exactly one strike right now (may be empty)."""
    if module.is_solved:
        return []
    rule_file, stem = _rule_file(module.name)
    return rule_file.mistakes(
        module,
        edgework,
        getattr(ruleset, stem),
        strikes=strikes,
        **_extra(rule_file.mistakes, history),
    )


def record(module: ModuleState, step: Step, history: Sequence[object]) -> list[object]:
    """The history after ``step`` was carried out on ``module`` (its state just before the step).

    Only rule files with a ``pressed`` function keep one; entries of stages that a strike undid
    (the module is back at an earlier ``stage``) are dropped first.
    """
    rule_file, _ = _rule_file(module.name)
    pressed = getattr(rule_file, "pressed", None)
    if pressed is None or step.kind != "press":
        return list(history)
    stage = getattr(module, "stage", len(history) + 1)
    return [*history[: max(0, stage - 1)], pressed(module, step)]


def _extra(function: object, history: Sequence[object]) -> dict[str, object]:
    """``history=`` for rule functions that take one."""
    if "history" in inspect.signature(function).parameters:  # type: ignore[arg-type]
        return {"history": history}
    return {}
