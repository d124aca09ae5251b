"""The player-facing action vocabulary, and its conversion to the game's ``/action`` request.

A model answers with one ``Action``: ``InteractGame`` (Defuser), ``SendMessage`` or
``DoNothing``, tagged by ``kind``. An interaction's location is kept as the model
gave it (a set-of-marks letter, or a point) so records show what the model chose; it becomes a
relative coordinate only at ``to_game_action``, against the marks of the observation the model
saw. A letter that is not on screen, or a point off the image, is an error with feedback, never
a silent do-nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from gptnt.players.feedback import Issue
from gptnt.protocol import MODEL_ACTIONS, GameAction, ModelActionName
from gptnt.vision import SetOfMarks

ActionKindName = Literal["interact_game", "send_message", "do_nothing"]
InteractionMethod = Literal["set-of-marks", "coordinates"]
CoordinateSystem = Literal["absolute", "scaled", "relative"]
OutputFormat = Literal["react", "tool"]
"""How a model answers with its action: ``react`` (text: ``<thoughts>`` then ``<action>`` JSON,
the paper's format) or ``tool`` (a typed tool call, one tool per action kind)."""

LOCATED_ACTIONS: frozenset[str] = frozenset(n for n, k in MODEL_ACTIONS.items() if k.needs_point)
"""Actions that need a location; every other action takes none."""

SCALED_MAX = 1000
"""Scaled coordinates run from 0 to this on each axis."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class MarkLocation(_Model):
    """A set-of-marks letter, as drawn on the newest frame."""

    kind: Literal["mark"] = "mark"
    label: str = Field(pattern=r"^[A-Z]{1,2}$")


class PointLocation(_Model):
    """A point in the player's coordinate system (see ``Interaction.coordinates``)."""

    kind: Literal["point"] = "point"
    x: float
    y: float


Location = Annotated[MarkLocation | PointLocation, Field(discriminator="kind")]


class InteractGame(_Model):
    """Act on the bomb (Defuser only)."""

    kind: Literal["interact_game"] = "interact_game"
    action: ModelActionName
    location: Location | None = None


class SendMessage(_Model):
    """Send text to the partner."""

    kind: Literal["send_message"] = "send_message"
    message: str = Field(min_length=1)


class DoNothing(_Model):
    """Wait a turn (a first-class choice, and what a skipped turn becomes)."""

    kind: Literal["do_nothing"] = "do_nothing"


Action = Annotated[InteractGame | SendMessage | DoNothing, Field(discriminator="kind")]


@dataclass(frozen=True)
class Interaction:
    """How a Defuser names a place on screen."""

    method: InteractionMethod = "set-of-marks"
    coordinates: CoordinateSystem = "absolute"
    """Only for ``coordinates``: pixels of the image the model sees, 0–1000, or 0–1."""
    image_size: tuple[int, int] = (640, 480)
    """``(width, height)`` of the images the model is shown (absolute coordinates use it)."""


def to_game_action(
    action: InteractGame, interaction: Interaction, marks: SetOfMarks | None
) -> GameAction | Issue:
    """The ``/action`` request for ``action``, or the issue that stops it.

    ``marks`` are those of the observation the model answered (set-of-marks only).
    """
    wire = MODEL_ACTIONS[action.action]
    if not wire.needs_point:
        return GameAction(action=wire)
    location = action.location
    if location is None:
        return Issue("missing_location", action.action)
    if isinstance(location, MarkLocation):
        point = marks.click_point(location.label) if marks is not None else None
        if point is None:
            return Issue("unknown_label", f'"{location.label}"')
        return GameAction(action=wire, x_pos=point[0], y_pos=point[1])
    relative = _relative(location, interaction)
    if relative is None:
        return Issue("off_screen", f"({location.x:g}, {location.y:g})")
    return GameAction(action=wire, x_pos=relative[0], y_pos=relative[1])


def _relative(point: PointLocation, interaction: Interaction) -> tuple[float, float] | None:
    width, height = interaction.image_size
    spans = {
        "absolute": (float(width), float(height)),
        "scaled": (float(SCALED_MAX), float(SCALED_MAX)),
        "relative": (1.0, 1.0),
    }[interaction.coordinates]
    x, y = point.x / spans[0], point.y / spans[1]
    if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
        return None
    return x, y
