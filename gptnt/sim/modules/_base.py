"""What every module engine of the simulator is: generation, input, time, state export.

Times are **game time** in seconds since the bomb's clock started (never wall time): the
simulator's clock drives every animation, so sync runs can advance time instantly.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar, Protocol

from gptnt.protocol import ModuleKind, ModuleState
from gptnt.rules import Edgework
from gptnt.rules.ruleset import Ruleset


class BombContext(Protocol):
    """What a module may know about the bomb it sits on."""

    @property
    def edgework(self) -> Edgework: ...

    @property
    def strike_count(self) -> int: ...

    def timer_text(self) -> str:
        """The timer display right now: ``MM:SS``, or ``SS.hh`` under a minute."""
        ...

    def seconds_remaining(self) -> float:
        """Game seconds left on the bomb clock right now."""
        ...

    def strike(self, module: ModuleKind) -> None:
        """Record a strike caused by ``module`` (the bomb speeds up, may explode)."""
        ...


@dataclass(frozen=True)
class Slot:
    """Where a module sits: face and anchor index (0–5, row-major, 3 per row)."""

    on_front: bool
    index: int


class ModuleEngine(ABC):
    """One module on the bomb. Subclasses live one per file beside this one."""

    kind: ClassVar[ModuleKind]

    def __init__(self, *, rules: Ruleset, bomb: BombContext, slot: Slot) -> None:
        self.rules = rules
        self.bomb = bomb
        self.slot = slot
        self.solved = False
        self.last_strike_time: float | None = None  # game time of this module's last strike

    @classmethod
    @abstractmethod
    def generate(
        cls, rng: random.Random, *, rules: Ruleset, bomb: BombContext, slot: Slot
    ) -> ModuleEngine:
        """A new module drawn from the generation distributions, using only ``rng``."""

    @abstractmethod
    def elements(self) -> list[str]:
        """Interactable element ids when zoomed in, in mask order (= rules ``elements``)."""

    def mask_objects(self) -> tuple[int, tuple[int, ...]] | None:
        """The mod's segmentation objects when zoomed in, if they are not one per element: how
        many objects the mask colours and which object each element is drawn as."""
        return None

    @abstractmethod
    def press(self, element: str, t: float) -> None:
        """The Defuser pressed ``element`` at game time ``t`` (a click = press then release)."""

    def release(self, element: str, t: float) -> None:
        """The Defuser let go of ``element``. Most modules ignore it."""
        return None

    def advance(self, t: float) -> None:
        """Game time moved on to ``t``: run time-driven behaviour (stage timers, animations)."""
        return None

    def emerging(self, t: float) -> bool:
        """True while a stage animation runs (input ignored; ``/timestep`` waits for it)."""
        return False

    @abstractmethod
    def export(self, t: float, *, in_focus: bool) -> ModuleState:
        """The module's ``/state`` entry at game time ``t``."""

    def export_until(self, t: float) -> float:
        """The game time up to which (exclusive) ``export`` stays what it is at ``t`` while no
        input arrives. An engine whose export reads ``t`` says when it next changes by itself;
        the others never do. (``Game`` keeps an export that long, so an export reads nothing
        but the engine's own state, ``t`` and the focus.)"""
        return math.inf

    # ---- helpers for subclasses

    def _strike(self, t: float) -> None:
        self.last_strike_time = t
        self.bomb.strike(self.kind)

    def _common(self, in_focus: bool) -> dict[str, object]:
        return {
            "on_front": self.slot.on_front,
            "index": self.slot.index,
            "is_solved": self.solved,
            "in_focus": in_focus,
        }
