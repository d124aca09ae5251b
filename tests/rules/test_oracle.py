"""The oracle dispatches a described module to its rule file, with that kind's tables."""

from __future__ import annotations

import pytest

from gptnt.errors import ConfigError
from gptnt.protocol import MemoryModule, Wire, WiresModule
from gptnt.rules import V1, Edgework, Press, oracle
from gptnt.rules.modules import wires as wires_rules

EDGEWORK = Edgework(serial="AB1CD2")


def _wires(*colors: str, solved: bool = False) -> WiresModule:
    return WiresModule(
        on_front=True,
        index=0,
        is_solved=solved,
        wires=[Wire(position=i, color=c) for i, c in enumerate(colors)],  # type: ignore[arg-type]
    )


def test_solve_dispatches_to_the_rule_file() -> None:
    module = _wires("red", "blue", "blue")  # 3 wires, no red rule hit… → the file decides
    expected = wires_rules.solve(module, EDGEWORK, V1.wires, strikes=0)
    assert oracle.solve(module, EDGEWORK, V1, 0) == expected
    assert expected and all(isinstance(step, Press) for step in expected)
    assert oracle.elements(module) == ["wire-0", "wire-1", "wire-2"]


def test_three_wires_without_red_cut_the_second() -> None:
    # Appendix-C style vector: v1, 3 wires, no red → cut the second wire.
    assert oracle.solve(_wires("blue", "white", "yellow"), EDGEWORK, V1, 0) == [Press("wire-1")]


def test_mistakes_are_the_other_wires() -> None:
    module = _wires("blue", "white", "yellow")
    assert set(oracle.mistakes(module, EDGEWORK, V1, 0)) == {Press("wire-0"), Press("wire-2")}


def test_solved_modules_need_nothing() -> None:
    module = _wires("blue", "white", "yellow", solved=True)
    assert oracle.solve(module, EDGEWORK, V1, 0) == []
    assert oracle.mistakes(module, EDGEWORK, V1, 0) == []


def test_unknown_kind_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="Piano"):
        oracle.rule_file("Piano")


def test_memory_history_is_recorded_per_stage() -> None:
    stage1 = MemoryModule(
        on_front=True, index=0, display_number=1, button_numbers=[3, 1, 4, 2], stage=1
    )
    steps = oracle.solve(stage1, EDGEWORK, V1, 0)
    assert steps == [Press("button-1")]  # v1 stage 1, display 1 → position 2
    history = oracle.record(stage1, steps[0], [])
    assert len(history) == 1
    stage2 = MemoryModule(
        on_front=True, index=0, display_number=2, button_numbers=[2, 4, 1, 3], stage=2
    )
    # v1 stage 2, display 2 → the position pressed in stage 1 (position 2).
    assert oracle.solve(stage2, EDGEWORK, V1, 0, history=history) == [Press("button-1")]
    # A strike sends Memory back to stage 1: the stale entry is dropped when recording again.
    again = oracle.record(stage1, Press("button-1"), [*history, object()])
    assert len(again) == 1
    # Modules without history ignore it.
    wires = _wires("blue", "white", "yellow")
    assert oracle.record(wires, Press("wire-1"), []) == []


def test_package_exports() -> None:
    from gptnt import rules

    for name in rules.__all__:
        assert getattr(rules, name) is not None
    with pytest.raises(AttributeError):
        rules.nothing_here  # noqa: B018
