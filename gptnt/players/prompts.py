"""System prompts, assembled from Markdown components in ``prompts/`` (paper Appendix T).

Which components a player gets is a table (``COMPONENTS``), not code: each row names a file and
the seats, modes and interaction methods it applies to. The order of the table is the order of
the prompt: scenario → role → reasoning → mechanics → turn input → commands → requirements.
Components may use ``$name`` placeholders (``string.Template``), filled from ``PromptSpec``.

Seats: ``defuser`` and ``expert`` play as a pair; ``solo`` holds bomb and manual alone;
``solo-no-manual`` holds only the bomb (the paper's ablations, section 10).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from string import Template
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, ValidationError

from gptnt.bounded import read_yaml
from gptnt.errors import ConfigError, UnreadableError, first_problem
from gptnt.players.actions import (
    SCALED_MAX,
    ActionKindName,
    Interaction,
    InteractionMethod,
    OutputFormat,
)
from gptnt.protocol import MODES, Mode
from gptnt.resources import prompts_dir

Seat = Literal["defuser", "expert", "solo", "solo-no-manual"]

SEATS: tuple[Seat, ...] = get_args(Seat)

ACTORS: frozenset[Seat] = frozenset({"defuser", "solo", "solo-no-manual"})
"""Seats that handle the bomb (and see it)."""
TALKERS: frozenset[Seat] = frozenset({"defuser", "expert"})
"""Seats with a partner to message."""
READERS: frozenset[Seat] = frozenset({"expert", "solo"})
"""Seats that hold the manual (its pages are their pinned first message)."""

PROMPTS_DIR = prompts_dir()
"""The repository's ``prompts/`` folder."""


def allowed_kinds(seat: Seat) -> tuple[ActionKindName, ...]:
    """The action kinds a seat may use, in the order the prompt lists them."""
    kinds: list[ActionKindName] = []
    if seat in ACTORS:
        kinds.append("interact_game")
    if seat in TALKERS:
        kinds.append("send_message")
    kinds.append("do_nothing")
    return tuple(kinds)


@dataclass(frozen=True)
class Component:
    """One prompt file and when it applies (``None`` = always)."""

    file: str
    seats: frozenset[Seat] | None = None
    modes: frozenset[Mode] | None = None
    methods: frozenset[InteractionMethod] | None = None
    outputs: frozenset[OutputFormat] | None = None

    def applies(
        self, seat: Seat, mode: Mode, method: InteractionMethod, output: OutputFormat = "react"
    ) -> bool:
        return (
            (self.seats is None or seat in self.seats)
            and (self.modes is None or mode in self.modes)
            and (self.methods is None or method in self.methods)
            and (self.outputs is None or output in self.outputs)
        )


def _s(*seats: Seat) -> frozenset[Seat]:
    return frozenset(seats)


_PAIR = _s("defuser", "expert")
_SOLO = _s("solo", "solo-no-manual")
_SOM: frozenset[InteractionMethod] = frozenset({"set-of-marks"})
_XY: frozenset[InteractionMethod] = frozenset({"coordinates"})
_SYNC: frozenset[Mode] = frozenset({"sync"})
_ASYNC: frozenset[Mode] = frozenset({"async"})
_DEFUSER_SOM = _s("defuser")
_REACT: frozenset[OutputFormat] = frozenset({"react"})
_TOOL: frozenset[OutputFormat] = frozenset({"tool"})

COMPONENTS: tuple[Component, ...] = (
    # scenario
    Component("scenario.md", _PAIR),
    Component("scenario_solo.md", _SOLO),
    # role
    Component("role_defuser.md", _s("defuser")),
    Component("role_expert.md", _s("expert")),
    Component("role_solo.md", _s("solo")),
    Component("role_solo_no_manual.md", _s("solo-no-manual")),
    # reasoning
    Component("reasoning.md", outputs=_REACT),
    Component("reasoning_tool.md", outputs=_TOOL),
    # mechanics
    Component("mechanics_manual.md", READERS),
    Component("mechanics_expert.md", _s("expert")),
    Component("mechanics_expert_async.md", _s("expert"), _ASYNC),
    Component("mechanics_defuser_sync.md", ACTORS, _SYNC),
    Component("mechanics_defuser_async.md", ACTORS, _ASYNC),
    Component("mechanics_scene.md", ACTORS),
    Component("mechanics_set_of_marks.md", ACTORS, methods=_SOM),
    Component("mechanics_coordinates.md", ACTORS, methods=_XY),
    # what a turn's input holds
    Component("turn_input.md"),
    Component("turn_input_messages.md", TALKERS),
    Component("turn_input_frames.md", ACTORS),
    # commands
    Component("commands.md", outputs=_REACT),
    Component("commands_tool.md", outputs=_TOOL),
    Component("command_do_nothing.md"),
    Component("command_send_message.md", TALKERS),
    Component("command_interact.md", ACTORS),
    Component("location_set_of_marks.md", ACTORS, methods=_SOM),
    Component("location_coordinates.md", ACTORS, methods=_XY),
    # requirements
    Component("requirements.md"),
    Component("requirements_action.md", ACTORS),
    Component("requirements_action_async.md", ACTORS, _ASYNC),
    Component("requirements_action_set_of_marks.md", ACTORS, methods=_SOM),
    Component("requirements_observation.md", ACTORS),
    Component("requirements_observation_set_of_marks.md", ACTORS, methods=_SOM),
    Component("requirements_communication_defuser.md", _s("defuser")),
    Component("requirements_communication_set_of_marks.md", _DEFUSER_SOM, methods=_SOM),
    Component("requirements_communication_expert.md", _s("expert")),
    Component("requirements_completion_defuser.md", ACTORS),
    Component("requirements_completion_expert.md", _s("expert")),
    Component("requirements_format.md", outputs=_REACT),
    Component("requirements_format_tool.md", outputs=_TOOL),
)

