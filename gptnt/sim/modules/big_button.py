"""The Button engine: a coloured, labelled button; tapped, or held and released at a moment.

A release less than ``strip_delay`` seconds after the press is a tap (a timed tap is judged by
the timer at its release); a longer one is a hold, judged by the strip's ``Timing`` against the
bomb's timer at the moment of release. The strip beside the button
lights in its colour once the button has been held ``strip_delay`` seconds (what the picture
shows); the exported ``strip_color`` is the game field behind it, present whenever the button is
held (docs/protocol.md §7.3).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gptnt.errors import SimulatorError
from gptnt.protocol import BigButtonModule
from gptnt.rules.modules.big_button import action, release_ok, tap_ok
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.modules._base import BombContext, ModuleEngine, Slot


@dataclass(frozen=True)
class ButtonGeneration:
    """How a Button is drawn and timed (all assumptions; docs/mechanics-audit.md).

    Colour, label and strip colour are uniform and independent [SIM/GUESS] (the game's enums
    have no black button). Whether the strip is fixed per bomb or re-rolled on each hold is
    unconfirmed: ``reroll_strip`` picks. ``strip_delay``: seconds of holding before the strip
    lights, which is also the tap/hold threshold (KtaneDefuser uses 0.5 s).
    """

    colors: tuple[str, ...] = ("red", "blue", "yellow", "white")
    words: tuple[str, ...] = ("Press", "Hold", "Abort", "Detonate")
    strips: tuple[str, ...] = ("red", "blue", "yellow", "white")
    reroll_strip: bool = False
    strip_delay: float = 0.5


GENERATION = ButtonGeneration()


class ButtonEngine(ModuleEngine):
    kind = "BigButton"

    def __init__(
        self,
        *,
        rules: Ruleset,
        bomb: BombContext,
        slot: Slot,
        color: str,
        word: str,
        strip: str,
        rng: random.Random,
        generation: ButtonGeneration = GENERATION,
    ) -> None:
        super().__init__(rules=rules, bomb=bomb, slot=slot)
        self.color = color
        self.word = word
        self.strip = strip
        self.held_since: float | None = None  # game time of the press while held
        self._rng = rng  # only for re-rolling the strip
        self._generation = generation

    @classmethod
    def generate(
        cls,
        rng: random.Random,
        *,
        rules: Ruleset,
        bomb: BombContext,
        slot: Slot,
        generation: ButtonGeneration = GENERATION,
    ) -> ButtonEngine:
        g = generation
        return cls(
            rules=rules,
            bomb=bomb,
            slot=slot,
            color=rng.choice(g.colors),
            word=rng.choice(g.words),
            strip=rng.choice(g.strips),
            rng=random.Random(rng.getrandbits(64)),
            generation=g,
        )

    def elements(self) -> list[str]:
        return ["button"]

    def _check(self, element: str) -> None:
        if element != "button":
            raise SimulatorError(f"element={element!r}: The Button has ['button']")

    def press(self, element: str, t: float) -> None:
        self._check(element)
        if self.solved or self.held_since is not None:
            return
        if self._generation.reroll_strip:
            self.strip = self._rng.choice(self._generation.strips)
        self.held_since = t

    def release(self, element: str, t: float) -> None:
        self._check(element)
        if self.held_since is None:
            return
        tapped = t - self.held_since < self._generation.strip_delay
        self.held_since = None
        needed = action(self.color, self.word, self.bomb.edgework, self.rules.big_button)
        remaining = self.bomb.seconds_remaining()
        if tapped:
            ok = tap_ok(remaining, needed)
        else:
            ok = needed == "hold" and release_ok(remaining, self.strip, self.rules.big_button)
        if ok:
            self.solved = True
        else:
            self._strike(t)

    def strip_lit(self, t: float) -> str | None:
        """The strip's colour if it is lit at ``t`` (held at least ``strip_delay``), else None."""
        if self.held_since is None or t - self.held_since < self._generation.strip_delay:
            return None
        return self.strip

    def export(self, t: float, *, in_focus: bool) -> BigButtonModule:
        held = self.held_since is not None
        return BigButtonModule(
            button_color=self.color,
            button_word=self.word,
            is_held=held,
            strip_color=self.strip if held else None,
            **self._common(in_focus),
        )


ENGINE = ButtonEngine
