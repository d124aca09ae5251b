"""The oracle: from a described module and the edgework, what the manual says to do.

One entry point per question, dispatched by the module's ``name`` (its kind) through the
module-kind registry to the kind's rule file ``gptnt.rules.modules.<stem>``, a ``RuleFile``:
every file answers the same typed calls, and picks its own tables from the given ``Ruleset``.
The scripted Expert, the simulator's ``magic`` action and the self-check all ask through here.

Memory's later stages depend on earlier presses, which its described state does not show: its
rule file takes a ``history`` (one entry per completed stage). Callers keep that history with
``record`` after each step they carry out and pass it back to ``solve``/``mistakes``; for every
other module the history stays empty and is ignored.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from gptnt.errors import ConfigError
from gptnt.protocol import KINDS_BY_NAME, ModuleState
from gptnt.rules._edgework import Edgework
from gptnt.rules._file import RuleFile
from gptnt.rules._steps import Step

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset


def rule_file(kind: str) -> RuleFile:
    """The rule file of a module kind (``Wires``, ``BigButton``, …)."""
    spec = KINDS_BY_NAME.get(kind)
    if spec is None:
        raise ConfigError(
            f"module name {kind!r} has no rules; use one of {', '.join(KINDS_BY_NAME)}"
        )
    return cast(RuleFile, importlib.import_module(f"gptnt.rules.modules.{spec.stem}"))


def elements(module: ModuleState) -> list[str]:
    """The module's interactable element ids when zoomed in, in segmentation-mask order."""
    return rule_file(module.name).elements(module)


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
    rules = rule_file(module.name)
    return rules.solve(module, edgework, rules.tables(ruleset), strikes=strikes, history=history)


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
    rules = rule_file(module.name)
    return rules.mistakes(module, edgework, rules.tables(ruleset), strikes=strikes, history=history)


def record(module: ModuleState, step: Step, history: Sequence[object]) -> list[object]:
    """The history after ``step`` was carried out on ``module`` (its state just before the step).

    Only rule files whose ``pressed`` makes an entry keep one (Memory); entries of stages that a
    strike undid (the module is back at an earlier ``stage``) are dropped first.
    """
    if step.kind != "press":
        return list(history)
    entry = rule_file(module.name).pressed(module, step)
    if entry is None:
        return list(history)
    stage = getattr(module, "stage", len(history) + 1)
    return [*history[: max(0, stage - 1)], entry]
