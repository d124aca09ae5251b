"""The manual's section on Morse Code, written from its rule tables."""

from __future__ import annotations

from gptnt.manual import _figures as fig
from gptnt.manual._layout import Block, Heading, LayoutTable, Paragraph, Section
from gptnt.protocol import kind_spec
from gptnt.rules.modules import morse

TITLE = kind_spec("Morse").title
LOOK = "a blinking light, a frequency display, arrows and a TX button"
"""How the Defuser can recognise the module (the manual's introduction lists it)."""


def section(rules: morse.MorseRules) -> Section:
    half = (len(rules.words) + 1) // 2
    left, right = rules.words[:half], rules.words[half:]
    rows = []
    for i in range(half):
        row = [left[i][0], _mhz(left[i][1])]
        row += [right[i][0], _mhz(right[i][1])] if i < len(right) else ["", ""]
        rows.append(tuple(row))
    blocks: list[Block] = [
        Heading(f"Module: {TITLE}"),
        Paragraph(
            "A small light blinks a word in Morse code, over and over, with a longer pause "
            "before the word starts again. A short blink is a dot, a long one a dash. Decode "
            "the word, find it in the table, set the module to that frequency with its arrow "
            "buttons, and press the TX (transmit) button. Transmitting on any other frequency "
            "is a strike."
        ),
        LayoutTable(("Word", "Frequency", "Word", "Frequency"), tuple(rows), center=True, size=23),
        Heading("Morse code", level=2),
        fig.morse_chart(rules.alphabet),
    ]
    return Section(TITLE, tuple(blocks))


def _mhz(freq: int) -> str:
    return f"3.{freq:03d} MHz"
