"""The Wire Sequence engine: four panels of three plugs, shown one at a time, with up/down buttons.

Mechanics (docs/mechanics-audit.md, Wire Sequence):

- cutting a wire the table (``rules.wire_sequence``) says to keep is a strike; the wire stays cut;
- *down* with a required cut still undone on the panel is a strike and the panel stays;
  otherwise the next panel slides in (``page_change`` seconds; input is ignored and
  ``is_emerged`` is false meanwhile);
- *down* on the last panel with its cuts done solves the module; the panel then reads 5, one past
  the last, as the mod can report;
- *up* goes back a panel (never a strike, nothing on panel 1).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import ClassVar

from gptnt.protocol import ModuleKind, SequenceColor, SequenceWire, WireSequenceModule
from gptnt.rules.modules.wire_sequence import PANELS, SLOTS_PER_PANEL, panel_of, required
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.modules._base import BombContext, ModuleEngine, Slot

LETTERS = ("A", "B", "C")
COLORS: tuple[SequenceColor, ...] = ("red", "blue", "black")


@dataclass(frozen=True)
class WireSequenceGeneration:
    """Assumptions (ktanesim's claim of the game's algorithm, unverified):
    ``per_color`` candidate wires of each colour with a uniform letter, ``wires`` of them drawn
    and shuffled with ``empties`` empty plugs; panel 1 never starts empty; the last item is
    dropped. ``page_change``: seconds a panel change takes (≈ 1.2 s, KtaneDefuser)."""

    per_color: int = 9
    wires: int = 10
    empties: int = 3
    page_change: float = 1.2


@dataclass
class PlugWire:
    color: SequenceColor
    letter: str
    cut: bool = False


class WireSequenceEngine(ModuleEngine):
    kind: ClassVar[ModuleKind] = "WireSequence"
    generation: ClassVar[WireSequenceGeneration] = WireSequenceGeneration()

    def __init__(
        self, *, rules: Ruleset, bomb: BombContext, slot: Slot, wires: list[PlugWire | None]
    ) -> None:
        super().__init__(rules=rules, bomb=bomb, slot=slot)
        self.wires = wires
        self.panel = 1  # 1-based; PANELS + 1 once solved
        self.moving_until = float("-inf")  # game time the current panel change ends

    @classmethod
    def generate(
        cls, rng: random.Random, *, rules: Ruleset, bomb: BombContext, slot: Slot
    ) -> WireSequenceEngine:
        g = cls.generation
        candidates = [PlugWire(c, rng.choice(LETTERS)) for c in COLORS for _ in range(g.per_color)]
        items: list[PlugWire | None] = [*rng.sample(candidates, g.wires), *[None] * g.empties]
        rng.shuffle(items)
        if all(w is None for w in items[:SLOTS_PER_PANEL]):
            items[rng.randrange(SLOTS_PER_PANEL)] = items[SLOTS_PER_PANEL]
            items[SLOTS_PER_PANEL] = None
        return cls(rules=rules, bomb=bomb, slot=slot, wires=items[: PANELS * SLOTS_PER_PANEL])

    # ---- derived

    def _protocol_wires(self) -> list[SequenceWire | None]:
        return [
            None
            if w is None
            else SequenceWire(
                start_position_number=i, end_position_letter=w.letter, color=w.color, is_cut=w.cut
            )
            for i, w in enumerate(self.wires)
        ]

    def panel_wires(self) -> list[tuple[int, PlugWire]]:
        """The current panel's wires with their global slots (0–11)."""
        return [
            (i, w) for i, w in enumerate(self.wires) if w is not None and panel_of(i) == self.panel
        ]

    def emerging(self, t: float) -> bool:
        return t < self.moving_until

    def export_until(self, t: float) -> float:
        return self.moving_until if self.emerging(t) else math.inf  # the panel has emerged

    # ---- input

    def elements(self) -> list[str]:
        return [f"wire-{i}" for i, _ in self.panel_wires()] + ["down", "up"]

    def press(self, element: str, t: float) -> None:
        if self.solved or self.emerging(t) or element not in self.elements():
            return
        if element == "up":
            if self.panel > 1:
                self._turn(-1, t)
            return
        verdict = required(self._protocol_wires(), self.rules.wire_sequence)
        if element == "down":
            if any(verdict[i] and not w.cut for i, w in self.panel_wires()):
                self._strike(t)
                return
            self._turn(+1, t)
            if self.panel > PANELS:
                self.solved = True
            return
        slot = int(element.removeprefix("wire-"))
        wire = self.wires[slot]
        if wire is None or wire.cut:
            return
        wire.cut = True
        if not verdict[slot]:
            self._strike(t)

    def _turn(self, step: int, t: float) -> None:
        self.panel += step
        self.moving_until = t + self.generation.page_change

    def export(self, t: float, *, in_focus: bool) -> WireSequenceModule:
        return WireSequenceModule(
            **self._common(in_focus),
            panel=self.panel,
            wires=self._protocol_wires(),
            is_emerged=not self.emerging(t),
        )


ENGINE = WireSequenceEngine
