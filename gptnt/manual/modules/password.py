"""The manual's section on Passwords, written from its rule tables."""

from __future__ import annotations

from gptnt.manual._layout import Block, Heading, LayoutTable, Paragraph, Section
from gptnt.protocol import kind_spec
from gptnt.rules.modules import password

TITLE = kind_spec("Password").title
LOOK = "five letter wheels with arrows and a SUBMIT button"
"""How the Defuser can recognise the module (the manual's introduction lists it)."""


def section(rules: password.PasswordRules) -> Section:
    per_row = 5
    words = sorted(rules.words)
    rows = tuple(
        tuple(words[i : i + per_row]) + ("",) * (per_row - len(words[i : i + per_row]))
        for i in range(0, len(words), per_row)
    )
    blocks: list[Block] = [
        Heading(f"Module: {TITLE}"),
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
        LayoutTable((), rows, center=True, size=26),
    ]
    return Section(TITLE, tuple(blocks))
