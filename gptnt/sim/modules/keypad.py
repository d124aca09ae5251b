"""Keypad engine: four symbol keys pressed in their column's order.

A correct press lights the key's LED green and keeps the key down; a press out of order is a
strike and flashes that key's LED red for ``red_flash`` seconds; progress is kept. Pressing a
key that is already down does nothing.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from gptnt.errors import SimulatorError
from gptnt.protocol import KeypadKey, KeypadModule
from gptnt.rules.modules.keypad import KEYS, press_order
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.modules._base import BombContext, ModuleEngine, Slot


@dataclass(frozen=True)
class KeypadGeneration:
    """Assumptions (docs/mechanics-audit.md, Keypad): a uniform column, 4 distinct symbols of its 7, in
    random positions [SIM/GUESS]. ``red_flash``: seconds the red LED stays lit [GUESS]."""

    symbols_per_module: int = 4
    red_flash: float = 1.0


GENERATION = KeypadGeneration()


class KeypadEngine(ModuleEngine):
    kind = "Keypad"

    def __init__(
        self,
        *,
        rules: Ruleset,
        bomb: BombContext,
        slot: Slot,
        symbols: tuple[str, ...],
        generation: KeypadGeneration = GENERATION,
    ) -> None:
        super().__init__(rules=rules, bomb=bomb, slot=slot)
        self.symbols = symbols  # by key, in KEYS order
        self.down: list[int] = []  # keys pressed correctly, in press order
        self.red_until: dict[int, float] = {}  # key → game time its red flash ends
        self._generation = generation

    @classmethod
    def generate(
        cls,
        rng: random.Random,
        *,
        rules: Ruleset,
        bomb: BombContext,
        slot: Slot,
        generation: KeypadGeneration = GENERATION,
    ) -> KeypadEngine:
        column = rng.choice(rules.keypad.columns)
        symbols = tuple(rng.sample(column, generation.symbols_per_module))
        return cls(rules=rules, bomb=bomb, slot=slot, symbols=symbols, generation=generation)

    def elements(self) -> list[str]:
        return list(KEYS)

    def press(self, element: str, t: float) -> None:
        if element not in KEYS:
            raise SimulatorError(f"element={element!r}: Keypad has {list(KEYS)}")
        key = KEYS.index(element)
        if self.solved or key in self.down:
            return
        if key == press_order(self.symbols, self.rules.keypad)[len(self.down)]:
            self.down.append(key)
            self.solved = len(self.down) == len(self.symbols)
        else:
            self.red_until[key] = t + self._generation.red_flash
            self._strike(t)

    def led(self, key: int, t: float) -> str | None:
        """The LED above ``key`` at ``t``: green once pressed right, red during a wrong flash."""
        if key in self.down:
            return "green"
        if t < self.red_until.get(key, float("-inf")):
            return "red"
        return None

    def export_until(self, t: float) -> float:
        return min((end for end in self.red_until.values() if end > t), default=math.inf)

    def export(self, t: float, *, in_focus: bool) -> KeypadModule:
        keys = [KeypadKey(symbol=s, color=self.led(i, t)) for i, s in enumerate(self.symbols)]
        return KeypadModule(
            top_left=keys[0],
            top_right=keys[1],
            bottom_left=keys[2],
            bottom_right=keys[3],
            **self._common(in_focus),
        )


ENGINE = KeypadEngine
