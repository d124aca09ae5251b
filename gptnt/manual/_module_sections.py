"""One manual section per module kind, written from that module's rule tables.

Every sentence that states a rule is produced from the ``<X>Rules`` value of the ruleset (the
small condition vocabularies of Wires and The Button are phrased by ``match`` on their types),
so a ruleset with other tables yields a manual with other rules. The wording is ours.
"""

from __future__ import annotations

from collections.abc import Callable

from gptnt.manual import _figures as fig
from gptnt.manual import _venn_figures as venn_fig
from gptnt.manual._layout import Block, Bullets, Heading, PageBreak, Paragraph, Section, Table
from gptnt.rules.modules import (
    big_button,
    keypad,
    maze,
    memory,
    morse,
    password,
    simon,
    venn,
    whos_on_first,
    wire_sequence,
    wires,
)

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


def ordinal(n: int) -> str:
    """``1`` → "first"; ``-1`` → "last"."""
    return "last" if n == -1 else ORDINALS[n - 1]


def _count_words(n: int) -> str:
    return ("no", "one", "two", "three", "four", "five", "six")[n] if n <= 6 else str(n)


# ---------------------------------------------------------------------------- wires


def _wires_condition(c: wires.Condition) -> str:
    match c:
        case wires.ColorCount(color, "eq", 0):
            return f"there are no {color} wires"
        case wires.ColorCount(color, "eq", 1):
            return f"there is exactly one {color} wire"
        case wires.ColorCount(color, "eq", n):
            return f"there are exactly {_count_words(n)} {color} wires"
        case wires.ColorCount(color, "gt", 0):
            return f"there is at least one {color} wire"
        case wires.ColorCount(color, "gt", 1):
            return f"there is more than one {color} wire"
        case wires.ColorCount(color, "gt", n):
            return f"there are more than {_count_words(n)} {color} wires"
        case wires.LastWireIs(color):
            return f"the bottom wire is {color}"
        case wires.SerialOdd():
            return "the serial number ends in an odd digit"
    raise AssertionError(f"no wording for wires condition {c!r}")


def _wires_cut(c: wires.Cut) -> str:
    match c:
        case wires.CutNth(n):
            return f"cut the {ordinal(n)} wire"
        case wires.CutLastOf(color):
            return f"cut the lowest {color} wire"
    raise AssertionError(f"no wording for wires cut {c!r}")


def wires_section(rules: wires.WiresRules) -> Section:
    blocks: list[Block] = [
        Heading("Module: Wires"),
        Paragraph(
            "This module has several coloured wires stretched across it. Exactly one of them "
            "has to be cut. Cutting any other wire costs a strike."
        ),
        Paragraph(
            "Number the wires from the top down, counting only wires that are actually there "
            "(skip empty slots): the first wire is the highest one present, the last wire the "
            "lowest. Pick the list below for the number of wires, and read it from the top: "
            "the first rule whose conditions all hold tells you which wire to cut."
        ),
    ]
    for count, rule_list in sorted(rules.by_count.items()):
        items = []
        for rule in rule_list:
            if rule.when:
                cond = " and ".join(_wires_condition(c) for c in rule.when)
                items.append(f"If {cond}: {_wires_cut(rule.cut)}.")
            else:
                items.append(f"In every other case: {_wires_cut(rule.cut)}.")
        blocks += [Heading(f"{count} wires", level=2), Bullets(tuple(items), numbered=True)]
    return Section("Wires", tuple(blocks))


# ---------------------------------------------------------------------------- the button


def _button_condition(c: big_button.Condition) -> str:
    match c:
        case big_button.ColorIs(color):
            return f"the button is {color}"
        case big_button.WordIs(word):
            return f'the label says "{word.upper()}"'
        case big_button.BatteriesAbove(n):
            return f"the bomb carries more than {_count_words(n)} batter{'y' if n == 1 else 'ies'}"
        case big_button.LitIndicator(label):
            return f"a lit indicator labelled {label} is on the bomb"
    raise AssertionError(f"no wording for button condition {c!r}")


_BUTTON_ACTION = {
    "tap": "press it and let go at once",
    "hold": "press and keep holding it (see Holding the button)",
}


