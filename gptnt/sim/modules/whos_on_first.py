"""Who's on First engine: three stages of a display word and six word buttons.

Every press that is not ignored draws a new display and new buttons, which retract and emerge
again for ``emerge_time`` seconds (input ignored, display and buttons exported as ``None``). A
correct press advances the stage (the third solves the module); a wrong one is a strike and keeps
the stage (ktane-rules §5.5, §8.3: both simulators do so; unconfirmed).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gptnt.errors import SimulatorError
from gptnt.protocol._state import WhosOnFirstModule
from gptnt.rules.modules.whos_on_first import BUTTONS, button_to_press
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.modules._base import BombContext, ModuleEngine, Slot


@dataclass(frozen=True)
class WhosOnFirstGeneration:
    """Display uniform over the display words, one word group uniformly, 6 distinct words of it
    in random order [SIM/GUESS]. ``emerge_time``: the buttons' retract-and-emerge animation
    (≈ 2.9 s in KtaneDefuser's simulator; unconfirmed)."""

    stages: int = 3
    buttons: int = 6
    emerge_time: float = 2.9


GENERATION = WhosOnFirstGeneration()


class WhosOnFirstEngine(ModuleEngine):
    kind = "WhosOnFirst"

    def __init__(
        self,
        *,
        rules: Ruleset,
        bomb: BombContext,
        slot: Slot,
        rng: random.Random,
        generation: WhosOnFirstGeneration = GENERATION,
    ) -> None:
        super().__init__(rules=rules, bomb=bomb, slot=slot)
        self._rng = rng  # draws every stage's words
        self._g = generation
        self.stage = 1
        self.emerged_at = float("-inf")  # game time the current buttons finish emerging
        self.display = ""
        self.buttons: tuple[str, ...] = ()
        self._draw()

    @classmethod
    def generate(
        cls,
        rng: random.Random,
        *,
        rules: Ruleset,
        bomb: BombContext,
        slot: Slot,
        generation: WhosOnFirstGeneration = GENERATION,
    ) -> WhosOnFirstEngine:
        child = random.Random(rng.getrandbits(64))
        return cls(rules=rules, bomb=bomb, slot=slot, rng=child, generation=generation)

    @property
    def stages(self) -> int:
        return self._g.stages

    def _draw(self) -> None:
        rules = self.rules.whos_on_first
        self.display = self._rng.choice(rules.display_words)
        group = self._rng.choice(rules.button_groups)
        self.buttons = tuple(self._rng.sample(group, self._g.buttons))

    def elements(self) -> list[str]:
        return list(BUTTONS)

    def emerging(self, t: float) -> bool:
        return t < self.emerged_at

    def press(self, element: str, t: float) -> None:
        if element not in BUTTONS:
            raise SimulatorError(f"element={element!r}: Who's on First has {list(BUTTONS)}")
        if self.solved or self.emerging(t):
            return
        right = button_to_press(self.display, self.buttons, self.rules.whos_on_first)
        if BUTTONS.index(element) == right:
            if self.stage == self.stages:
                self.solved = True
                return
            self.stage += 1
        else:
            self._strike(t)
        self._draw()
        self.emerged_at = t + self._g.emerge_time

    def stages_done(self) -> int:
        """Lit stage lights: completed stages."""
        return self.stages if self.solved else self.stage - 1

    def export(self, t: float, *, in_focus: bool) -> WhosOnFirstModule:
        emerged = not self.emerging(t)
        return WhosOnFirstModule(
            display_word=self.display if emerged else None,
            button_words=list(self.buttons) if emerged else None,
            stage=self.stage,
            is_emerged=emerged,
            **self._common(in_focus),  # type: ignore[arg-type]
        )


ENGINE = WhosOnFirstEngine
