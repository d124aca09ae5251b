"""Wires engine: 3–6 coloured wires in six slots; cut the one the rules name.

A wrongly cut wire is a strike and stays cut; the module stays unsolved, so the right wire can
still be cut later. Re-cutting a cut wire does nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gptnt.errors import SimulatorError
from gptnt.protocol import Wire, WiresModule
from gptnt.rules.modules.wires import wire_to_cut
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.modules._base import BombContext, ModuleEngine, Slot

SLOTS = 6


@dataclass(frozen=True)
class WiresGeneration:
    """How a Wires module is drawn (assumptions, so kept configurable; docs/mechanics-audit.md).

    Count ``n = min(min_wires + floor(spread · U), max_wires)``: the 2014 prototype's formula
    [P], giving P(3) = P(4) = P(5) = 1/6 and P(6) = 1/2. Slots: a uniform n-subset [SIM].
    Colours: i.i.d. uniform [P][SIM].
    """

    colors: tuple[str, ...] = ("black", "blue", "red", "white", "yellow")
    min_wires: int = 3
    max_wires: int = 6
    spread: int = 6


GENERATION = WiresGeneration()


class WiresEngine(ModuleEngine):
    kind = "Wires"

    def __init__(
        self, *, rules: Ruleset, bomb: BombContext, slot: Slot, colors: dict[int, str]
    ) -> None:
        super().__init__(rules=rules, bomb=bomb, slot=slot)
        self.colors = dict(sorted(colors.items()))  # wire slot (0–5, top→bottom) → colour
        self.cut: set[int] = set()

    @classmethod
    def generate(
        cls,
        rng: random.Random,
        *,
        rules: Ruleset,
        bomb: BombContext,
        slot: Slot,
        generation: WiresGeneration = GENERATION,
    ) -> WiresEngine:
        g = generation
        count = min(g.min_wires + int(rng.random() * g.spread), g.max_wires)
        slots = sorted(rng.sample(range(SLOTS), count))
        return cls(
            rules=rules, bomb=bomb, slot=slot, colors={s: rng.choice(g.colors) for s in slots}
        )

    def elements(self) -> list[str]:
        return [f"wire-{s}" for s in self.colors]

    def correct_slot(self) -> int:
        """The slot of the wire the rules say to cut (static: edgework and colours only)."""
        slots = list(self.colors)
        colors = list(self.colors.values())
        return slots[wire_to_cut(colors, self.bomb.edgework, self.rules.wires)]

    def press(self, element: str, t: float) -> None:
        if element not in self.elements():
            raise SimulatorError(f"element={element!r}: Wires has {self.elements()}")
        wire = int(element.removeprefix("wire-"))
        if self.solved or wire in self.cut:
            return
        self.cut.add(wire)
        if wire == self.correct_slot():
            self.solved = True
        else:
            self._strike(t)

    def _wire(self, slot: int) -> Wire | None:
        if slot not in self.colors:
            return None
        return Wire(position=slot, is_cut=slot in self.cut, color=self.colors[slot])

    def export(self, t: float, *, in_focus: bool) -> WiresModule:
        wires = [self._wire(s) for s in range(SLOTS)]
        return WiresModule(wires=wires, **self._common(in_focus))


ENGINE = WiresEngine
