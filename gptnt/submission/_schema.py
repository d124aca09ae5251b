"""The leaderboard submission format of GPTNT's harness (``gptnt submission``), as our own models.

The field names, nesting, enums and the fingerprint rule are GPTNT's (its submission schema,
version 1); the code is ours. A bundle is one directory::

    <out>/<YYYYMMDD>_<display-name slug>_<fingerprint[:8]>_<suite slug>_<revision>/
        submission.yaml       the manifest: ``InteractiveSubmission``
        experiments.parquet   one ``SubmissionExperiment`` row per episode

A value our records cannot give is ``None`` (YAML/JSON ``null``), never a made-up value;
docs/submission.md lists every such field, why, and what GPTNT's own type would need there.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, Literal, Self

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    computed_field,
    field_serializer,
    field_validator,
    model_validator,
)

from gptnt.protocol import BombState, ComponentName, Role
from gptnt.protocol import Mode as CommunicationStyle
from gptnt.records import PlayerIdentity

__all__ = [
    "SCHEMA_VERSION",
    "BombOutcome",
    "ExperimentDescriptor",
    "ExperimentSpec",
    "ImageDimensions",
    "InteractiveSubmission",
    "MissionSpec",
    "PlayerCapabilities",
    "PlayerIdentity",
    "PlayerProtocol",
    "Provenance",
    "RunUsage",
    "SubmissionExperiment",
    "SubmissionPlayer",
    "Submitter",
    "SuiteIdentity",
    "UsageLimits",
    "stable_digest",
]

SCHEMA_VERSION = 1
"""The version of GPTNT's submission manifest this writes."""


def stable_digest(payload: Any) -> str:
    """GPTNT's fingerprint rule: BLAKE2b with a 16-byte digest (32 hex characters) of the JSON
    with sorted keys (``json.dumps`` defaults otherwise)."""
    text = json.dumps(payload, sort_keys=True)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class _Strict(BaseModel):
    """Unknown keys are refused. A computed field read back (a bundle's own dump) is dropped
    before validation and must equal the value recomputed from the rest, or the bundle was
    edited or built by other code."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="wrap")
    @classmethod
    def _computed_read_back(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        written = {}
        if isinstance(data, dict):
            written = {k: data[k] for k in cls.model_computed_fields if k in data}
            data = {k: v for k, v in data.items() if k not in written}
        model = handler(data)
        for name, value in written.items():
            if value != getattr(model, name):
                raise ValueError(
                    f"{name} {value!r} is not what the rest of the record gives "
                    f"({getattr(model, name)!r}); rebuild the bundle"
                )
        return model


class Submitter(_Strict):
    """Who submits: written blank; the submitter fills it in before opening the pull request."""

    name: str = ""
    contact: str = ""  # a GitHub handle or an e-mail address
    affiliation: str | None = None


class Provenance(_Strict):
    """The harness that wrote the records: its version and commit (``-dirty`` appended when the
    checkout had uncommitted changes)."""

    gptnt_version: str = Field(min_length=1)
    git_sha: str | None


class SuiteIdentity(_Strict):
    """What was measured: a suite by name, revision and digest."""

    suite_name: str = Field(min_length=1)
    suite_revision: int = Field(ge=0)  # 0: not a frozen revision (GPTNT's own "unknown")
    suite_digest: str = Field(min_length=1)

    @property
    def target(self) -> str:
        return f"{self.suite_name}@{self.suite_revision}"


class ImageDimensions(_Strict):
    width: int = Field(gt=0)
    height: int = Field(gt=0)


class UsageLimits(_Strict):
    """pydantic-ai's usage limits as GPTNT records them (``None``: no limit)."""

    request_limit: int | None = None
    tool_calls_limit: int | None = None
    input_tokens_limit: int | None = None
    output_tokens_limit: int | None = None
    total_tokens_limit: int | None = None
    count_tokens_before_request: bool = False