def button_section(rules: big_button.ButtonRules) -> Section:
    items = [
        f"If {' and '.join(_button_condition(c) for c in r.when)}: {_BUTTON_ACTION[r.action]}."
        for r in rules.rules
    ]
    items.append(f"In every other case: {_BUTTON_ACTION[rules.otherwise]}.")
    strip_rows = tuple(
        (f"{colour} strip", f"let go when the timer shows a {digit} in any position")
        for colour, digit in rules.strip_digit.items()
    ) + (
        ("any other colour", f"let go when the timer shows a {rules.other_digit} in any position"),
    )
    blocks: list[Block] = [
        Heading("Module: The Button"),
        Paragraph(
            "A single large coloured button with a word printed on it, and a narrow light strip "
            "beside it. Whether you tap it or hold it depends on the button and the bomb."
        ),
        Paragraph(
            "Go through these rules in order and follow the first one that applies (the "
            "button's label may be written in capitals on the module):"
        ),
        Bullets(tuple(items), numbered=True),
        Heading("Holding the button", level=2),
        Paragraph(
            "While the button is held down, the strip next to it lights up in one colour. "
            "The colour tells you when to let go: release the button at a moment when the "
            "countdown timer displays the digit below anywhere in its reading (minutes, "
            "seconds, or hundredths under one minute). Releasing at any other moment is a "
            "strike."
        ),
        Table(("Strip colour", "When to release"), strip_rows, weights=(1, 3), size=24),
    ]
    return Section("The Button", tuple(blocks))


# ---------------------------------------------------------------------------- keypad


def keypad_section(rules: keypad.KeypadRules) -> Section:
    columns = [[(keypad.GLYPHS.get(s, s), s) for s in col] for col in rules.columns]
    blocks: list[Block] = [
        Heading("Module: Keypad"),
        Paragraph(
            "Four square keys, each printed with a symbol. Exactly one of the columns below "
            "contains all four symbols. Press the four keys in the order in which their "
            "symbols appear in that column, from top to bottom. A key pressed out of turn is "
            "a strike; the keys already accepted stay accepted."
        ),
        Paragraph("Each symbol is shown with a short name to help you both agree on what you see."),
        fig.keypad_columns(columns),
    ]
    return Section("Keypad", tuple(blocks))


# ---------------------------------------------------------------------------- simon says


# Where the game places each Simon button (a fact of the module, not a rule).
SIMON_LAYOUT = (("blue", "top"), ("yellow", "right"), ("green", "bottom"), ("red", "left"))


def simon_section(rules: simon.SimonRules) -> Section:
    blocks: list[Block] = [
        Heading("Module: Simon Says"),
        Paragraph(
            "Four coloured buttons: blue at the top, yellow on the right, green at the bottom "
            "and red on the left. The module flashes a sequence of them. Answer each flash "
            "with the button the table gives for it, in the same order; then the sequence "
            "grows by one flash and you answer the whole sequence again from its start."
        ),
        Paragraph(
            "The table depends on whether the serial number contains a vowel and on how many "
            "strikes the bomb has when you press. A wrong press is a strike: start the "
            "current sequence over, using the row for the new strike count."
        ),
        fig.simon_buttons(SIMON_LAYOUT),
    ]
    last = rules.max_strike_row
    for vowel, title in (
        (True, "Serial number contains a vowel"),
        (False, "Serial number has no vowel"),
    ):
        colours = list(rules.table[(vowel, 0)])
        rows = tuple(
            (_strikes_label(strikes, last=strikes == last),)
            + tuple(rules.table[(vowel, strikes)][c].capitalize() for c in colours)
            for strikes in range(last + 1)
        )
        blocks += [
            Heading(title, level=2),
            Table(
                ("Strikes",) + tuple(f"{c.capitalize()} flash" for c in colours),
                rows,
                center=True,
                size=23,
            ),
        ]
    return Section("Simon Says", tuple(blocks))


def _strikes_label(n: int, *, last: bool) -> str:
    words = f"{n} strike{'' if n == 1 else 's'}"
    return f"{n} or more strikes" if last and n > 0 else words


