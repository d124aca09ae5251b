"""The ``/state`` bomb JSON, exactly as the shipped GPTNT mod serialises it (docs/protocol.md §7).

camelCase on the wire; snake_case accepted too (``populate_by_name``). Unknown keys are ignored.
``widgets``, ``modules`` and ``strikes`` may arrive as JSON-encoded strings (harness records).
Memory's numbers arrive as strings and are coerced to ints.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel

BombSide = Literal["front", "back", "left", "right", "top", "bottom"]
EdgeSide = Literal["top", "bottom", "left", "right"]
WireColor = Literal["red", "yellow", "blue", "black", "white"]
ButtonColor = Literal["red", "blue", "yellow", "white", "black"]
ButtonWord = Literal["Abort", "Detonate", "Hold", "Press"]
SimonColor = Literal["red", "blue", "green", "yellow"]
VennColor = Literal["white", "red", "blue", "red, white", "blue, white", "red, blue"]
SequenceColor = Literal["red", "blue", "black"]
PortType = Literal["DVI-D", "Parallel", "PS/2", "RJ-45", "Serial", "Stereo RCA"]
KeypadSymbol = Literal[
    "copyright", "star", "hollow-star", "pashto-teh", "zh", "omega", "ligature-iotated-e", "ot",
    "kai", "egyptian-kai", "lunate-sampi", "qoppa", "little-yus", "ae", "ha-with-descender",
    "e-with-diaeresis", "thousand-sign", "short-i", "ksi", "inverted-question", "pilcrow",
    "lunate-epsilon", "reversed-lunate-epsilon", "psi", "big-yus", "qa", "titlo",
    "archaic-koppa", "zeta", "lambda-bar", "yat",
]  # fmt: skip
KEYPAD_SYMBOLS: tuple[KeypadSymbol, ...] = get_args(KeypadSymbol)


def _json_string(value: Any) -> Any:
    """Harness records sometimes store lists as JSON-encoded strings."""
    if isinstance(value, str):
        return json.loads(value)
    return value


class WireModel(BaseModel):
    """Base of every wire model: camelCase on the wire, snake_case accepted, extras ignored."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="ignore", frozen=True
    )

    def to_wire(self) -> dict[str, Any]:
        """The JSON object as the mod sends it (camelCase keys, nulls kept)."""
        return self.model_dump(by_alias=True, mode="json")


# --------------------------------------------------------------------------- widgets


class SerialNumberWidget(WireModel):
    name: Literal["SerialNumber"] = "SerialNumber"
    position: EdgeSide
    serial_number: str = Field(min_length=6, max_length=6)


class BatteryWidget(WireModel):
    """One battery holder: one D battery, or two AA batteries."""

    name: Literal["Battery"] = "Battery"
    position: EdgeSide
    battery_type: Literal["AA", "D"]
    batteries_count: int = Field(ge=1, le=2)


class IndicatorWidget(WireModel):
    name: Literal["Indicator"] = "Indicator"
    position: EdgeSide
    label: str = Field(min_length=3, max_length=3)
    light_activated: bool


class PortWidget(WireModel):
    """A port plate; an empty list is an empty plate."""

    name: Literal["Port"] = "Port"
    position: EdgeSide
    port_type: list[PortType] = Field(default_factory=list)


Widget = Annotated[
    SerialNumberWidget | BatteryWidget | IndicatorWidget | PortWidget,
    Field(discriminator="name"),
]

# --------------------------------------------------------------------------- modules


class ModuleBase(WireModel):
    """Fields common to every module. ``index`` is the nearest anchor slot (0–5) on its face."""

    on_front: bool
    index: int = Field(ge=0, le=5)
    is_solved: bool = False
    in_focus: bool = False


class Wire(WireModel):
    position: int = Field(ge=0, le=5)
    is_cut: bool = False
    color: WireColor


class WiresModule(ModuleBase):
    name: Literal["Wires"] = "Wires"
    wires: list[Wire | None] = Field(min_length=1, max_length=6)


class BigButtonModule(ModuleBase):
    name: Literal["BigButton"] = "BigButton"
    button_color: ButtonColor
    button_word: ButtonWord
    is_held: bool = False
    strip_color: Literal["red", "blue", "yellow", "white"] | None = None


class KeypadKey(WireModel):
    symbol: KeypadSymbol
    color: Literal["green", "red"] | None = None


class KeypadModule(ModuleBase):
    name: Literal["Keypad"] = "Keypad"
    top_left: KeypadKey
    top_right: KeypadKey
    bottom_left: KeypadKey
    bottom_right: KeypadKey


class SimonModule(ModuleBase):
    name: Literal["Simon"] = "Simon"
    beep_sequence: list[SimonColor] = Field(min_length=1, max_length=6)
    solve_progress: int = Field(ge=0, le=5)


class WhosOnFirstModule(ModuleBase):
    name: Literal["WhosOnFirst"] = "WhosOnFirst"
    display_word: str | None = None
    button_words: list[str] | None = None
    stage: int = Field(ge=1, le=4)
    is_emerged: bool = True


def _int_or_none(value: Any) -> Any:
    if value is None or value == "":
        return None
    return int(value)


class MemoryModule(ModuleBase):
    name: Literal["Memory"] = "Memory"
    display_number: Annotated[int | None, BeforeValidator(_int_or_none)] = None
    button_numbers: list[Annotated[int, BeforeValidator(int)]] | None = None
    stage: int = Field(ge=0, le=5)
    is_emerged: bool = True

    def to_wire(self) -> dict[str, Any]:
        data = super().to_wire()
        # The mod sends Memory's numbers as strings.
        if data["displayNumber"] is not None:
            data["displayNumber"] = str(data["displayNumber"])
        if data["buttonNumbers"] is not None:
            data["buttonNumbers"] = [str(n) for n in data["buttonNumbers"]]
        return data


