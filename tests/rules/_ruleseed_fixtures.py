"""The rule-seed fixture tables (``../shared/fixtures/ruleseed``) read into our rule dataclasses.

The fixtures are the community site's rendered tables; they are not ours, so they are read in
place and the tests skip when the folder is absent. Each reader turns one fixture block into the
``<X>Rules`` value a correct port must produce (Maze circles compare as sets: the site does not
order them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gptnt.rules._edgework import (
    BatteriesAbove,
    EmptyPortPlate,
    LitIndicator,
    PortPresent,
    SerialOdd,
    SerialStartsWithLetter,
)
from gptnt.rules._steps import Timing
from gptnt.rules.modules import (
    big_button,
    keypad,
    maze,
    memory,
    password,
    simon,
    venn,
    whos_on_first,
    wire_sequence,
    wires,
)
from gptnt.rules.ruleseed.keypad import SYMBOLS
from gptnt.rules.ruleseed.venn import LETTERS

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO.parent / "shared" / "fixtures" / "ruleseed"
SEEDS = (1, 2, 3, 42, 1764)
# fixture module key → Ruleset field
STEMS = {
    "wires": "wires", "the_button": "big_button", "keypad": "keypad", "simon_says": "simon",
    "whos_on_first": "whos_on_first", "memory": "memory", "maze": "maze",
    "morse_code": "morse", "complicated_wires": "venn", "wire_sequence": "wire_sequence",
    "password": "password",
}  # fmt: skip
_PORT = {"parallel": "Parallel", "serial": "Serial"}


def fixture(name: str) -> dict[str, Any]:
    path = FIXTURES / name
    if not path.is_file():
        pytest.skip(f"{path} absent (needs ../shared/fixtures)")
    return json.loads(path.read_text(encoding="utf-8"))


def pools_path() -> Path:
    path = FIXTURES / "pools.json"
    if not path.is_file():
        pytest.skip(f"{path} absent (needs ../shared/fixtures)")
    return path


def _edge(c: dict[str, Any]) -> Any:
    match c["type"]:
        case "serial_starts_with_letter":
            return SerialStartsWithLetter()
        case "serial_last_digit_odd":
            return SerialOdd()
        case "port_present":
            return PortPresent(_PORT.get(c["port"], c["port"]))
        case "empty_port_plate":
            return EmptyPortPlate()
        case "more_than_n_batteries":
            return BatteriesAbove(c["n"])
        case "lit_indicator":
            return LitIndicator(c["label"])
    raise AssertionError(c)


def _wires_condition(c: dict[str, Any]) -> wires.Condition:
    match c["type"]:
        case "exactly_one_color":
            return wires.ColorCount(c["color"], "eq", 1)
        case "no_color":
            return wires.ColorCount(c["color"], "eq", 0)
        case "more_than_one_color":
            return wires.ColorCount(c["color"], "gt", 1)
        case "last_wire_is_color":
            return wires.LastWireIs(c["color"])
    return _edge(c)


def _wires_cut(a: dict[str, Any]) -> wires.Cut:
    match a["type"]:
        case "cut_position":
            return wires.CutNth(a["position"])
        case "cut_last":
            return wires.CutNth(-1)
        case "cut_the_one_of_color":
            return wires.CutOnlyOf(a["color"])
        case "cut_first_of_color":
            return wires.CutFirstOf(a["color"])
        case "cut_last_of_color":
            return wires.CutLastOf(a["color"])
    raise AssertionError(a)


def _wires(block: dict[str, Any]) -> wires.WiresRules:
    return wires.WiresRules(
        by_count={
            int(n): tuple(
                wires.WireRule(
                    tuple(_wires_condition(c) for c in r["conditions"]), _wires_cut(r["action"])
                )
                for r in rules
            )
            for n, rules in block.items()
        }
    )


def _button_condition(c: dict[str, Any]) -> big_button.Condition:
    match c["type"]:
        case "button_color":
            return big_button.ColorIs(c["color"])
        case "button_label":
            return big_button.WordIs(c["label"])
    return _edge(c)


def _timing(a: dict[str, Any]) -> Timing:
    return Timing(a["type"], a.get("digit"))


def _button(block: dict[str, Any]) -> big_button.ButtonRules:
    *rules, last = block["rules"]
    assert last["conditions"] == []
    holds = block["hold_rules"]
    assert holds[-1]["strip"] is None
    return big_button.ButtonRules(
        rules=tuple(
            big_button.ButtonRule(
                tuple(_button_condition(c) for c in r["conditions"]), r["action"]["type"]
            )
            for r in rules
        ),
        otherwise=last["action"]["type"],
        strip_release={h["strip"]: _timing(h["action"]) for h in holds[:-1]},
        other_release=_timing(holds[-1]["action"]),
    )


def _keypad(block: dict[str, Any]) -> keypad.KeypadRules:
    return keypad.KeypadRules(
        columns=tuple(tuple(SYMBOLS[n - 1] for n in col) for col in block["columns_symbol_numbers"])
    )


def _simon(block: dict[str, Any]) -> simon.SimonRules:
    table = {}
    for vowel, key in ((True, "has_vowel"), (False, "no_vowel")):
        for strikes, row in enumerate(block[key]):
            table[(vowel, strikes)] = dict(row)
    return simon.SimonRules(table=table, max_strike_row=2)


def _whos_on_first(block: dict[str, Any]) -> whos_on_first.WhosOnFirstRules:
    return whos_on_first.WhosOnFirstRules(
        display_position={e["display"]: e["position"] for e in block["step1"]},
        priority={label: tuple(words) for label, words in block["step2"].items()},
        button_groups=whos_on_first.V1.button_groups,
    )


def _memory(block: dict[str, Any]) -> memory.MemoryRules:
    def choice(e: dict[str, Any]) -> memory.Choice:
        match e["type"]:
            case "position":
                return memory.AtPosition(e["position"])
            case "label":
                return memory.WithLabel(e["label"])
            case "same_position_as_stage":
                return memory.PositionOfStage(e["stage"])
            case "same_label_as_stage":
                return memory.LabelOfStage(e["stage"])
        raise AssertionError(e)

    return memory.MemoryRules(stages=tuple(tuple(choice(e) for e in s) for s in block["stages"]))


def maze_key(m: maze.Maze) -> tuple[object, ...]:
    """A maze with its circles as a set (the fixtures list them in the site's order)."""
    return (m.right_walls, m.down_walls, frozenset(m.circles))


def _maze(block: dict[str, Any]) -> tuple[tuple[object, ...], ...]:
    out = []
    for m in block["mazes"]:
        walls = m["walls"]
        right = tuple(tuple(int("R" in walls[r][c]) for c in range(5)) for r in range(6))
        down = tuple(tuple(int("D" in walls[r][c]) for c in range(6)) for r in range(5))
        circles = frozenset((c["row"], c["col"]) for c in m["circles"])
        out.append((right, down, circles))
    return tuple(out)


def _morse(block: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    return tuple((e["word"], int(e["frequency_mhz"].removeprefix("3."))) for e in block["table"])


def _venn(block: dict[str, Any]) -> venn.VennRules:
    return venn.VennRules(
        diagram=tuple(
            ((bool(i & 8), bool(i & 4), bool(i & 2), bool(i & 1)), LETTERS[letter])
            for i, letter in enumerate(block["by_index"])
        )
    )


def _wire_sequence(block: dict[str, Any]) -> wire_sequence.WireSequenceRules:
    return wire_sequence.WireSequenceRules(
        cut_letters=tuple(
            (color, tuple("".join(x) for x in block[color])) for color in ("red", "blue", "black")
        )
    )


def _password(block: dict[str, Any]) -> password.PasswordRules:
    return password.PasswordRules(words=tuple(sorted(w.upper() for w in block["words"])))


READERS = {
    "wires": _wires, "big_button": _button, "keypad": _keypad, "simon": _simon,
    "whos_on_first": _whos_on_first, "memory": _memory, "maze": _maze, "morse": _morse,
    "venn": _venn, "wire_sequence": _wire_sequence, "password": _password,
}  # fmt: skip


def comparable(stem: str, tables: object) -> object:
    """Our tables in the form the fixture readers give (mazes keyed, Morse as its table)."""
    if stem == "maze":
        return tuple(maze_key(m) for m in tables.mazes)  # type: ignore[attr-defined]
    if stem == "morse":
        return tables.words  # type: ignore[attr-defined]
    return tables


def expected(seed_file: dict[str, Any], stem: str) -> object:
    key = next(k for k, s in STEMS.items() if s == stem)
    return READERS[stem](seed_file[key])


def draws(seed_file: dict[str, Any], stem: str) -> int:
    key = next(k for k, s in STEMS.items() if s == stem)
    return seed_file["rng_draws"][key]
