"""A realistic ``/state`` document with every module and widget type, as the mod emits it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from gptnt.protocol import (
    MODULE_KINDS,
    BatteryWidget,
    BigButtonModule,
    BombState,
    IndicatorWidget,
    KeypadModule,
    MazeModule,
    MemoryModule,
    MorseModule,
    PasswordModule,
    PortWidget,
    SerialNumberWidget,
    SimonModule,
    VennModule,
    WhosOnFirstModule,
    WireSequenceModule,
    WiresModule,
)

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def camel() -> BombState:
    return BombState.model_validate_json((DATA / "bomb_state.json").read_text())


def _module(state: BombState, kind: type):
    (found,) = [m for m in state.modules if isinstance(m, kind)]
    return found


def test_every_module_kind_present(camel: BombState) -> None:
    assert sorted(m.name for m in camel.modules) == sorted(MODULE_KINDS)


def test_top_level(camel: BombState) -> None:
    assert camel.seed == 851 and camel.max_strikes == 3 and camel.bomb_side == "front"
    assert camel.timer_module.seconds_remaining == pytest.approx(287.53125)
    assert camel.timer_module.index == 1 and camel.timer_module.on_front
    assert camel.strikes == ["Wires", "Keypad"]
    assert not camel.all_solved
    assert isinstance(camel.focused, WiresModule)


def test_widgets(camel: BombState) -> None:
    kinds = [type(w) for w in camel.widgets]
    assert kinds.count(SerialNumberWidget) == 1
    assert kinds.count(BatteryWidget) == 2 and kinds.count(IndicatorWidget) == 2
    batteries = {w.battery_type: w.batteries_count for w in camel.widgets if w.name == "Battery"}
    assert batteries == {"AA": 2, "D": 1}
    ports = [w.port_type for w in camel.widgets if isinstance(w, PortWidget)]
    assert [] in ports and ["DVI-D", "Stereo RCA"] in ports
    lit = {w.label: w.light_activated for w in camel.widgets if isinstance(w, IndicatorWidget)}
    assert lit == {"FRK": True, "CAR": False}


def test_wires_keep_null_slots(camel: BombState) -> None:
    wires = _module(camel, WiresModule)
    assert [w.color if w else None for w in wires.wires] == [
        "red",
        None,
        "white",
        "black",
        None,
        "yellow",
    ]
    assert wires.wires[2].is_cut and wires.in_focus and wires.on_front and wires.index == 0


def test_button_keypad_simon(camel: BombState) -> None:
    button = _module(camel, BigButtonModule)
    assert (button.button_color, button.button_word) == ("blue", "Abort")
    assert button.is_held and button.strip_color == "yellow"
    keypad = _module(camel, KeypadModule)
    assert keypad.top_left.symbol == "copyright" and keypad.top_left.color == "green"
    assert keypad.top_right.color is None and keypad.bottom_left.color == "red"
    simon = _module(camel, SimonModule)
    assert simon.beep_sequence[:2] == ["red", "green"] and simon.solve_progress == 2


def test_whos_on_first_empty_display_is_valid(camel: BombState) -> None:
    wof = _module(camel, WhosOnFirstModule)
    assert wof.display_word == "" and wof.button_words[3] == "YOU'RE" and wof.stage == 2


def test_memory_numbers_are_coerced_from_strings(camel: BombState) -> None:
    memory = _module(camel, MemoryModule)
    assert memory.display_number == 3 and memory.button_numbers == [4, 1, 3, 2]
    assert not memory.on_front and memory.index == 0  # back face, index 0
    wire = memory.to_wire()
    assert wire["displayNumber"] == "3" and wire["buttonNumbers"] == ["4", "1", "3", "2"]


def test_morse_venn_sequence_maze_password(camel: BombState) -> None:
    morse = _module(camel, MorseModule)
    assert morse.sequence == "boxes" and morse.correct_frequency == 535.0
    venn = _module(camel, VennModule)
    assert venn.wires[0] is None and venn.wires[1].color == "red, white"
    assert venn.wires[2].has_star and not venn.wires[2].is_led_on
    seq = _module(camel, WireSequenceModule)
    assert seq.panel == 2 and len(seq.wires) == 12
    assert seq.wires[8].start_position_number == 8 and seq.wires[8].end_position_letter == "A"
    maze = _module(camel, MazeModule)
    assert (maze.square_position.row, maze.square_position.column) == (0, 5)
    assert len(maze.circle_positions) == 2
    password = _module(camel, PasswordModule)
    assert password.goal_word == "PLANT" and password.is_solved


def test_snake_case_record_variant_parses_the_same(camel: BombState) -> None:
    raw = json.loads((DATA / "bomb_state_snake.json").read_text())
    assert isinstance(raw["widgets"], str)  # harness records store lists as JSON strings
    assert BombState.model_validate(raw) == camel


def test_wire_form_round_trips(camel: BombState) -> None:
    wire = camel.to_wire()
    assert "timerModule" in wire and "maxStrikes" in wire
    assert BombState.model_validate(json.loads(json.dumps(wire))) == camel


def test_unknown_module_name_is_refused() -> None:
    raw = json.loads((DATA / "bomb_state.json").read_text())
    raw["modules"][0]["name"] = "Piano Keys"
    with pytest.raises(ValidationError):
        BombState.model_validate(raw)
