"""Complicated Wires: each wire's red/blue colouring, star and LED pick an instruction in the
manual's Venn diagram; the instruction, read against the edgework, says whether to cut it.

The manual's data is the diagram as a table from (red, blue, star, LED) to an instruction. The
instructions themselves are a small vocabulary of edgework conditions evaluated in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from gptnt.protocol import VennModule, VennWire
from gptnt.rules._edgework import Edgework
from gptnt.rules._file import no_history
from gptnt.rules._steps import Press, Step

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset

Instruction = Literal["cut", "dont_cut", "serial_even", "parallel_port", "two_batteries"]
Features = tuple[bool, bool, bool, bool]  # (has red, has blue, has star, LED on)

# What each instruction means on a given bomb.
CONDITIONS: dict[Instruction, Callable[[Edgework], bool]] = {
    "cut": lambda e: True,
    "dont_cut": lambda e: False,
    "serial_even": lambda e: not e.last_digit_odd,
    "parallel_port": lambda e: e.has_port("Parallel"),
    "two_batteries": lambda e: e.batteries >= 2,
}


@dataclass(frozen=True)
class VennRules:
    """``diagram``: ((red, blue, star, led), instruction) for all 16 feature combinations."""

    diagram: tuple[tuple[Features, Instruction], ...]

    def instruction(self, features: Features) -> Instruction:
        return dict(self.diagram)[features]

    def should_cut(self, features: Features, edgework: Edgework) -> bool:
        return CONDITIONS[self.instruction(features)](edgework)


_ = False
Y = True
V1 = VennRules(
    diagram=(
        # red blue star  led
        ((_, _, _, _), "cut"),
        ((_, _, _, Y), "dont_cut"),
        ((_, _, Y, _), "cut"),
        ((_, _, Y, Y), "two_batteries"),
        ((_, Y, _, _), "serial_even"),
        ((_, Y, _, Y), "parallel_port"),
        ((_, Y, Y, _), "dont_cut"),
        ((_, Y, Y, Y), "parallel_port"),
        ((Y, _, _, _), "serial_even"),
        ((Y, _, _, Y), "two_batteries"),
        ((Y, _, Y, _), "cut"),
        ((Y, _, Y, Y), "two_batteries"),
        ((Y, Y, _, _), "serial_even"),
        ((Y, Y, _, Y), "serial_even"),
        ((Y, Y, Y, _), "parallel_port"),
        ((Y, Y, Y, Y), "dont_cut"),
    ),
)
del _, Y


def features(color: str, has_star: bool, led_on: bool) -> Features:
    """A wire's features; ``color`` as the protocol writes it (``"red, white"`` = striped)."""
    return ("red" in color, "blue" in color, has_star, led_on)


def _wire_features(wire: VennWire) -> Features:
    return features(wire.color, wire.has_star, wire.is_led_on)


def elements(module: VennModule) -> list[str]:
    return [f"wire-{w.position}" for w in module.wires if w is not None]


def solve(
    module: VennModule,
    edgework: Edgework,
    rules: VennRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """Cut every uncut wire the diagram says to cut, left to right."""
    if module.is_solved:
        return []
    return [
        Press(f"wire-{w.position}")
        for w in module.wires
        if w is not None and not w.is_cut and rules.should_cut(_wire_features(w), edgework)
    ]


def mistakes(
    module: VennModule,
    edgework: Edgework,
    rules: VennRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """Cutting any uncut wire the diagram says to leave is a strike."""
    if module.is_solved:
        return []
    return [
        Press(f"wire-{w.position}")
        for w in module.wires
        if w is not None and not w.is_cut and not rules.should_cut(_wire_features(w), edgework)
    ]


def tables(ruleset: Ruleset) -> VennRules:
    return ruleset.venn


pressed = no_history