# ---------------------------------------------------------------------------- who's on first

POSITION_NAMES = (
    "top-left",
    "top-right",
    "middle-left",
    "middle-right",
    "bottom-left",
    "bottom-right",
)


def whos_on_first_section(rules: whos_on_first.WhosOnFirstRules) -> Section:
    entries = list(rules.display_position.items())
    lists = list(rules.priority.items())
    blocks: list[Block] = [
        Heading("Module: Who's on First"),
        Paragraph(
            "A display at the top shows a word (or nothing at all), and six buttons in two "
            "columns and three rows carry words too. It takes three rounds:"
        ),
        Bullets(
            (
                (
                    "Step 1: look up the display in the pictures below; it tells you which of "
                    "the six buttons to read."
                ),
                (
                    "Step 2: find the word written on that button in the lists on the next "
                    "page. Go along its list and press the first word that is on one of the six "
                    "buttons."
                ),
                "Repeat with the new display and buttons until all three rounds are done.",
            ),
        ),
        Paragraph(
            'An empty display is not the same as a display showing the word "BLANK". Words '
            "are spelled exactly as written, including apostrophes and question marks."
        ),
        Heading("Step 1: which button to read", level=2),
        fig.display_positions(entries, POSITION_NAMES),
    ]
    # Step 2, one page per button word group (the six buttons always come from one group).
    grouped = [[(w, o) for w, o in lists if w in group] for group in rules.button_groups]
    grouped.append([(w, o) for w, o in lists if not any(w in g for g in rules.button_groups)])
    for k, group_lists in enumerate(g for g in grouped if g):
        blocks += [
            PageBreak(),
            Heading(f"Step 2: which button to press ({'continued' if k else 'part 1'})", level=2),
            Paragraph(
                "Find the word you read in step 1 in the left column. Go along its list "
                "from the left and press the first word that is on one of the buttons.",
                size=22,
            ),
            Table(
                ("Button read", "Words to look for, in order"),
                tuple((word, ", ".join(order)) for word, order in group_lists),
                weights=(1, 4.6),
                size=21,
            ),
        ]
    return Section("Who's on First", tuple(blocks))


# ---------------------------------------------------------------------------- memory


def memory_section(rules: memory.MemoryRules) -> Section:
    rows = [
        (f"Stage {s}", *(_memory_choice(c) for c in choices))
        for s, choices in enumerate(rules.stages, 1)
    ]
    displays = range(1, len(rules.stages[0]) + 1)
    blocks: list[Block] = [
        Heading("Module: Memory"),
        Paragraph(
            "A large display shows a number from 1 to 4, and four buttons below it are "
            "labelled 1 to 4 in some order. Positions count from the left: position 1 is the "
            "leftmost button. There are five stages; at each one, press one button as the "
            "table says."
        ),
        Paragraph(
            "Write down the position and the label of the button pressed at every stage: "
            "later stages refer to them. A wrong press is a strike and sends the module back "
            "to stage 1 with a fresh display."
        ),
        Paragraph("Find the row of the current stage and the column of the number on the display:"),
        Table(
            ("Stage",) + tuple(f"Display shows {d}" for d in displays),
            tuple(rows),
            weights=(0.55, 1, 1, 1, 1),
            size=21,
        ),
    ]
    return Section("Memory", tuple(blocks))


def _memory_choice(c: memory.Choice) -> str:
    match c:
        case memory.AtPosition(p):
            return f"Press the button in position {p}."
        case memory.WithLabel(label):
            return f'Press the button labelled "{label}".'
        case memory.PositionOfStage(s):
            return f"Press the button in the same position as the one you pressed in stage {s}."
        case memory.LabelOfStage(s):
            return f"Press the button with the same label as the one you pressed in stage {s}."
    raise AssertionError(f"no wording for memory choice {c!r}")


# ---------------------------------------------------------------------------- morse


