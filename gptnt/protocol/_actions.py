"""The ``/action`` vocabulary (docs/protocol.md §2.7, §6.1).

Only ``click`` and ``hold`` take a point: ``x_pos``/``y_pos`` in [0, 1] relative to the whole
game frame, origin top-left, y downward. The mod silently reads a missing coordinate as 0 and
answers an unknown action with HTTP 200, so we refuse both before they are sent.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from gptnt.errors import ConfigError, first_problem
from gptnt.protocol._query import format_float


class ActionKind(str, Enum):
    """The wire values of the ``action`` parameter."""

    CLICK = "click"
    HOLD = "hold"
    RELEASE = "release"
    OUT = "out"
    LEFT = "left"
    RIGHT = "right"
    UP = "up"
    DOWN = "down"
    FLIP = "flip"
    MAGIC = "magic"
    LOTTERY = "lottery"

    def __str__(self) -> str:
        return self.value

    @property
    def needs_point(self) -> bool:
        return self in _POINTED


_POINTED = frozenset({ActionKind.CLICK, ActionKind.HOLD})

ModelActionName = Literal[
    "click_release",
    "hold",
    "release",
    "zoom_out",
    "rotate_left",
    "rotate_right",
    "roll_up",
    "roll_down",
    "flip",
]

# The names models use in ``interact_game`` actions (prompts) → the wire value. ``magic`` and
# ``lottery`` are not model actions: they are separate oracle kinds offered only on request.
MODEL_ACTIONS: dict[ModelActionName, ActionKind] = {
    "click_release": ActionKind.CLICK,
    "hold": ActionKind.HOLD,
    "release": ActionKind.RELEASE,
    "zoom_out": ActionKind.OUT,
    "rotate_left": ActionKind.LEFT,
    "rotate_right": ActionKind.RIGHT,
    "roll_up": ActionKind.UP,
    "roll_down": ActionKind.DOWN,
    "flip": ActionKind.FLIP,
}

UNLOCATED_ACTIONS: tuple[ModelActionName, ...] = tuple(
    name for name, kind in MODEL_ACTIONS.items() if not kind.needs_point
)
"""The model actions that take no location (release, zoom out, the five rotations)."""


class GameAction(BaseModel):
    """One ``/action`` request. A point is required for click/hold and refused otherwise."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: ActionKind
    x_pos: float | None = Field(
        default=None, ge=0.0, le=1.0, description="Fraction of the frame width, from the left."
    )
    y_pos: float | None = Field(
        default=None, ge=0.0, le=1.0, description="Fraction of the frame height, from the top."
    )

    @model_validator(mode="after")
    def _point_rules(self) -> GameAction:
        has_point = self.x_pos is not None or self.y_pos is not None
        if self.action.needs_point:
            if self.x_pos is None or self.y_pos is None:
                raise ValueError(f"action {self.action.value} needs both x_pos and y_pos")
        elif has_point:
            raise ValueError(f"action {self.action.value} takes no x_pos/y_pos")
        return self

    @classmethod
    def checked(
        cls, action: ActionKind | str, x_pos: float | None = None, y_pos: float | None = None
    ) -> GameAction:
        """Like the constructor, but a bad action becomes one-line ``ConfigError``."""
        try:
            return cls(action=action, x_pos=x_pos, y_pos=y_pos)
        except ValidationError as err:
            raise ConfigError(f"/action: {first_problem(err, whole='action')}") from None

    def to_query(self) -> dict[str, str]:
        """``{"action": …}`` plus ``x_pos``/``y_pos`` for click and hold."""
        query = {"action": self.action.value}
        if self.x_pos is not None and self.y_pos is not None:
            query["x_pos"] = format_float(self.x_pos)
            query["y_pos"] = format_float(self.y_pos)
        return query
