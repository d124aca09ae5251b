"""What the Game Service offers over the bus: request/reply models and events.

Callers: the manager (everything) and the Defuser player (``observe``, ``act``, ``state``). The
Expert has no route here at all: its Redis user cannot reach these keys.

Times: ``seconds_remaining`` is the bomb clock (game seconds); ``game_time`` is game seconds
elapsed since the clock started at the time limit.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from gptnt.protocol import BombState, GameAction, Lifecycle, MissionConfig

# Method names, so caller and callee agree.
START = "start"
LIGHTS_ON = "lights_on"
PAUSE = "pause"
RESUME = "resume"
TIMESTEP = "timestep"
ADVANCE = "advance"
STATUS = "status"
STATE = "state"
OBSERVE = "observe"
ACT = "act"
REFUSED = "GameRefusedError"
"""The kind of the one ``act`` failure that is a fact of the turn (the game said no: a wrong
state, bad coordinates, the bomb ended meanwhile); any other failure of ``act`` (the game not
answering, a 500, a body that is no answer) is the infrastructure's and crashes the episode."""
STOP = "stop"


class Empty(BaseModel):
    pass


class StartRequest(BaseModel):
    """Start a mission and stop the clock in the dark (startup pause #1)."""

    mission: MissionConfig


class AdvanceRequest(BaseModel):
    """Virtual clock: run the paused game to ``to`` game seconds into play (with
    ``/setstepunit`` and ``/timestep``, as sync steps it) and pause; nothing if it is there."""

    to: float = Field(ge=0)


class Status(BaseModel):
    """Where the game is. ``over`` once the bomb is solved or has exploded."""

    lifecycle: Lifecycle
    seconds_remaining: float | None = None
    over: bool = False
    solved: bool = False
    detonated: bool = False
    strikes: int = 0

    @classmethod
    def of(cls, lifecycle: Lifecycle, state: BombState | None, *, started: bool) -> Status:
        """The status of a game in ``lifecycle`` showing ``state`` (``None``: not readable);
        ``started``: lights-on was seen, so the game can be over."""
        solved = bool(state and state.all_solved)
        detonated = bool(state and state.is_detonated)
        over = started and (solved or detonated or lifecycle in _OVER_LIFECYCLES)
        return cls(
            lifecycle=lifecycle,
            seconds_remaining=state.timer_module.seconds_remaining if state else None,
            over=over, solved=solved, detonated=detonated,
            strikes=len(state.strikes) if state else 0,
        )  # fmt: skip


_OVER_LIFECYCLES = (Lifecycle.POST_GAME, Lifecycle.TRANSITIONING)


class ObserveRequest(BaseModel):
    """What the Defuser wants to see; only what is asked for is encoded and sent."""

    frames: int = Field(default=1, ge=0, le=16)  # newest N frames of the 16-frame ring
    mask: bool = True
    state: bool = True
    sequence_frames: int = Field(default=0, ge=0, le=16)
    """When the module zoomed into blinks (Simon Says, Morse Code: the registry's ``blinks``),
    send this many frames instead of ``frames``, so one observation shows a whole cycle."""


class ObserveReply(BaseModel):
    """What the Defuser sees (``players.Observation`` once decoded): PNG images as base64 text (a
    few tens of KB each, not raw megabytes)."""

    status: Status
    state: BombState | None = None
    frames: list[str] = Field(default_factory=list)  # base64 PNG, oldest first
    mask: str | None = None  # base64 PNG of the segmentation mask of the current view
    png_bytes: int = 0  # total PNG bytes carried (for the benchmark)


class ActRequest(BaseModel):
    action: GameAction
    at: float | None = Field(default=None, ge=0)
    """Virtual clock: the game time of the action (the turn's dispatch); the paused game is
    first advanced to it. ``None``: now (wall clock, sync)."""


class ActReply(BaseModel):
    result: str  # the game's description of what happened
    status: Status


class GameOver(BaseModel):
    """Published on the game's event stream as soon as the bomb is solved or explodes."""

    kind: Literal["game_over"] = "game_over"
    state: BombState | None  # final state (None if the backend could not give it)
    lifecycle: Lifecycle
    detected_at: float  # wall-clock unix seconds


class LifecycleChanged(BaseModel):
    kind: Literal["lifecycle"] = "lifecycle"
    lifecycle: Lifecycle
    at: float  # wall-clock unix seconds


class BackendFailed(BaseModel):
    """The game backend stopped answering or died; the episode cannot go on."""

    kind: Literal["backend_failed"] = "backend_failed"
    reason: str
    at: float


GameEvent = Annotated[GameOver | LifecycleChanged | BackendFailed, Field(discriminator="kind")]
