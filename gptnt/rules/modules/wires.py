"""Wires: one rule list per wire count; the first rule whose conditions all hold names the wire.

The manual's rules are data: each rule is a tuple of small declarative conditions (``ColorCount``,
``LastWireIs`` and the shared edgework conditions such as ``SerialOdd`` or ``PortPresent``) and
one cut (``CutNth``, ``CutFirstOf``, ``CutLastOf``, ``CutOnlyOf``). A tiny evaluator below
interprets them, so a rule seed only swaps the lists in ``WiresRules``. "The n-th wire" always
counts the wires that are present, top to bottom; empty slots are skipped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from gptnt.errors import ConfigError
from gptnt.protocol import Wire, WireColor, WiresModule
from gptnt.rules._edgework import (
    Edgework,
    EdgeworkCondition,
    EmptyPortPlate,
    PortPresent,
    SerialOdd,
    SerialStartsWithLetter,
)
from gptnt.rules._file import no_history
from gptnt.rules._steps import Press, Step

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset

# ---------------------------------------------------------------- conditions and cuts


@dataclass(frozen=True)
class ColorCount:
    """The number of wires of ``color`` is exactly ``n`` (``eq``) or more than ``n`` (``gt``)."""

    color: WireColor
    op: Literal["eq", "gt"]
    n: int


@dataclass(frozen=True)
class LastWireIs:
    """The bottom-most present wire has ``color``."""

    color: WireColor


Condition = ColorCount | LastWireIs | EdgeworkCondition


@dataclass(frozen=True)
class CutNth:
    """Cut the ``n``-th present wire, 1-based from the top; ``-1`` is the last one."""

    n: int


@dataclass(frozen=True)
class CutLastOf:
    """Cut the bottom-most wire of ``color``."""

    color: WireColor


@dataclass(frozen=True)
class CutFirstOf:
    """Cut the top-most wire of ``color``."""

    color: WireColor


@dataclass(frozen=True)
class CutOnlyOf:
    """Cut "the ``color`` wire": the rule seeds' wording when one condition says there is exactly
    one. Should several be present, the top-most one is cut [SIM/GUESS]."""

    color: WireColor


Cut = CutNth | CutFirstOf | CutLastOf | CutOnlyOf


@dataclass(frozen=True)
class WireRule:
    """One line of a rule list: if every condition in ``when`` holds (empty: always), ``cut``."""

    when: tuple[Condition, ...]
    cut: Cut


@dataclass(frozen=True)
class WiresRules:
    """The rule list for each possible number of wires, in manual order (first match wins)."""

    by_count: Mapping[int, tuple[WireRule, ...]]


def _r(*when: Condition, cut: Cut) -> WireRule:
    return WireRule(when=tuple(when), cut=cut)


V1 = WiresRules(
    by_count={
        3: (
            _r(ColorCount("red", "eq", 0), cut=CutNth(2)),
            _r(LastWireIs("white"), cut=CutNth(-1)),
            _r(ColorCount("blue", "gt", 1), cut=CutLastOf("blue")),
            _r(cut=CutNth(-1)),
        ),
        4: (
            _r(ColorCount("red", "gt", 1), SerialOdd(), cut=CutLastOf("red")),
            _r(LastWireIs("yellow"), ColorCount("red", "eq", 0), cut=CutNth(1)),
            _r(ColorCount("blue", "eq", 1), cut=CutNth(1)),
            _r(ColorCount("yellow", "gt", 1), cut=CutNth(-1)),
            _r(cut=CutNth(2)),
        ),
        5: (
            _r(LastWireIs("black"), SerialOdd(), cut=CutNth(4)),
            _r(ColorCount("red", "eq", 1), ColorCount("yellow", "gt", 1), cut=CutNth(1)),
            _r(ColorCount("black", "eq", 0), cut=CutNth(2)),
            _r(cut=CutNth(1)),
        ),
        6: (
            _r(ColorCount("yellow", "eq", 0), SerialOdd(), cut=CutNth(3)),
            _r(ColorCount("yellow", "eq", 1), ColorCount("white", "gt", 1), cut=CutNth(4)),
            _r(ColorCount("red", "eq", 0), cut=CutNth(-1)),
            _r(cut=CutNth(4)),
        ),
    }
)

# ---------------------------------------------------------------- evaluator


def _holds(condition: Condition, colors: Sequence[str], edgework: Edgework) -> bool:
    match condition:
        case ColorCount(color, "eq", n):
            return colors.count(color) == n
        case ColorCount(color, "gt", n):
            return colors.count(color) > n
        case LastWireIs(color):
            return colors[-1] == color
        case SerialOdd() | SerialStartsWithLetter() | PortPresent() | EmptyPortPlate():
            return condition.holds(edgework)
    raise AssertionError(f"unknown wires condition {condition!r}")


def _target(cut: Cut, colors: Sequence[str]) -> int:
    match cut:
        case CutNth(n):
            return n - 1 if n > 0 else len(colors) + n
        case CutLastOf(color):
            return max(i for i, c in enumerate(colors) if c == color)
        case CutFirstOf(color) | CutOnlyOf(color):
            return min(i for i, c in enumerate(colors) if c == color)
    raise AssertionError(f"unknown wires cut {cut!r}")


def wire_to_cut(colors: Sequence[str], edgework: Edgework, rules: WiresRules) -> int:
    """Index (0-based, among the present wires top to bottom) of the one wire to cut."""
    try:
        rule_list = rules.by_count[len(colors)]
    except KeyError:
        raise ConfigError(
            f"wires: {len(colors)} wires present; the manual covers {sorted(rules.by_count)}"
        ) from None
    for rule in rule_list:
        if all(_holds(c, colors, edgework) for c in rule.when):
            return _target(rule.cut, colors)
    raise ConfigError("wires: no rule matched; a rule list must end with an unconditional rule")


# ---------------------------------------------------------------- oracle interface


def elements(module: WiresModule) -> list[str]:
    """``wire-<slot>`` for every slot holding a wire, top to bottom."""
    return [f"wire-{w.position}" for w in _present(module)]


def _present(module: WiresModule) -> list[Wire]:
    return sorted((w for w in module.wires if w is not None), key=lambda w: w.position)


def solve(
    module: WiresModule,
    edgework: Edgework,
    rules: WiresRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """Cut the one wire the rules name (a wrongly cut wire stays cut and still counts)."""
    if module.is_solved:
        return []
    wires = _present(module)
    target = wires[wire_to_cut([w.color for w in wires], edgework, rules)]
    return [Press(f"wire-{target.position}")]


def mistakes(
    module: WiresModule,
    edgework: Edgework,
    rules: WiresRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """Every other uncut wire: cutting any of them is one strike."""
    if module.is_solved:
        return []
    right = solve(module, edgework, rules, strikes=strikes)
    return [
        Press(f"wire-{w.position}")
        for w in _present(module)
        if not w.is_cut and Press(f"wire-{w.position}") not in right
    ]


def tables(ruleset: Ruleset) -> WiresRules:
    return ruleset.wires


pressed = no_history
