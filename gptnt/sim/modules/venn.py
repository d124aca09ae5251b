"""The Complicated Wires engine: up to six vertical wires, each with an LED above and a star panel
below. Cutting a wire the Venn diagram (``rules.venn``) says to keep is a strike; the module is
solved when every wire to cut is cut.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar, get_args

from gptnt.protocol import ModuleKind, VennColor, VennModule, VennWire
from gptnt.rules.modules.venn import features
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.modules._base import BombContext, ModuleEngine, Slot

COLORS: tuple[VennColor, ...] = get_args(VennColor)
SLOTS = 6
OBJECTS_PER_HOLDER = (
    2  # graphic objects per wire holder in the mod's mask (12 for 6 slots, real mask)
)


@dataclass(frozen=True)
class VennGeneration:
    """Assumptions (all from ktanesim, unconfirmed; docs/mechanics-audit.md): wire count
    ``min(randint(4, 9), 6)``, random slots, colour uniform over the six, LED and star each with
    probability ½; if no wire is to be cut, one random wire is redrawn among the combinations that
    are cut on this bomb (the game must leave at least one wire to cut)."""

    count_low: int = 4
    count_high: int = 9
    led_p: float = 0.5
    star_p: float = 0.5


@dataclass
class ComplicatedWire:
    color: VennColor
    led: bool
    star: bool
    cut: bool = False


class VennEngine(ModuleEngine):
    kind: ClassVar[ModuleKind] = "Venn"
    generation: ClassVar[VennGeneration] = VennGeneration()

    def __init__(
        self, *, rules: Ruleset, bomb: BombContext, slot: Slot, wires: list[ComplicatedWire | None]
    ) -> None:
        super().__init__(rules=rules, bomb=bomb, slot=slot)
        self.wires = wires

    @classmethod
    def generate(
        cls, rng: random.Random, *, rules: Ruleset, bomb: BombContext, slot: Slot
    ) -> VennEngine:
        g = cls.generation
        count = min(rng.randint(g.count_low, g.count_high), SLOTS)
        wires: list[ComplicatedWire | None] = [None] * SLOTS
        for i in sorted(rng.sample(range(SLOTS), count)):
            wires[i] = ComplicatedWire(
                rng.choice(COLORS), rng.random() < g.led_p, rng.random() < g.star_p
            )
        engine = cls(rules=rules, bomb=bomb, slot=slot, wires=wires)
        if not engine._to_cut():
            cut_kinds = [
                (color, led, star)
                for color in COLORS
                for led in (False, True)
                for star in (False, True)
                if rules.venn.should_cut(features(color, star, led), bomb.edgework)
            ]
            present = [i for i, w in enumerate(wires) if w is not None]
            color, led, star = rng.choice(cut_kinds)
            wires[rng.choice(present)] = ComplicatedWire(color, led, star)
        return engine

    def _should_cut(self, wire: ComplicatedWire) -> bool:
        return self.rules.venn.should_cut(
            features(wire.color, wire.star, wire.led), self.bomb.edgework
        )

    def _to_cut(self) -> list[int]:
        return [i for i, w in enumerate(self.wires) if w is not None and self._should_cut(w)]

    def elements(self) -> list[str]:
        return [f"wire-{i}" for i, w in enumerate(self.wires) if w is not None]

    def mask_objects(self) -> tuple[int, tuple[int, ...]] | None:
        """The mod colours the graphic children of the six wire holders, not the wire
        selectables: 12 objects for 6 slots on the real mask, of which only the present wires'
        draw anything (docs/mechanics-audit.md). Which child draws is not known; we take each
        holder's second, as on the real mask's three leftmost wires."""
        present = [i for i, w in enumerate(self.wires) if w is not None]
        return OBJECTS_PER_HOLDER * SLOTS, tuple(OBJECTS_PER_HOLDER * i + 1 for i in present)

    def press(self, element: str, t: float) -> None:
        if self.solved or element not in self.elements():
            return
        wire = self.wires[int(element.removeprefix("wire-"))]
        assert wire is not None
        if wire.cut:
            return
        wire.cut = True
        if not self._should_cut(wire):
            self._strike(t)
        elif all(w.cut for w in self.wires if w is not None and self._should_cut(w)):
            self.solved = True

    def export(self, t: float, *, in_focus: bool) -> VennModule:
        return VennModule(
            **self._common(in_focus),
            wires=[
                None
                if w is None
                else VennWire(
                    position=i, is_cut=w.cut, color=w.color, is_led_on=w.led, has_star=w.star
                )
                for i, w in enumerate(self.wires)
            ],
        )


ENGINE = VennEngine