def morse_section(rules: morse.MorseRules) -> Section:
    half = (len(rules.words) + 1) // 2
    left, right = rules.words[:half], rules.words[half:]
    rows = []
    for i in range(half):
        row = [left[i][0], _mhz(left[i][1])]
        row += [right[i][0], _mhz(right[i][1])] if i < len(right) else ["", ""]
        rows.append(tuple(row))
    blocks: list[Block] = [
        Heading("Module: Morse Code"),
        Paragraph(
            "A small light blinks a word in Morse code, over and over, with a longer pause "
            "before the word starts again. A short blink is a dot, a long one a dash. Decode "
            "the word, find it in the table, set the module to that frequency with its arrow "
            "buttons, and press the TX (transmit) button. Transmitting on any other frequency "
            "is a strike."
        ),
        Table(("Word", "Frequency", "Word", "Frequency"), tuple(rows), center=True, size=23),
        Heading("Morse code", level=2),
        fig.morse_chart(rules.alphabet),
    ]
    return Section("Morse Code", tuple(blocks))


def _mhz(freq: int) -> str:
    return f"3.{freq:03d} MHz"


# ---------------------------------------------------------------------------- complicated wires

# How the manual writes each instruction of the Venn vocabulary: a letter and what it means.
VENN_LETTERS: dict[venn.Instruction, tuple[str, str]] = {
    "cut": ("C", "cut the wire"),
    "dont_cut": ("D", "do not cut the wire"),
    "serial_even": ("S", "cut the wire if the serial number ends in an even digit"),
    "parallel_port": ("P", "cut the wire if the bomb has a parallel port"),
    "two_batteries": ("B", "cut the wire if the bomb carries two or more batteries"),
}


def _venn_words(red: bool, blue: bool, star: bool, led: bool) -> str:
    colour = {
        (False, False): "no red or blue",
        (True, False): "red only",
        (False, True): "blue only",
        (True, True): "red and blue",
    }[(red, blue)]
    return f"{colour} colouring, {'star' if star else 'no star'}, LED {'on' if led else 'off'}"


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def venn_section(rules: venn.VennRules) -> Section:
    cells = [(*f, VENN_LETTERS[i][0]) for f, i in rules.diagram]
    used = sorted({i for _, i in rules.diagram}, key=list(VENN_LETTERS).index)
    blocks: list[Block] = [
        Heading("Module: Complicated Wires"),
        Paragraph(
            "Up to six vertical wires. A wire may be white, red, blue, or striped with two of "
            "these colours; only whether it has red and whether it has blue matter. Above each "
            "wire is an LED that may be lit, and below it a space that may show a star (★)."
        ),
        Paragraph(
            "Treat every wire on its own. Find the region of the diagram that matches it: "
            "inside the Red ellipse if it has red colouring, inside Blue if it has blue, inside "
            "Star if a star shows below it, inside LED if its LED is lit, and outside each "
            "ellipse whose feature it lacks. Do what the letter there says. Cutting a wire "
            "that must stay is a strike. The module is disarmed once every wire that should be "
            "cut has been cut. The next page gives the same letters as a table and in words."
        ),
        Bullets(tuple(f"{VENN_LETTERS[i][0]}: {VENN_LETTERS[i][1]}" for i in used), size=23),
        venn_fig.venn_diagram(
            cells,
            "Venn diagram of four ellipses labelled Red, ★ Star, LED on and Blue, with one "
            "letter in each region (listed wire by wire on the next page).",
        ),
        PageBreak(),
        Heading("The same diagram as a table", level=2),
        Paragraph(
            "Rows: the wire's colouring. Columns: whether a star shows and whether the LED is lit.",
            size=22,
        ),
        venn_fig.venn_grid(cells),
        Bullets(
            tuple(
                f"{_upper_first(_venn_words(*f))}: {VENN_LETTERS[i][0]} ({VENN_LETTERS[i][1]})."
                for f, i in rules.diagram
            ),
            size=22,
        ),
    ]
    return Section("Complicated Wires", tuple(blocks))


# ---------------------------------------------------------------------------- wire sequence


