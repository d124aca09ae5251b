"""The episode record, versioned: what happened in one episode, in files analysis can read alone.

``events.jsonl`` holds one ``Event`` per line, appended as the episode runs; ``summary.json``
holds the ``Summary``, written last. Every event carries a ``kind`` literal, every file the
``schema_version`` it was written with. Times are labelled: ``*_at`` fields are wall-clock unix
seconds, ``game_time`` fields are seconds of game time elapsed on the bomb clock.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 1

Outcome = Literal["solved", "strikeout", "timeout", "crashed"]
Mode = Literal["sync", "async"]
RoleName = Literal["defuser", "expert"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PlayerInfo(_Record):
    """Who played a role. Scripted policies say so: they are not models."""

    role: RoleName
    policy: str  # e.g. "oracle", "random", "idle", or a model name
    kind: Literal["scripted", "model"]
    privileged: bool = False  # True when the policy reads the true bomb state (oracle Defuser)
    label: str  # how tables print it, e.g. "oracle (privileged, scripted)"
    seat: str | None = None  # a model's prompt seat: defuser, expert, solo, solo-no-manual
    manual: str | None = None  # identity of the manual the player read (Manual.identity)


class Tokens(_Record):
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0


class RecordedAction(_Record):
    """What a turn did, after parsing: one of the three action kinds."""

    kind: Literal["interact_game", "send_message", "do_nothing"]
    name: str | None = None  # interact_game: click_release, hold, release, zoom_out, …
    label: str | None = None  # the set-of-marks label clicked, if any
    x_pos: float | None = None  # fraction of the frame width (click/hold)
    y_pos: float | None = None  # fraction of the frame height (click/hold)
    message: str | None = None  # send_message: the text sent


class EpisodeStarted(_Record):
    kind: Literal["episode_started"] = "episode_started"
    schema_version: int = SCHEMA_VERSION
    episode_id: str
    mission_id: str
    mode: Mode
    players: list[PlayerInfo]
    mission: str  # the MissionConfig as JSON (exactly what /startmission got)
    at: float


class TurnEvent(_Record):
    """One player turn: drain inbox → observe → policy → dispatch."""

    kind: Literal["turn"] = "turn"
    role: RoleName
    turn: int  # 0-based, per role
    started_at: float
    dispatched_at: float  # when the action reached the game or the partner's inbox
    seconds_remaining: float | None = None  # bomb clock when observed, game seconds (Defuser)
    received: list[str] = Field(default_factory=list)  # partner messages drained this turn
    raw_output: str  # the policy's full text (a model's answer, a script's explanation)
    action: RecordedAction
    result: str | None = None  # the game's answer to an interaction
    warnings: list[str] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)
    frames: list[str] = Field(default_factory=list)  # content hashes of observed frames
    mask: str | None = None  # content hash of the segmentation mask
    tokens: Tokens = Field(default_factory=Tokens)
    cost_usd: float = 0.0  # what the model call cost (0 for scripted players)
    latency_s: float = 0.0  # wall seconds spent by the policy


class GameStep(_Record):
    """The manager moved the game: start, pause, resume, or one sync time step."""

    kind: Literal["game_step"] = "game_step"
    what: Literal["start", "pause", "resume", "timestep"]
    at: float
    seconds_remaining: float | None = None


class EpisodeEnded(_Record):
    kind: Literal["episode_ended"] = "episode_ended"
    outcome: Outcome
    reason: str
    at: float


Event = Annotated[EpisodeStarted | TurnEvent | GameStep | EpisodeEnded, Field(discriminator="kind")]


class ModuleResult(_Record):
    name: str
    solved: bool


class Summary(_Record):
    """The episode's result; written last and atomically, so its presence means "finished"."""

    kind: Literal["summary"] = "summary"
    schema_version: int = SCHEMA_VERSION
    episode_id: str
    mission_id: str
    mode: Mode
    attempt: int = 1
    players: list[PlayerInfo]
    outcome: Outcome
    reason: str = ""  # why it ended; for "crashed", what broke
    modules: list[ModuleResult] = Field(default_factory=list)
    strikes: int = 0
    time_limit: float  # game seconds on the clock at the start
    game_time_used: float | None = None  # game seconds elapsed at the end
    turns: dict[str, int] = Field(default_factory=dict)  # per role
    messages: dict[str, int] = Field(default_factory=dict)  # messages sent per role
    tokens: Tokens = Field(default_factory=Tokens)
    cost_usd: float = 0.0
    started_at: float
    ended_at: float

    @property
    def modules_solved(self) -> int:
        return sum(m.solved for m in self.modules)
