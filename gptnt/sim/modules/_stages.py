"""Modules played in stages on a row of buttons that retract and emerge again: Memory and
Who's on First.

Both run the same flow. A press that is not ignored either passes the stage (passing the last
stage solves the module) or is a strike; either way a new display and new button labels are
drawn and the buttons emerge for ``emerge_time`` seconds of game time, during which input is
ignored and the export shows no display or labels. What differs is said by each module: which
button is right, what is drawn, and what a pass or a strike does besides.
"""

from __future__ import annotations

import math
import random
from abc import abstractmethod
from typing import ClassVar

from gptnt.errors import SimulatorError
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.modules._base import BombContext, ModuleEngine, Slot


class StagedEngine(ModuleEngine):
    """A module of stages on the buttons ``button_ids``; subclasses draw and judge."""

    button_ids: ClassVar[tuple[str, ...]]  # the buttons' element ids, in mask order
    title: ClassVar[str]  # the module's name as the manual writes it (for error messages)

    def __init__(
        self,
        *,
        rules: Ruleset,
        bomb: BombContext,
        slot: Slot,
        rng: random.Random,
        emerge_time: float,
    ) -> None:
        super().__init__(rules=rules, bomb=bomb, slot=slot)
        self._rng = rng  # draws every stage's display and labels
        self._emerge_time = emerge_time
        self.stage = 1
        self.emerged_at = float("-inf")  # game time the current buttons finish emerging

    @property
    @abstractmethod
    def stages(self) -> int:
        """How many stages solve the module."""

    @abstractmethod
    def _draw(self) -> None:
        """Draw a new display and new button labels from ``self._rng``."""

    @abstractmethod
    def _is_right(self, index: int) -> bool:
        """Whether pressing button ``index`` now passes the stage."""

    def _passed(self, index: int) -> None:
        """Button ``index`` passed the stage (called before the stage moves on)."""

    def _failed(self) -> None:
        """A wrong press, called just before its strike."""

    def elements(self) -> list[str]:
        return list(self.button_ids)

    def emerging(self, t: float) -> bool:
        return t < self.emerged_at

    def export_until(self, t: float) -> float:
        return self.emerged_at if self.emerging(t) else math.inf  # the display shows again

    def press(self, element: str, t: float) -> None:
        if element not in self.button_ids:
            raise SimulatorError(f"element={element!r}: {self.title} has {list(self.button_ids)}")
        if self.solved or self.emerging(t):
            return
        index = self.button_ids.index(element)
        if self._is_right(index):
            self._passed(index)
            if self.stage == self.stages:
                self.solved = True
                return
            self.stage += 1
        else:
            self._failed()
            self._strike(t)
        self._draw()
        self.emerged_at = t + self._emerge_time

    def stages_done(self) -> int:
        """Lit stage lights: completed stages."""
        return self.stages if self.solved else self.stage - 1