class PlayerCapabilities(_Strict):
    """A player's setup; its ``fingerprint`` identifies it on the leaderboard."""

    player_name: str = Field(min_length=1)
    player_type: Literal["ai", "human"]
    thinking_method: Literal["inner-monologue", "thinking-out-loud"] | None
    structured_output_mode: Literal["tool", "native", "prompted"] | None
    include_schema_in_instructions: bool | None
    max_observations_per_request: int | None
    usage_limits: UsageLimits = Field(default_factory=UsageLimits)
    image_dimensions: ImageDimensions | None
    tokens_per_image: int | None = Field(ge=0)
    interaction_location_method: Literal["set-of-marks", "coordinates"] | None
    coordinate_mode: Literal["absolute", "normalised"] | None
    preserve_last_frame_for_n_turns: int | None
    enable_nobf_generation: bool | None

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        # GPTNT's two rules: "prompted" output always carries the schema in the instructions;
        # reasoning out loud excludes structured output.
        if (
            self.structured_output_mode == "prompted"
            and self.include_schema_in_instructions is False
        ):
            raise ValueError(
                "structured_output_mode 'prompted' needs include_schema_in_instructions"
            )
        if self.thinking_method == "thinking-out-loud" and self.structured_output_mode is not None:
            raise ValueError("thinking_method 'thinking-out-loud' takes no structured_output_mode")
        return self

    @property
    def fingerprint(self) -> str:
        """Every field but ``usage_limits``, digested (GPTNT's rule)."""
        return stable_digest(self.model_dump(mode="json", exclude={"usage_limits"}))


class SubmissionPlayer(_Strict):
    """One player of the submission: its role, capabilities (and their fingerprint, written for
    readers and checked on reading) and identity."""

    role: Role
    capabilities: PlayerCapabilities
    identity: PlayerIdentity

    @computed_field  # type: ignore[prop-decorator]
    @property
    def fingerprint(self) -> str:
        return self.capabilities.fingerprint


class InteractiveSubmission(_Strict):
    """``submission.yaml`` of an interactive (played) suite."""

    schema_version: int = SCHEMA_VERSION
    submission_id: str = Field(min_length=1)
    measured: SuiteIdentity
    submitter: Submitter = Field(default_factory=Submitter)
    players: Annotated[list[SubmissionPlayer], Field(min_length=1)]
    """The Defuser first, then every distinct Expert (by fingerprint), by name."""
    provenance: Provenance
    run_date: AwareDatetime  # when the earliest episode started

    @field_validator("schema_version")
    @classmethod
    def _known_version(cls, version: int) -> int:
        if version != SCHEMA_VERSION:
            raise ValueError(f"schema_version {version}: this harness writes {SCHEMA_VERSION}")
        return version

    @field_validator("players")
    @classmethod
    def _one_defuser_first(cls, players: list[SubmissionPlayer]) -> list[SubmissionPlayer]:
        defusers = [p for p in players if p.role == "defuser"]
        if len(defusers) != 1:
            raise ValueError(f"players: exactly one defuser, not {len(defusers)}")
        return [*defusers, *(p for p in players if p.role != "defuser")]

    @property
    def defuser(self) -> SubmissionPlayer:
        return self.players[0]


class BombOutcome(StrEnum):
    solved = "solved"
    timeout = "timeout"
    strikeout = "strikeout"
    detonated = "detonated"
    incomplete = "incomplete"


class MissionSpec(_Strict):
    """The mission as GPTNT's ``/startMission`` spec names it (camelCase, its wire names)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, serialize_by_alias=True)

    seed: int = Field(ge=0)
    time_limit: int = Field(gt=0, alias="timeLimit")
    num_strikes_allowed: int = Field(ge=1, le=5, alias="numStrikes")
    components: list[ComponentName]
    optional_widgets: int = Field(ge=0, le=10, alias="optWidgets")
    needy_time: int = Field(gt=0, alias="needyTime")
    force_modules_to_front: bool = Field(alias="isFront")
    time_scale: float = Field(alias="timeScale")
    time_step_size: int = Field(alias="timeStepSize")


class PlayerProtocol(_Strict):
    """How a role played: GPTNT's per-role protocol."""

    role: Role
    communication_style: CommunicationStyle
    is_playing_alone: bool
    include_manual: bool
    receive_feedback_after_action: bool = False
    allow_magic_actions: bool = False
    allow_lottery_actions: bool = False

    @computed_field  # type: ignore[prop-decorator]
    @property
    def allow_message_output(self) -> bool:
        return not self.is_playing_alone