class MorseModule(ModuleBase):
    """Frequencies are the kHz suffix of 3.5xx MHz (e.g. ``505.0`` = 3.505 MHz)."""

    name: Literal["Morse"] = "Morse"
    sequence: str
    current_frequency: float
    correct_frequency: float


class VennWire(WireModel):
    position: int = Field(ge=0, le=5)
    is_cut: bool = False
    color: VennColor
    is_led_on: bool
    has_star: bool


class VennModule(ModuleBase):
    name: Literal["Venn"] = "Venn"
    wires: list[VennWire | None] = Field(min_length=1, max_length=6)


class SequenceWire(WireModel):
    """Slot i (0–11, global) belongs to panel i // 3 + 1."""

    start_position_number: int = Field(ge=0, le=11)
    end_position_letter: Literal["A", "B", "C"]
    color: SequenceColor
    is_cut: bool = False


class WireSequenceModule(ModuleBase):
    name: Literal["WireSequence"] = "WireSequence"
    panel: int = Field(ge=1, le=5)
    wires: list[SequenceWire | None] = Field(max_length=12)
    is_emerged: bool = True


class MazeCell(WireModel):
    """0-based, (0, 0) is the top-left cell."""

    row: int = Field(ge=0, le=5)
    column: int = Field(ge=0, le=5)


class MazeModule(ModuleBase):
    name: Literal["Maze"] = "Maze"
    num_rows: int = 6
    num_columns: int = 6
    square_position: MazeCell
    triangle_position: MazeCell
    circle_positions: list[MazeCell] = Field(min_length=2, max_length=2)


class PasswordModule(ModuleBase):
    name: Literal["Password"] = "Password"
    current_word: str = Field(min_length=5, max_length=5)
    goal_word: str = Field(min_length=5, max_length=5)


ModuleState = Annotated[
    WiresModule
    | BigButtonModule
    | KeypadModule
    | SimonModule
    | WhosOnFirstModule
    | MemoryModule
    | MorseModule
    | VennModule
    | WireSequenceModule
    | MazeModule
    | PasswordModule,
    Field(discriminator="name"),
]

_Kind = TypeVar("_Kind", bound=ModuleBase)


def state_as(module: ModuleBase, kind: type[_Kind]) -> _Kind:
    """``module`` as the state class its kind implies (``state_as(m, WiresModule).wires``);
    a TypeError names both kinds when ``module`` is another kind's state."""
    if not isinstance(module, kind):
        raise TypeError(f"expected a {kind.__name__} state, got {type(module).__name__}")
    return module


# --------------------------------------------------------------------------- bomb


def timer_text(seconds: float) -> str:
    """The bomb timer as the game displays it: ``MM:SS`` from 60 s up, ``SS.hh`` below; digits
    are truncated, never rounded up."""
    seconds = max(0.0, seconds)
    if seconds >= 60:
        whole = int(seconds)
        return f"{whole // 60:02d}:{whole % 60:02d}"
    hundredths = int(seconds * 100 + 1e-9)
    return f"{hundredths // 100:02d}.{hundredths % 100:02d}"


class TimerState(WireModel):
    """``seconds_remaining`` is game time on the bomb clock, clamped at 0."""

    name: Literal["Timer"] = "Timer"
    seconds_remaining: float
    on_front: bool
    index: int = Field(ge=0, le=5)

    @field_validator("seconds_remaining")
    @classmethod
    def _clamp(cls, value: float) -> float:
        return max(0.0, value)


class BombState(WireModel):
    """The whole ``/state`` document."""

    seed: int
    max_strikes: int = Field(ge=1)
    is_detonated: bool = False
    is_solved: bool = False
    is_light_on: bool = True
    bomb_side: BombSide = "front"
    timer_module: TimerState
    widgets: Annotated[list[Widget], BeforeValidator(_json_string)] = Field(default_factory=list)
    modules: Annotated[list[ModuleState], BeforeValidator(_json_string)] = Field(
        default_factory=list
    )
    strikes: Annotated[list[str], BeforeValidator(_json_string)] = Field(default_factory=list)

    def to_wire(self) -> dict[str, Any]:
        # Each widget and module as its own kind writes it (Memory's numbers as strings).
        data = self.wire_parts()
        data["widgets"] = [w.to_wire() for w in self.widgets]
        data["modules"] = [m.to_wire() for m in self.modules]
        return data

    def wire_parts(self) -> dict[str, Any]:
        """``to_wire()``'s object, keys in the same order, with each widget and module left as
        its model (its ``to_wire()`` is its object), for a writer that keeps a model's text."""
        data = self.model_dump(
            by_alias=True, mode="json", exclude={"widgets", "modules", "strikes"}
        )
        data["widgets"] = list(self.widgets)
        data["modules"] = list(self.modules)
        data["strikes"] = list(self.strikes)
        return data

    @property
    def all_solved(self) -> bool:
        """GPTNT also treats "every module solved" as solved."""
        return self.is_solved or (bool(self.modules) and all(m.is_solved for m in self.modules))

    @property
    def focused(self) -> ModuleState | None:
        """The module zoomed into, if any."""
        return next((m for m in self.modules if m.in_focus), None)
