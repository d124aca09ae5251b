"""The virtual clock of async play: game time advances by a latency model, not by wall time.

In wall-clock async (the paper's) the bomb clock runs in real time while the players think, so
a result depends on the provider's latency that day. With the virtual clock the game stays
paused; each turn has a *start* on the game's clock (when its inbox is drained and the Defuser's
observation taken) and a *dispatch* = start + latency × time scale (when its action reaches the
game or its message the partner's inbox). The latency of a turn is the ``Latency`` model's:

- ``measured``: the wall seconds the policy really took (a model call's latency), as recorded in
  the turn's ``latency_s``; a replay of the episode uses the recorded value, so its timeline is
  the parent's;
- ``fixed:SECONDS``: the same for every turn;
- ``tokens``: time to first token + output tokens × seconds per token, with the player config's
  ``first_token_s`` and ``seconds_per_token`` (a scripted player, which has neither config nor
  tokens, takes ``TOKENS_FIRST_TOKEN_S``).

The manager plays the turns in the order of their starts (docs/virtual-clock.md says what this
does and does not share with the paper's async).
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from gptnt.errors import ConfigError

__all__ = [
    "MAX_FIXED_LATENCY_S",
    "MIN_LATENCY_S",
    "TOKENS_FIRST_TOKEN_S",
    "TOKENS_SECONDS_PER_TOKEN",
    "Latency",
    "VirtualClock",
    "parse_latency",
]

TOKENS_FIRST_TOKEN_S = 1.0
"""Default time to first token of the ``tokens`` model, in seconds (our choice)."""
TOKENS_SECONDS_PER_TOKEN = 0.02
"""Default seconds per output token of the ``tokens`` model (50 tokens/s, our choice)."""
MIN_LATENCY_S = 0.001
"""No turn takes less than a game millisecond (the step unit of ``/setstepunit``), so both
players' clocks always move forward."""

MAX_FIXED_LATENCY_S = 86_400
"""The longest ``fixed`` latency, a day of game time (longer than any mission's clock), so that
every accepted value has an exact name (our bound)."""

_FIXED = re.compile(r"^fixed:(\d+(?:\.\d{1,3})?)$")
"""``fixed:SECONDS`` in game milliseconds at most (dispatch times are rounded to them)."""


class Latency(BaseModel):
    """How long a turn takes on the virtual clock (module doc)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["measured", "fixed", "tokens"]
    seconds: float | None = Field(None, gt=0)  # fixed only

    @property
    def name(self) -> str:
        """As written on the command line and in the records: ``fixed:5``, ``measured``."""
        if self.kind != "fixed":
            return self.kind
        assert self.seconds is not None  # milliseconds: parse_latency(name) gives it back
        return "fixed:" + f"{self.seconds:.3f}".rstrip("0").rstrip(".")

    def seconds_of(
        self, *, measured_s: float, output_tokens: int, first_token_s: float, per_token_s: float
    ) -> float:
        """The turn's latency in wall-equivalent seconds."""
        if self.kind == "fixed":
            assert self.seconds is not None
            latency = self.seconds
        elif self.kind == "tokens":
            latency = first_token_s + output_tokens * per_token_s
        else:
            latency = measured_s
        return max(latency, MIN_LATENCY_S)


def parse_latency(text: str, *, name: str = "--latency") -> Latency:
    """``measured``, ``tokens`` or ``fixed:SECONDS``; a bad one fails naming ``name``."""
    if text in ("measured", "tokens"):
        return Latency(kind=text)
    match = _FIXED.match(text)
    if match and MIN_LATENCY_S <= float(match.group(1)) <= MAX_FIXED_LATENCY_S:
        return Latency(kind="fixed", seconds=float(match.group(1)))
    raise ConfigError(
        f"{name} {text!r}: use measured, tokens, or fixed:SECONDS (e.g. fixed:5), SECONDS from "
        f"{MIN_LATENCY_S} to {MAX_FIXED_LATENCY_S} with at most 3 decimals"
    )


class VirtualClock(BaseModel):
    """What a player needs to time its turns on the virtual clock."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    latency: Latency
    time_scale: float = Field(1.0, gt=0)
    """Game seconds per second of latency (the mission's ``timeScale``, as async runs it)."""

    def dispatch(self, start: float, latency_s: float) -> float:
        """The game time a turn started at ``start`` dispatches, to the game millisecond."""
        return round(start + latency_s * self.time_scale, 3)
