"""Who's on First engine: three stages of a display word and six word buttons.

Every press that is not ignored draws a new display and new buttons, which retract and emerge
again for ``emerge_time`` seconds (input ignored, display and buttons exported as ``None``). A
correct press advances the stage (the third solves the module); a wrong one is a strike and keeps
the stage (both other simulators do so; unconfirmed).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gptnt.protocol import WhosOnFirstModule
from gptnt.rules.modules.whos_on_first import BUTTONS, button_to_press
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.modules._base import BombContext, Slot
from gptnt.sim.modules._stages import StagedEngine


@dataclass(frozen=True)
class WhosOnFirstGeneration:
    """Display uniform over the display words, one word group uniformly, 6 distinct words of it
    in random order [SIM/GUESS]. ``emerge_time``: the buttons' retract-and-emerge animation
    (≈ 2.9 s in KtaneDefuser's simulator; unconfirmed)."""

    stages: int = 3
    buttons: int = 6
    emerge_time: float = 2.9


GENERATION = WhosOnFirstGeneration()


class WhosOnFirstEngine(StagedEngine):
    kind = "WhosOnFirst"
    button_ids = BUTTONS
    title = "Who's on First"

    def __init__(
        self,
        *,
        rules: Ruleset,
        bomb: BombContext,
        slot: Slot,
        rng: random.Random,
        generation: WhosOnFirstGeneration = GENERATION,
    ) -> None:
        super().__init__(
            rules=rules, bomb=bomb, slot=slot, rng=rng, emerge_time=generation.emerge_time
        )
        self._g = generation
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

    def _is_right(self, index: int) -> bool:
        return index == button_to_press(self.display, self.buttons, self.rules.whos_on_first)

    def export(self, t: float, *, in_focus: bool) -> WhosOnFirstModule:
        emerged = not self.emerging(t)
        return WhosOnFirstModule(
            display_word=self.display if emerged else None,
            button_words=list(self.buttons) if emerged else None,
            stage=self.stage,
            is_emerged=emerged,
            **self._common(in_focus),
        )


ENGINE = WhosOnFirstEngine
