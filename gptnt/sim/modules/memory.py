"""Memory engine: five stages of a display digit and four numbered buttons, with a history.

Each correct press records (position, label) and draws a new display and labels, which emerge
for ``emerge_time`` seconds (input ignored, numbers exported as ``None``); the fifth solves the
module. A wrong press is a strike and resets the module to stage 1 with an empty history and
new numbers (docs/mechanics-audit.md, Memory).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gptnt.protocol import MemoryModule
from gptnt.rules.modules.memory import BUTTONS, MemoryPress, position_to_press
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.modules._base import BombContext, Slot
from gptnt.sim.modules._stages import StagedEngine


@dataclass(frozen=True)
class MemoryGeneration:
    """Display uniform in 1–4, labels a uniform permutation of 1–4, redrawn every stage and
    reset [SIM/GUESS]. ``emerge_time``: the buttons' animation (≈ 2.9 s in KtaneDefuser's
    simulator; unconfirmed). The stage count is the number of stage tables in the rules."""

    numbers: tuple[int, ...] = (1, 2, 3, 4)
    emerge_time: float = 2.9


GENERATION = MemoryGeneration()


class MemoryEngine(StagedEngine):
    kind = "Memory"
    button_ids = BUTTONS
    title = "Memory"

    def __init__(
        self,
        *,
        rules: Ruleset,
        bomb: BombContext,
        slot: Slot,
        rng: random.Random,
        generation: MemoryGeneration = GENERATION,
    ) -> None:
        super().__init__(
            rules=rules, bomb=bomb, slot=slot, rng=rng, emerge_time=generation.emerge_time
        )
        self._g = generation
        self.history: list[MemoryPress] = []
        self.display = 0
        self.labels: tuple[int, ...] = ()
        self._draw()

    @classmethod
    def generate(
        cls,
        rng: random.Random,
        *,
        rules: Ruleset,
        bomb: BombContext,
        slot: Slot,
        generation: MemoryGeneration = GENERATION,
    ) -> MemoryEngine:
        child = random.Random(rng.getrandbits(64))
        return cls(rules=rules, bomb=bomb, slot=slot, rng=child, generation=generation)

    @property
    def stages(self) -> int:
        return len(self.rules.memory.stages)

    def _draw(self) -> None:
        self.display = self._rng.choice(self._g.numbers)
        self.labels = tuple(self._rng.sample(self._g.numbers, len(self._g.numbers)))

    def _is_right(self, index: int) -> bool:
        right = position_to_press(
            self.stage, self.display, self.labels, self.history, self.rules.memory
        )
        return index + 1 == right

    def _passed(self, index: int) -> None:
        self.history.append(MemoryPress(index + 1, self.labels[index]))

    def _failed(self) -> None:
        self.stage = 1
        self.history.clear()

    def export(self, t: float, *, in_focus: bool) -> MemoryModule:
        emerged = not self.emerging(t)
        return MemoryModule(
            display_number=self.display if emerged else None,
            button_numbers=list(self.labels) if emerged else None,
            stage=self.stage,
            is_emerged=emerged,
            **self._common(in_focus),
        )


ENGINE = MemoryEngine