def wire_sequence_section(rules: wire_sequence.WireSequenceRules) -> Section:
    colours = [c for c, _ in rules.cut_letters]
    table = dict(rules.cut_letters)
    depth = max(len(v) for v in table.values())
    rows = tuple(
        (f"{_upper_first(ordinal(n + 1))} wire of its colour",)
        + tuple(", ".join(table[c][n]) if n < len(table[c]) else "" for c in colours)
        for n in range(depth)
    )
    blocks: list[Block] = [
        Heading("Module: Wire Sequence"),
        Paragraph(
            "The module shows one panel at a time, with up to three wires running from "
            "numbered plugs on the left to the letters A, B and C on the right. The numbers "
            "carry on from panel to panel. A down button moves to the next panel, an up "
            "button back to the previous one."
        ),
        Paragraph(
            "Keep a running count of the wires of each colour, over all the panels seen so "
            "far, in plug-number order. For each wire, look up its colour and how many wires "
            "of that colour have appeared up to and including it. Cut the wire if the letter "
            "it is plugged into is listed; otherwise leave it. Cutting a wire that should stay "
            "is a strike, and so is moving down while a wire that should be cut is still "
            "whole. Moving down from the last panel disarms the module."
        ),
        Table(
            ("Count so far", *(f"{c.capitalize()} wire: cut if plugged into" for c in colours)),
            rows,
            weights=(1.4, 1, 1, 1),
            center=True,
            size=24,
        ),
    ]
    return Section("Wire Sequence", tuple(blocks))


# ---------------------------------------------------------------------------- maze


def maze_section(rules: maze.MazeRules) -> Section:
    mazes = [(m.right_walls, m.down_walls, m.circles) for m in rules.mazes]
    border = (
        "The outer edge counts as a wall too."
        if rules.border_strikes
        else "Pressing towards the outer edge does nothing."
    )
    blocks: list[Block] = [
        Heading("Module: Maze"),
        Paragraph(
            "A 6 × 6 grid of lights with four arrow buttons around it. A white square marks "
            "where you are and a red triangle marks where you must go. Two green circles tell "
            "you which of the mazes below is in play: find the maze with circles in the same "
            "two places. Rows and columns are counted from the top-left corner."
        ),
        Paragraph(
            "Each arrow press moves the white square one cell. The walls are invisible on the "
            f"module: moving into a wall is a strike and the square stays put. {border} "
            "Reaching the triangle disarms the module. The same mazes are written out as text "
            "on the next page."
        ),
        fig.maze_grids(mazes),
        PageBreak(),
        Heading("The mazes as text", level=2),
        Paragraph(
            "Each cell is a dot, O marks a green circle, and the lines | and --- are walls. "
            "Row 1 is the top row and column 1 the leftmost column.",
            size=22,
        ),
        fig.monospace_panels([(f"Maze {k + 1}", fig.maze_ascii(*m)) for k, m in enumerate(mazes)]),
    ]
    return Section("Maze", tuple(blocks))


# ---------------------------------------------------------------------------- password


def password_section(rules: password.PasswordRules) -> Section:
    per_row = 5
    words = sorted(rules.words)
    rows = tuple(
        tuple(words[i : i + per_row]) + ("",) * (per_row - len(words[i : i + per_row]))
        for i in range(0, len(words), per_row)
    )
    blocks: list[Block] = [
        Heading("Module: Passwords"),
        Paragraph(
            "Five letter wheels, each with an arrow above and below it that turns it to the "
            "next or previous letter; every wheel holds a handful of letters. Only one word of "
            "the list below can be spelled with the wheels. Find it, spell it and press "
            "SUBMIT. Submitting anything else is a strike."
        ),
        Paragraph(
            "Tip: go through the letters available on the first wheel (or any wheel) and "
            "strike out the words they rule out."
        ),
        Table((), rows, center=True, size=26),
    ]
    return Section("Passwords", tuple(blocks))


SECTION_WRITERS: tuple[tuple[str, Callable[..., Section]], ...] = (
    ("wires", wires_section),
    ("big_button", button_section),
    ("keypad", keypad_section),
    ("simon", simon_section),
    ("whos_on_first", whos_on_first_section),
    ("memory", memory_section),
    ("morse", morse_section),
    ("venn", venn_section),
    ("wire_sequence", wire_sequence_section),
    ("maze", maze_section),
    ("password", password_section),
)
