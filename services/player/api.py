"""What a Player Service is started with, and what it offers the manager over the bus."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from gptnt.players.clock import VirtualClock
from gptnt.players.prompts import ReflectedOutcome
from gptnt.players.seats import SeatChoice
from gptnt.protocol import Mode, Role
from gptnt.records import ReflectionEvent, TurnEvent, read_events
from gptnt.services.game.api import Status

TURN = "turn"
REFLECT = "reflect"
STOP = "stop"


class Restore(BaseModel):
    """What a seat of a counterfactual replay restores (``gptnt.players.replay``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    parent: Path
    """The parent's episode directory (its ``events.jsonl`` has the turns)."""
    turns: int = Field(ge=0)
    """How many of this seat's turns come from the parent before it plays on."""
    message: str | None = None
    """The message that replaces this seat's first new turn, if the fork is its turn."""

    def recorded(self, role: Role) -> list[TurnEvent]:
        """This seat's turns to restore, in order."""
        turns = [e for e in read_events(self.parent) if isinstance(e, TurnEvent) and e.role == role]
        return turns[: self.turns]


class PlayerServiceConfig(BaseModel):
    """Everything one Player Service needs, as one value: the same object when it runs as a
    task, its JSON (``--config``) when it runs as a process. The manager builds it per episode
    and seat; every field is set there, so no default here can drift from the run's config."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seat: SeatChoice
    """Who plays, resolved (``gptnt.players.seats``); its ``role`` is the service's role."""
    mode: Mode
    seed: int
    """Seed of the policy's own randomness (``EpisodeSpec.policy_seed``)."""
    step_seconds: float = Field(gt=0)
    """Game seconds per sync ``/timestep`` (the mission's step; a model's prompt says it)."""
    episode_dir: Path
    """Where the turns' frames and shown images are stored by content hash."""
    game_call_s: float = Field(gt=0)
    """Wall seconds one call to the game service may take (``timing.game_call_s``)."""
    clock: VirtualClock | None = None
    """Async on the virtual clock: the latency model that times the turns; ``None``: wall."""
    call_s: float | None = Field(gt=0)
    """Wall seconds one model call may take, its retries and waits included (the episode's
    ``Budget``: the turn's deadline less the turn's other waits); ``None`` for a scripted
    player."""
    restore: Restore | None = None
    """A counterfactual replay's branch: the turns of this seat to restore from the parent."""


class TurnRequest(BaseModel):
    turn: int  # 0-based, per role
    at: float | None = None
    """Virtual clock: the game time the turn starts (drain and observation); ``None``: now."""


class TurnReply(BaseModel):
    event: TurnEvent  # what the turn did, ready for the episode's events.jsonl
    png_bytes: int = 0  # observation bytes received from the game service this turn
    status: Status | None = None
    """The game after this turn, as the game service last reported it (after the Defuser's
    action, else at its observation); ``None`` for the Expert, which never sees the game."""


class ReflectRequest(BaseModel):
    outcome: ReflectedOutcome
    """How the game ended (on the bomb: a crash or an interruption is never reflected on)."""


class ReflectReply(BaseModel):
    event: ReflectionEvent | None = None
    """The reflection's record; ``None``: this player does not reflect (scripted, or its
    config's ``reflection`` is off)."""


class StopRequest(BaseModel):
    reason: str


class Stopped(BaseModel):
    turns: int
