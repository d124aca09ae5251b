"""The manual's section on The Button, written from its rule tables."""

from __future__ import annotations

from gptnt.manual._layout import Block, Bullets, Heading, Paragraph, Section, Table
from gptnt.manual.modules._words import count_words
from gptnt.protocol._kinds import kind_spec
from gptnt.rules.modules import big_button

TITLE = kind_spec("BigButton").title
LOOK = "one big coloured button with a word on it"
"""How the Defuser can recognise the module (the manual's introduction lists it)."""


def _button_condition(c: big_button.Condition) -> str:
    match c:
        case big_button.ColorIs(color):
            return f"the button is {color}"
        case big_button.WordIs(word):
            return f'the label says "{word.upper()}"'
        case big_button.BatteriesAbove(n):
            return f"the bomb carries more than {count_words(n)} batter{'y' if n == 1 else 'ies'}"
        case big_button.LitIndicator(label):
            return f"a lit indicator labelled {label} is on the bomb"
    raise AssertionError(f"no wording for button condition {c!r}")


_BUTTON_ACTION = {
    "tap": "press it and let go at once",
    "hold": "press and keep holding it (see Holding the button)",
}


def section(rules: big_button.ButtonRules) -> Section:
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
        Heading(f"Module: {TITLE}"),
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
    return Section(TITLE, tuple(blocks))
