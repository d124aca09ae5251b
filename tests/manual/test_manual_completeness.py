"""Every table of the ruleset appears in the text of its module's page of the generated manual
(the page the official manual has it on), and a changed table changes the manual. The checks
read the tables from ``gptnt.rules`` and look for them in the page text; the mazes are even
parsed back from their text drawing; the edgework the rules consult is on the introduction and
the appendix pages. They run for the v1 manual
and for the manual of rule seed 1764 (with the fixture word pools)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import get_args

import pytest

from gptnt.manual import Manual, build_manual
from gptnt.manual._general_sections import INDICATOR_LABELS
from gptnt.manual._generate import generate, outline_text
from gptnt.manual._structure import BATTERIES, INDICATORS, INTRODUCTION, PARTS, PORTS
from gptnt.manual.modules._words import edgework_condition as _edgework_condition
from gptnt.manual.modules.big_button import moment as _moment
from gptnt.manual.modules.venn import VENN_LETTERS
from gptnt.protocol import PortType
from gptnt.rules.modules import big_button, keypad, maze, memory, wires
from gptnt.rules.ruleset import V1, Ruleset, ruleset

POOLS = (
    Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "ruleseed" / "pools.json"
)


@pytest.fixture(scope="module", params=[1, 1764], ids=lambda s: f"seed-{s}")
def seeded(request: pytest.FixtureRequest, v1_manual: Manual) -> tuple[Ruleset, Manual]:
    if request.param == 1:
        return V1, v1_manual
    if not POOLS.is_file():
        pytest.skip(f"{POOLS} absent (needs ../shared/fixtures)")
    return ruleset(request.param, pools=POOLS), build_manual(request.param, pools=POOLS)


@pytest.fixture(scope="module")
def rules(seeded: tuple[Ruleset, Manual]) -> Ruleset:
    return seeded[0]


@pytest.fixture(scope="module")
def manual(seeded: tuple[Ruleset, Manual]) -> Manual:
    return seeded[1]


def on_pages(manual: Manual, key: str) -> str:
    """The text of the pages the structure gives ``key`` (a kind or an appendix): each rule
    must be found on its own module's page, as on the official manual's."""
    wanted = PARTS[key].pages
    text = "\n".join(p.text for p in manual.pages if p.number in wanted)
    assert text, f"no page {wanted} in the manual"
    return text


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()]


def test_every_keypad_column_in_order(manual: Manual, rules: Ruleset) -> None:
    text = on_pages(manual, "Keypad")
    for i, column in enumerate(rules.keypad.columns, 1):
        line = next(line for line in lines(text) if line.startswith(f"Column {i}: "))
        glyphs = re.findall(r"(\S) \(([a-z-]+)\)", line)
        assert glyphs == [(keypad.GLYPHS[s], s) for s in column]


def test_every_password_word(manual: Manual, rules: Ruleset) -> None:
    text = on_pages(manual, "Password")
    for word in rules.password.words:
        assert re.search(rf"\b{word}\b", text), word


def test_every_whos_on_first_list_and_display(manual: Manual, rules: Ruleset) -> None:
    text = on_pages(manual, "WhosOnFirst")
    for label, order in rules.whos_on_first.priority.items():
        assert f"{label} | {', '.join(order)}" in lines(text)
    positions = (
        "top-left",
        "top-right",
        "middle-left",
        "middle-right",
        "bottom-left",
        "bottom-right",
    )
    for word, pos in rules.whos_on_first.display_position.items():
        shown = f'"{word}"' if word else "empty"
        assert f"Display {shown}: read the {positions[pos]} button" in lines(text)


def test_every_venn_cell(manual: Manual, rules: Ruleset) -> None:
    text = on_pages(manual, "Venn")
    rows = {
        "no red, no blue": (False, False),
        "red only": (True, False),
        "blue only": (False, True),
        "red and blue": (True, True),
    }
    header = next(line for line in lines(text) if line.startswith("wire | "))
    columns = [(c.startswith("star"), c.endswith("on")) for c in header.split(" | ")[1:]]
    seen = 0
    for line in lines(text):
        name, *letters = line.split(" | ")
        if name in rows and len(letters) == 4:
            for (star, led), letter in zip(columns, letters, strict=True):
                instruction = rules.venn.instruction((*rows[name], star, led))
                assert VENN_LETTERS[instruction][0] == letter
                seen += 1
    assert seen == 16
    for letter, meaning in VENN_LETTERS.values():
        assert f"{letter}: {meaning}" in text


def test_every_morse_word_frequency_and_letter(manual: Manual, rules: Ruleset) -> None:
    text = on_pages(manual, "Morse")
    for word, freq in rules.morse.words:
        assert re.search(rf"\b{word} \| 3\.{freq:03d} MHz", text), word
    for char, code in rules.morse.alphabet:
        assert re.search(rf"(?<!\S){re.escape(char)} {re.escape(code)}(?!\S)", text), char


def test_every_simon_row(manual: Manual, rules: Ruleset) -> None:
    text = on_pages(manual, "Simon")
    for (vowel, row), mapping in rules.simon.table.items():
        title = "Serial number contains a vowel" if vowel else "Serial number has no vowel"
        section = text.split(title, 1)[1]
        expected = " | ".join(mapping[c].capitalize() for c in ("red", "blue", "green", "yellow"))
        row_line = next(line for line in lines(section) if line.startswith(f"{row} "))
        assert row_line.endswith(expected)


def test_every_memory_stage(manual: Manual, rules: Ruleset) -> None:
    text = on_pages(manual, "Memory")
    for s, choices in enumerate(rules.memory.stages, 1):
        row = next(line for line in lines(text) if line.startswith(f"Stage {s} | "))
        cells = row.split(" | ")[1:]
        for choice, cell in zip(choices, cells, strict=True):
            match choice:
                case memory.AtPosition(p):
                    assert cell == f"Press the button in position {p}."
                case memory.WithLabel(label):
                    assert cell == f'Press the button labelled "{label}".'
                case memory.PositionOfStage(k):
                    assert "same position" in cell and cell.endswith(f"stage {k}.")
                case memory.LabelOfStage(k):
                    assert "same label" in cell and cell.endswith(f"stage {k}.")


def test_every_wire_sequence_cell(manual: Manual, rules: Ruleset) -> None:
    text = on_pages(manual, "WireSequence")
    table = dict(rules.wire_sequence.cut_letters)
    rows = [
        line
        for line in lines(text)
        if line.endswith("wire of its colour") is False and " wire of its colour | " in line
    ]
    assert len(rows) == max(len(v) for v in table.values())
    for n, row in enumerate(rows):
        cells = row.split(" | ")[1:]
        assert cells == [", ".join(table[c][n]) or "none" for c in table]


def test_every_wires_rule(manual: Manual, rules: Ruleset) -> None:
    text = on_pages(manual, "Wires")
    for count, rule_list in rules.wires.by_count.items():
        section = text.split(f"\n{count} wires\n", 1)[1]
        items = [line.split(". ", 1)[1] for line in lines(section) if re.match(r"^\d+\. ", line)][
            : len(rule_list)
        ]
        for rule, item in zip(rule_list, items, strict=True):
            match rule.cut:
                case wires.CutNth(n):
                    word = (
                        "last"
                        if n == -1
                        else ("first", "second", "third", "fourth", "fifth")[n - 1]
                    )
                    assert item.endswith(f"cut the {word} wire."), item
                case wires.CutLastOf(color):
                    assert item.endswith(f"cut the lowest {color} wire."), item
                case wires.CutFirstOf(color):
                    assert item.endswith(f"cut the highest {color} wire."), item
                case wires.CutOnlyOf(color):
                    assert item.endswith(f"cut the {color} wire."), item
            assert item.startswith("In every other case") == (not rule.when)
            for condition in rule.when:
                if isinstance(condition, wires.ColorCount | wires.LastWireIs):
                    assert f" {condition.color} wire" in item or f"is {condition.color}" in item
                else:
                    assert _edgework_condition(condition) in item


def test_every_button_rule(manual: Manual, rules: Ruleset) -> None:
    text = on_pages(manual, "BigButton")
    for colour, timing in rules.big_button.strip_release.items():
        assert f"{colour} strip | {_moment(timing)}" in text
    assert f"any other colour | {_moment(rules.big_button.other_release)}" in text
    items = [line for line in lines(text) if re.match(r"^\d+\. If ", line)]
    for rule in rules.big_button.rules:
        wanted = [
            f"the button is {c.color}"
            if isinstance(c, big_button.ColorIs)
            else f'the label says "{c.word}"'
            if isinstance(c, big_button.WordIs)
            else _edgework_condition(c)
            for c in rule.when
        ]
        assert any(all(w.upper() in item.upper() for w in wanted) for item in items), rule


def test_the_edgework_the_rules_consult_is_on_its_pages(manual: Manual, rules: Ruleset) -> None:
    intro = on_pages(manual, INTRODUCTION)
    assert "serial number" in intro and "A, E, I, O and U" in intro  # Wires, Simon, Venn
    indicators = on_pages(manual, INDICATORS)
    for label in INDICATOR_LABELS:
        assert label in indicators
    looked_at = {
        c.label
        for r in rules.big_button.rules
        for c in r.when
        if isinstance(c, big_button.LitIndicator)
    }
    assert (
        f"Indicators this manual's rules look at: {', '.join(sorted(looked_at)) or 'none'}."
        in indicators
    )
    batteries = on_pages(manual, BATTERIES)
    assert "one large D battery or two slim AA batteries" in batteries
    ports = on_pages(manual, PORTS)
    for port in get_args(PortType):
        assert port in ports
    button, venn_page = on_pages(manual, "BigButton"), on_pages(manual, "Venn")
    assert "Appendix A (page 21)" in button and "Appendix B (page 22)" in button
    assert "Appendix B (page 22)" in venn_page and "Appendix C (page 23)" in venn_page


def _parse_maze(drawing: list[str]) -> maze.Maze:
    """Walls and circles back from the text drawing of one maze."""
    n = (len(drawing) - 1) // 2
    rows = drawing[1::2]
    right = tuple(tuple(int(row[4 * c + 4] == "|") for c in range(n - 1)) for row in rows)
    circles = tuple((r, c) for r, row in enumerate(rows) for c in range(n) if row[4 * c + 2] == "O")
    down = tuple(
        tuple(int(drawing[2 * r + 2][4 * c + 1 : 4 * c + 4] == "---") for c in range(n))
        for r in range(n - 1)
    )
    return maze.Maze(right, down, circles)  # type: ignore[arg-type]


def test_every_maze_round_trips_from_its_text(manual: Manual, rules: Ruleset) -> None:
    text = on_pages(manual, "Maze")
    all_lines = text.splitlines()
    for k, expected in enumerate(rules.maze.mazes, 1):
        start = all_lines.index(f"Maze {k}")
        drawing = all_lines[start + 1 : start + 2 + 2 * expected.size]
        parsed = _parse_maze(drawing)
        assert parsed.right_walls == expected.right_walls
        assert parsed.down_walls == expected.down_walls
        assert set(parsed.circles) == set(expected.circles)


# ---------------------------------------------------------------------------- changes show


def _changed(rules: Ruleset, **tables: object) -> Ruleset:
    return dataclasses.replace(rules, **tables)


@pytest.mark.parametrize(
    "mutation",
    [
        lambda r: _changed(
            r, password=dataclasses.replace(r.password, words=(*r.password.words[:-1], "ZEBRA"))
        ),
        lambda r: _changed(
            r,
            keypad=dataclasses.replace(
                r.keypad, columns=(tuple(reversed(r.keypad.columns[0])), *r.keypad.columns[1:])
            ),
        ),
        lambda r: _changed(r, maze=dataclasses.replace(r.maze, mazes=r.maze.mazes[::-1])),
        lambda r: _changed(
            r,
            whos_on_first=dataclasses.replace(
                r.whos_on_first,
                priority={
                    **r.whos_on_first.priority,
                    "READY": r.whos_on_first.priority["READY"][::-1],
                },
            ),
        ),
        lambda r: _changed(
            r,
            venn=dataclasses.replace(
                r.venn, diagram=((r.venn.diagram[0][0], "dont_cut"), *r.venn.diagram[1:])
            ),
        ),
        lambda r: _changed(
            r, morse=dataclasses.replace(r.morse, words=(("shelf", 505), *r.morse.words[1:]))
        ),
        lambda r: _changed(
            r,
            memory=dataclasses.replace(
                r.memory, stages=(r.memory.stages[0][::-1], *r.memory.stages[1:])
            ),
        ),
        lambda r: _changed(
            r,
            simon=dataclasses.replace(
                r.simon,
                table={
                    **r.simon.table,
                    (True, 0): {"red": "green", "blue": "red", "green": "yellow", "yellow": "blue"},
                },
            ),
        ),
        lambda r: _changed(
            r,
            wire_sequence=dataclasses.replace(
                r.wire_sequence, cut_letters=r.wire_sequence.cut_letters[::-1]
            ),
        ),
        lambda r: _changed(
            r,
            wires=dataclasses.replace(
                r.wires, by_count={**r.wires.by_count, 3: r.wires.by_count[3][1:]}
            ),
        ),
        lambda r: _changed(
            r,
            big_button=dataclasses.replace(
                r.big_button, other_release=dataclasses.replace(r.big_button.other_release, digit=7)
            ),
        ),
    ],
    ids=[
        "password",
        "keypad",
        "maze",
        "wof",
        "venn",
        "morse",
        "memory",
        "simon",
        "wireseq",
        "wires",
        "button",
    ],
)
def test_changing_a_table_changes_the_manual(mutation: Callable[[Ruleset], Ruleset]) -> None:
    assert outline_text(mutation(V1)) != outline_text(V1)


def test_a_changed_password_list_reaches_the_pages(v1_manual: Manual) -> None:
    words = (*V1.password.words[:-1], "ZEBRA")
    changed = generate(_changed(V1, password=dataclasses.replace(V1.password, words=words)))
    assert "ZEBRA" in changed.text and "ZEBRA" not in v1_manual.text
    assert changed.identity != v1_manual.identity
    page = next(p for p in changed.pages if p.title == "Passwords")
    old = next(p for p in v1_manual.pages if p.title == "Passwords")
    assert page.png() != old.png()
