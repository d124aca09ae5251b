"""Mission configuration (``/startmission``) and the lifecycle tokens of ``/health``.

``MissionConfig`` is the parameter set of docs/protocol.md §2.3 with the bounds of GPTNT's mission
spec. The client writes it with ``to_query``; the simulator server reads it back with
``from_query``, which applies the same parsing rules as the mod (integers, ``true``/``false``,
comma-separated ``components``), so both ends accept and refuse the same requests.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from gptnt.bounded import RuleSeed
from gptnt.errors import QueryError, QueryValueError, first_problem
from gptnt.protocol._kinds import ModuleKind
from gptnt.protocol._query import format_bool, format_float, parse_bool, parse_float, parse_int

NeedyKind = Literal["NeedyVentGas", "NeedyCapacitor", "NeedyKnob"]
# A vanilla component name (KTANE's ComponentTypeEnum, case-sensitive): a ModuleKind or a
# NeedyKind, one flat Literal so a typo gets one readable error. The mod would also take a
# modded module id, but ``/state`` cannot describe modded modules, so we refuse them.
ComponentName = Literal[ModuleKind, NeedyKind]


_NEEDY_RULE = "needy_after_limit"
"""The error type of the one rule across parameters: needy time within the time limit."""


class Lifecycle(str, Enum):
    """The state token ``/health`` returns (docs/protocol.md §4.1).

    ``Gameplay`` is the mod's value at process start and while a mission loads; GPTNT's Python
    client could not parse it, ours can.
    """

    GAMEPLAY = "Gameplay"
    SETUP = "Setup"
    LIGHTS_ON = "LightsOn"
    LIGHTS_OFF = "LightsOff"
    TRANSITIONING = "Transitioning"
    POST_GAME = "PostGame"

    def __str__(self) -> str:
        return self.value


MAX_TIME_LIMIT = 86_400
"""A day of game time. The paper's missions use 180–300 s; a larger value is a typo (``1e12``),
which the mod's 32-bit timer would overflow and an async episode would never end."""

MOD_STEP_TIMEOUT_MS = 10_000
"""A ``/timestep`` of this many game milliseconds or more always times out in the shipped mod
(its phase 1 must finish within 10 s of wall time)."""


class MissionConfig(BaseModel):
    """The ``/startmission`` parameters. Field names snake_case; the wire uses camelCase aliases.

    KTANE's generator owns everything else (placement, widgets, serial number): the same config
    gives the same bomb in the real game, and the simulator makes its own bomb from it.
    """

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True
    )

    seed: int = Field(ge=0, description="Bomb generation seed (KTANE's mission seed).")
    time_limit: int = Field(
        gt=0,
        le=MAX_TIME_LIMIT,
        description="Bomb timer at the start, seconds of game time (at most a day).",
    )
    num_strikes: int = Field(
        default=3, ge=1, le=5, description="Strikes that detonate the bomb (the N-th explodes)."
    )
    needy_time: int = Field(
        default=60, gt=0, description="Seconds of game time before needy modules activate."
    )
    is_front: bool = Field(
        default=False, description="Place every module on the front face (no back placement)."
    )
    opt_widgets: int = Field(
        default=5, ge=0, le=10, description="KTANE's optional widget count (edgework amount)."
    )
    components: list[ComponentName] = Field(
        min_length=1,
        max_length=11,
        description="One module per entry, in this order (the game's component pools).",
    )
    time_scale: float = Field(
        default=1.0, ge=0.1, le=10.0, description="Initial game speed; 1 = real time."
    )
    time_step_size: int = Field(
        default=3000,
        gt=0,
        lt=MOD_STEP_TIMEOUT_MS,
        description="Game milliseconds one /timestep advances. The shipped mod times out at "
        "10000 or more, so such a step is refused.",
    )
    session_id: str | None = Field(
        default=None,
        max_length=64,
        pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$",
        description="Tag for the game's log lines: one word of at most 64 letters, digits and "
        "_.:- (it lands in a query and in log lines, so no newlines or spaces).",
    )
    rule_seed: RuleSeed | None = Field(
        default=None,
        description="Extension: the rule seed of the caller's manual and oracle (1 = the v1 "
        "manual). A mission may name one; our simulator refuses a mission whose rule seed is "
        "not the one it plays. The mods ignore the parameter.",
    )

    @model_validator(mode="after")
    def _needy_within_limit(self) -> MissionConfig:
        if self.needy_time > self.time_limit:
            raise PydanticCustomError(
                _NEEDY_RULE,
                "needyTime ({needy}) must not exceed timeLimit ({limit})",
                {"needy": self.needy_time, "limit": self.time_limit},
            )
        return self

    def to_query(self) -> dict[str, str]:
        """The query parameters as the mod reads them (camelCase, ``true``/``false``, commas)."""
        query: dict[str, str] = {}
        for name, field in type(self).model_fields.items():
            value = getattr(self, name)
            if value is None:
                continue
            key = field.alias or name
            if isinstance(value, bool):
                query[key] = format_bool(value)
            elif isinstance(value, float):
                query[key] = format_float(value)
            elif isinstance(value, list):
                query[key] = ",".join(value)
            else:
                query[key] = str(value)
        return query

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> MissionConfig:
        """Parse ``/startmission`` parameters; every one but ``sessionId`` and ``ruleSeed`` is
        required.

        Raises ``QueryError`` for a parameter that is missing or unparsable, ``QueryValueError``
        for one out of bounds; both name it (``.parameter``, as the wire spells it).
        """
        raw: dict[str, object] = {}
        for name, field in cls.model_fields.items():
            key = field.alias or name
            text = query.get(key)
            if text is None:
                if name in ("session_id", "rule_seed"):
                    continue
                raise QueryError(f"/startmission: missing query parameter {key}", parameter=key)
            raw[name] = _PARSERS.get(name, _keep)(key, text)
        try:
            return cls.model_validate(raw)
        except ValidationError as err:
            raise QueryValueError(
                f"/startmission: {_describe(err)}", parameter=_parameter(err)
            ) from None


def _keep(_key: str, text: str) -> str:
    return text


def _split_components(key: str, text: str) -> list[str]:
    items = [item.strip() for item in text.split(",")]
    if not text.strip() or any(not item for item in items):
        raise QueryValueError(
            f"/startmission: {key}={text!r} must be a comma list of module names", parameter=key
        )
    return items


_PARSERS = {
    "seed": parse_int,
    "time_limit": parse_int,
    "num_strikes": parse_int,
    "needy_time": parse_int,
    "is_front": parse_bool,
    "opt_widgets": parse_int,
    "components": _split_components,
    "time_scale": parse_float,
    "time_step_size": parse_int,
    "rule_seed": parse_int,
}


def _alias(name: str) -> str:
    field = MissionConfig.model_fields.get(name)
    return field.alias if field is not None and field.alias else name


def _parameter(err: ValidationError) -> str | None:
    """The wire name of the parameter the first problem is about (the needy-time rule is
    ``needyTime``'s)."""
    first = err.errors()[0]
    if first["loc"]:
        return _alias(str(first["loc"][0]))
    return "needyTime" if first["type"] == _NEEDY_RULE else None


def _describe(err: ValidationError) -> str:
    """One line for the first problem: the parameter (camelCase) and pydantic's reason."""
    return first_problem(err, whole="mission", field_name=_alias)
