"""The Password engine: five spinning letter columns and a SUBMIT button.

Generation guarantees that exactly one word of ``rules.password`` can be spelled: every other
word loses one of its letters from one column where it differs from the goal, before the columns
are filled up with random letters. Submitting the goal solves; anything else strikes.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass
from typing import ClassVar

from gptnt.errors import SimulatorError
from gptnt.protocol import ModuleKind, PasswordModule
from gptnt.rules.modules.password import COLUMNS, candidates
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.modules._base import BombContext, ModuleEngine, Slot


@dataclass(frozen=True)
class PasswordGeneration:
    """Assumptions (ktanesim's algorithm; the game's is unknown): the goal is
    uniform over the list, each column holds ``letters`` letters (6, as Twitch Plays cycles),
    shuffled, with a random letter showing at the start."""

    letters: int = 6


class PasswordEngine(ModuleEngine):
    kind: ClassVar[ModuleKind] = "Password"
    generation: ClassVar[PasswordGeneration] = PasswordGeneration()

    def __init__(
        self,
        *,
        rules: Ruleset,
        bomb: BombContext,
        slot: Slot,
        goal: str,
        columns: list[str],
        shown: list[int],
    ) -> None:
        super().__init__(rules=rules, bomb=bomb, slot=slot)
        self.goal = goal
        self.columns = columns  # the letters of each column, in spinning order
        self.shown = shown  # index into each column of the letter on display

    @classmethod
    def generate(
        cls, rng: random.Random, *, rules: Ruleset, bomb: BombContext, slot: Slot
    ) -> PasswordEngine:
        words = rules.password_rules.words
        goal = rng.choice(words)
        spare = [set(string.ascii_uppercase) - {g} for g in goal]  # letters a column may still take
        keep = cls.generation.letters - 1
        for word in words:
            if word == goal or not all(c in spare[i] or c == goal[i] for i, c in enumerate(word)):
                continue  # the goal itself, or already unspellable
            # Break the word at a differing column that can lose a letter and still fill up.
            where = [i for i in range(COLUMNS) if word[i] != goal[i] and len(spare[i]) > keep]
            if not where:
                raise SimulatorError(
                    f"password generation: cannot rule out {word!r}; shorten rules.password.words"
                )
            i = rng.choice(where)
            spare[i].discard(word[i])
        columns = []
        for i in range(COLUMNS):
            letters = [goal[i], *rng.sample(sorted(spare[i]), keep)]
            rng.shuffle(letters)
            columns.append("".join(letters))
        assert candidates(columns, rules.password_rules) == [goal]
        shown = [rng.randrange(len(col)) for col in columns]
        return cls(rules=rules, bomb=bomb, slot=slot, goal=goal, columns=columns, shown=shown)

    @property
    def current_word(self) -> str:
        return "".join(col[i] for col, i in zip(self.columns, self.shown, strict=True))

    def elements(self) -> list[str]:
        return (
            [f"up-{i}" for i in range(COLUMNS)] + [f"down-{i}" for i in range(COLUMNS)] + ["submit"]
        )

    def press(self, element: str, t: float) -> None:
        if self.solved:
            return
        if element == "submit":
            if self.current_word == self.goal:
                self.solved = True
            else:
                self._strike(t)
            return
        arrow, _, column = element.partition("-")
        if arrow in ("up", "down") and column.isdigit() and int(column) < COLUMNS:
            i = int(column)
            self.shown[i] = (self.shown[i] + (1 if arrow == "down" else -1)) % len(self.columns[i])

    def export(self, t: float, *, in_focus: bool) -> PasswordModule:
        return PasswordModule(
            **self._common(in_focus), current_word=self.current_word, goal_word=self.goal
        )


ENGINE = PasswordEngine
