"""The manual's section on Keypad, written from its rule tables."""

from __future__ import annotations

from gptnt.manual import _figures as fig
from gptnt.manual._layout import Block, Heading, Paragraph, Section
from gptnt.protocol import kind_spec
from gptnt.rules.modules import keypad

TITLE = kind_spec("Keypad").title
LOOK = "four square keys with unusual symbols"
"""How the Defuser can recognise the module (the manual's introduction lists it)."""


def section(rules: keypad.KeypadRules) -> Section:
    columns = [[(keypad.GLYPHS.get(s, s), s) for s in col] for col in rules.columns]
    blocks: list[Block] = [
        Heading(f"Module: {TITLE}"),
        Paragraph(
            "Four square keys, each printed with a symbol. Exactly one of the columns below "
            "contains all four symbols. Press the four keys in the order in which their "
            "symbols appear in that column, from top to bottom. A key pressed out of turn is "
            "a strike; the keys already accepted stay accepted."
        ),
        Paragraph("Each symbol is shown with a short name to help you both agree on what you see."),
        fig.keypad_columns(columns),
    ]
    return Section(TITLE, tuple(blocks))