_COORDINATE_HELP = {
    "absolute": (
        "Coordinates are whole pixels of the picture, which is $width × $height: x runs from 0 "
        "at the left edge to $max_x at the right, y from 0 at the top to $max_y at the bottom."
    ),
    "scaled": (
        f"Coordinates are on a 0–{SCALED_MAX} scale whatever the picture's size: x runs from 0 "
        f"at the left edge to {SCALED_MAX} at the right, y from 0 at the top to {SCALED_MAX} at "
        "the bottom."
    ),
    "relative": (
        "Coordinates are fractions of the picture: x runs from 0.0 at the left edge to 1.0 at "
        "the right, y from 0.0 at the top to 1.0 at the bottom."
    ),
}
_EXAMPLE_POINT = {"absolute": None, "scaled": (500, 500), "relative": (0.5, 0.5)}


@dataclass(frozen=True)
class PromptSpec:
    """Everything that selects or fills the system prompt of one player."""

    seat: Seat
    mode: Mode = "sync"
    interaction: Interaction = field(default_factory=Interaction)
    step_seconds: float = 3.0
    """Game time one sync Defuser turn costs (the mod's ``/timestep``)."""
    max_tokens: int = 1000
    output: OutputFormat = "react"
    """How the action comes back: ``<action>`` text, or a tool call (``PlayerConfig.output``)."""

    def values(self) -> dict[str, str]:
        """The placeholder values for this player."""
        width, height = self.interaction.image_size
        system = self.interaction.coordinates
        help_text = Template(_COORDINATE_HELP[system]).substitute(
            width=width, height=height, max_x=width - 1, max_y=height - 1
        )
        example = _EXAMPLE_POINT[system] or (width // 2, height // 2)
        return {
            "kinds": ", ".join(f"`{k}`" for k in allowed_kinds(self.seat)),
            "step_seconds": f"{self.step_seconds:g}",
            "max_tokens": str(self.max_tokens),
            "coordinate_help": help_text,
            "example_x": f"{example[0]:g}",
            "example_y": f"{example[1]:g}",
        }


def components(spec: PromptSpec) -> list[str]:
    """The component files of ``spec``'s prompt, in order."""
    _check(spec)
    method = spec.interaction.method
    return [c.file for c in COMPONENTS if c.applies(spec.seat, spec.mode, method, spec.output)]


def system_prompt(spec: PromptSpec, prompts_dir: Path | None = None) -> str:
    """The assembled system prompt: components joined by blank lines, placeholders filled."""
    folder = prompts_dir or PROMPTS_DIR
    values = spec.values()
    parts = []
    for name in components(spec):
        template = Template(_read(folder / name))
        try:
            parts.append(template.substitute(values).strip())
        except (KeyError, ValueError) as err:
            raise ConfigError(
                f"prompt component {name}: unknown placeholder {err}; use one of "
                f"{', '.join('$' + k for k in values)}"
            ) from None
    return _join(parts) + "\n"


def _join(parts: list[str]) -> str:
    """Blank lines between components, except where one continues the previous one's list."""
    out = parts[0] if parts else ""
    for part in parts[1:]:
        continues = part.startswith("- ") and out.rsplit("\n", 1)[-1].startswith("- ")
        out += ("\n" if continues else "\n\n") + part
    return out


@lru_cache(maxsize=128)
def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(
            f"prompt component {path.name} is missing from {path.parent}; restore it from the "
            "repository's prompts/ folder"
        ) from None


def _check(spec: PromptSpec) -> None:
    if spec.seat not in SEATS:
        raise ConfigError(f"seat {spec.seat!r} is unknown; use one of {', '.join(SEATS)}")
    if spec.mode not in MODES:
        raise ConfigError(f"mode {spec.mode!r} is unknown; use sync or async")


ReflectedOutcome = Literal["solved", "strikeout", "timeout"]
"""The outcomes a player is asked to reflect on: the game ended on the bomb."""


class _Reflection(BaseModel):
    """``prompts/reflection.yaml``: the outcome sentences and the questions."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    outcomes: dict[ReflectedOutcome, str]
    questions: dict[Literal["paired", "solo"], str]


def reflection_prompt(
    seat: Seat, outcome: ReflectedOutcome, prompts_dir: Path | None = None
) -> str:
    """The reflection step's user turn: the outcome in one sentence, then the questions for a
    player with a partner (``defuser``, ``expert``) or without (the solo seats)."""
    path = (prompts_dir or PROMPTS_DIR) / "reflection.yaml"
    try:
        data = _Reflection.model_validate(read_yaml(path))
    except ValidationError as err:
        raise ConfigError(f"{path.name}: {first_problem(err, whole='file')}") from None
    except UnreadableError as err:
        raise ConfigError(str(err)) from None
    questions = data.questions["paired" if seat in TALKERS else "solo"]
    return f"{data.outcomes[outcome].strip()}\n\n{questions.strip()}"
