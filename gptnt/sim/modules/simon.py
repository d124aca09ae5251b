"""Simon Says engine: a 3–5 colour sequence, one more flash per stage, entered through a mapping.

The flashes are a pure function of game time. A playback of stage k shows the first k colours,
each lit ``flash_on`` then dark ``flash_gap`` seconds, and repeats after ``replay_delay``. With
GPTNT's mod tweak (docs/protocol.md §6.3) zooming in restarts the playback after a 1 s delay (the
bomb calls ``restart_flashes``), a button press postpones the next playback by 5 s, and a strike
replays it after 1 s. A pressed button lights for ``press_light`` seconds.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from gptnt.errors import SimulatorError
from gptnt.protocol import SimonModule
from gptnt.rules.modules.simon import COLORS, mapped
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.modules._base import BombContext, ModuleEngine, Slot


@dataclass(frozen=True)
class SimonGeneration:
    """Sequence length uniform in [min_length, max_length], colours i.i.d. uniform [SIM], and
    the timings (flash lengths are guesses, chosen so the 0.25 s frame
    ring sees every flash in two frames and every gap in one; the delays are GPTNT's)."""

    min_length: int = 3
    max_length: int = 5
    flash_on: float = 0.5
    flash_gap: float = 0.25
    replay_delay: float = 1.0  # between playbacks, and after zooming in
    after_press: float = 5.0  # a press postpones the next playback this long
    after_strike: float = 1.0
    after_stage: float = 1.0  # a finished stage plays the longer sequence this soon [GUESS]
    press_light: float = 0.3


GENERATION = SimonGeneration()


class SimonEngine(ModuleEngine):
    kind = "Simon"

    def __init__(
        self,
        *,
        rules: Ruleset,
        bomb: BombContext,
        slot: Slot,
        sequence: tuple[str, ...],
        generation: SimonGeneration = GENERATION,
    ) -> None:
        super().__init__(rules=rules, bomb=bomb, slot=slot)
        self.sequence = sequence
        self.progress = 0  # completed stages (= solve_progress)
        self.entered = 0  # correct presses so far in the current stage
        self.play_from = 0.0  # game time the next playback starts
        self.last_press: tuple[str, float] | None = None  # (colour, game time)
        self._g = generation

    @classmethod
    def generate(
        cls,
        rng: random.Random,
        *,
        rules: Ruleset,
        bomb: BombContext,
        slot: Slot,
        generation: SimonGeneration = GENERATION,
    ) -> SimonEngine:
        length = rng.randint(generation.min_length, generation.max_length)
        sequence = tuple(rng.choice(COLORS) for _ in range(length))
        return cls(rules=rules, bomb=bomb, slot=slot, sequence=sequence, generation=generation)

    def elements(self) -> list[str]:
        return list(COLORS)

    def restart_flashes(self, t: float) -> None:
        """The Defuser zoomed in at ``t``: play the sequence again after the short delay."""
        self.play_from = t + self._g.replay_delay

    def press(self, element: str, t: float) -> None:
        if element not in COLORS:
            raise SimulatorError(f"element={element!r}: Simon Says has {list(COLORS)}")
        if self.solved:
            return
        self.last_press = (element, t)
        has_vowel = self.bomb.edgework.serial_has_vowel
        expected = mapped(
            self.sequence[self.entered], has_vowel, self.bomb.strike_count, self.rules.simon
        )
        if element != expected:
            self.entered = 0
            self.play_from = t + self._g.after_strike
            self._strike(t)
            return
        self.entered += 1
        self.play_from = t + self._g.after_press
        if self.entered == self.progress + 1:
            self.progress += 1
            self.entered = 0
            self.play_from = t + self._g.after_stage
            self.solved = self.progress == len(self.sequence)

    def lit_color(self, t: float) -> str | None:
        """The colour lit at game time ``t`` (a pressed button, or the playback), or None."""
        if self.last_press is not None:
            color, pressed_at = self.last_press
            if pressed_at <= t < pressed_at + self._g.press_light:
                return color
        if self.solved or t < self.play_from:
            return None
        g = self._g
        step = g.flash_on + g.flash_gap
        count = self.progress + 1
        phase = (t - self.play_from) % (count * step + g.replay_delay)
        index = math.floor(phase / step)
        if index < count and phase - index * step < g.flash_on:
            return self.sequence[index]
        return None

    def export(self, t: float, *, in_focus: bool) -> SimonModule:
        return SimonModule(
            beep_sequence=list(self.sequence),
            solve_progress=self.progress,
            **self._common(in_focus),
        )


ENGINE = SimonEngine
