"""The manual's section on Simon Says, written from its rule tables."""

from __future__ import annotations

from gptnt.manual import _figures as fig
from gptnt.manual._layout import Block, Heading, LayoutTable, Paragraph, Section
from gptnt.protocol import kind_spec
from gptnt.rules.modules import simon

TITLE = kind_spec("Simon").title
LOOK = "four coloured buttons in a diamond that flash"
"""How the Defuser can recognise the module (the manual's introduction lists it)."""


# Where the game places each Simon button (a fact of the module, not a rule).
SIMON_LAYOUT = (("blue", "top"), ("yellow", "right"), ("green", "bottom"), ("red", "left"))


def section(rules: simon.SimonRules) -> Section:
    blocks: list[Block] = [
        Heading(f"Module: {TITLE}"),
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
            LayoutTable(
                ("Strikes",) + tuple(f"{c.capitalize()} flash" for c in colours),
                rows,
                center=True,
                size=23,
            ),
        ]
    return Section(TITLE, tuple(blocks))


def _strikes_label(n: int, *, last: bool) -> str:
    words = f"{n} strike{'' if n == 1 else 's'}"
    return f"{n} or more strikes" if last and n > 0 else words