class ExperimentSpec(_Strict):
    mission_spec: MissionSpec
    mission_set: str
    attempt: int = Field(ge=1)
    suite_name: str
    suite_revision: int = Field(ge=0)
    defuser_protocol: PlayerProtocol
    defuser_name: str
    expert_protocol: PlayerProtocol | None
    expert_name: str | None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def fingerprint(self) -> str:
        """The experiment without its attempt and player names (GPTNT's rule)."""
        dumped = self.model_dump(
            mode="json", exclude={"attempt", "defuser_name", "expert_name", "fingerprint"}
        )
        return stable_digest(dumped)


class ExperimentDescriptor(_Strict):
    """One experiment: its spec, the ids of its session and services, the players' setups and
    when it started. GPTNT's ids are UUID4s; ours are the harness's own (docs/submission.md)."""

    experiment_spec: ExperimentSpec
    session_id: str
    expert_uuid: str | None
    defuser_uuid: str | None
    game_uuid: str | None
    defuser_capabilities: PlayerCapabilities
    expert_capabilities: PlayerCapabilities | None
    start_time: AwareDatetime


class RunUsage(_Strict):
    """A player's model usage over the episode (pydantic-ai's ``RunUsage`` fields)."""

    requests: int = 0
    tool_calls: int = 0
    input_tokens: int = 0
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0
    output_tokens: int = 0
    input_audio_tokens: int = 0
    cache_audio_read_tokens: int = 0
    output_audio_tokens: int = 0
    details: dict[str, int] = Field(default_factory=dict)


class SubmissionExperiment(_Strict):
    """One row of ``experiments.parquet``: GPTNT's experiment summary, the final bomb state and
    each player's usage."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    gptnt_version: str
    git_sha: str | None
    outcome: BombOutcome
    seconds_remaining: float = Field(alias="timer_seconds")
    strike_count: int = Field(ge=0)
    num_modules_solved: int = Field(ge=0)
    attempt_name: str = Field(alias="name")
    session_id: str
    mission_set: str
    suite_name: str = "unknown"
    suite_revision: int = 0
    seed: int
    pairing: str
    defuser_name: str = Field(alias="defuser")
    expert_name: str | None = Field(alias="expert")
    communication_style: CommunicationStyle
    attempt: int = Field(ge=1)
    modules: list[ComponentName]
    is_hard_crash: bool
    experiment_descriptor: ExperimentDescriptor
    defuser_capabilities: PlayerCapabilities
    expert_capabilities: PlayerCapabilities | None
    tags: list[str] = Field(default_factory=list)
    final_bomb_state: BombState  # the mod's /state document (camelCase when written)
    defuser_usage: RunUsage
    expert_usage: RunUsage | None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def is_solved(self) -> bool:
        return self.outcome == BombOutcome.solved

    @computed_field  # type: ignore[prop-decorator]
    @property
    def is_strike_out(self) -> bool:
        return self.outcome == BombOutcome.strikeout

    @computed_field  # type: ignore[prop-decorator]
    @property
    def is_timed_out(self) -> bool:
        return self.outcome == BombOutcome.timeout

    @computed_field  # type: ignore[prop-decorator]
    @property
    def is_detonated(self) -> bool:
        detonations = (BombOutcome.timeout, BombOutcome.strikeout, BombOutcome.detonated)
        return self.outcome in detonations

    @computed_field  # type: ignore[prop-decorator]
    @property
    def defuser_capability_fingerprint(self) -> str:
        return self.defuser_capabilities.fingerprint

    @computed_field  # type: ignore[prop-decorator]
    @property
    def expert_capability_fingerprint(self) -> str:
        return self.expert_capabilities.fingerprint if self.expert_capabilities else ""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def defuser_has_manual(self) -> bool:
        return "+manual" in self.pairing

    @computed_field  # type: ignore[prop-decorator]
    @property
    def mission_key(self) -> str:
        """``"<seed>|<sorted component names>"`` (GPTNT's mission identity)."""
        return f"{self.seed}|{','.join(sorted(self.modules))}"

    @field_serializer("final_bomb_state")
    def _wire(self, state: BombState) -> dict[str, Any]:
        return state.to_wire()

    @property
    def is_valid(self) -> bool:
        """A run that ended cleanly: no crash, and solved, timed out or struck out."""
        ended = (BombOutcome.solved, BombOutcome.timeout, BombOutcome.strikeout)
        return not self.is_hard_crash and self.outcome in ended

    @property
    def started(self) -> datetime:
        return self.experiment_descriptor.start_time
