"""The manual's section on Who's on First, written from its rule tables."""

from __future__ import annotations

from gptnt.manual import _figures as fig
from gptnt.manual._layout import Block, Bullets, Heading, LayoutTable, PageBreak, Paragraph, Section
from gptnt.manual._structure import PARTS
from gptnt.protocol import kind_spec
from gptnt.rules.modules import whos_on_first

TITLE = kind_spec("WhosOnFirst").title
LOOK = "a word display above six word buttons"
"""How the Defuser can recognise the module (the manual's introduction lists it)."""


POSITION_NAMES = (
    "top-left",
    "top-right",
    "middle-left",
    "middle-right",
    "bottom-left",
    "bottom-right",
)


def section(rules: whos_on_first.WhosOnFirstRules) -> Section:
    entries = list(rules.display_position.items())
    lists = list(rules.priority.items())
    blocks: list[Block] = [
        Heading(f"Module: {TITLE}"),
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
                    f"Step 2: find the word written on that button in the lists on page "
                    f"{PARTS['WhosOnFirst'].pages[-1]}. Go along its list and press the first "
                    "word that is on one of the six buttons."
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
    # Step 2 on the second page: every list, grouped by the button words it is for (the six
    # buttons always come from one group), one line each as on the official page.
    grouped = [w for group in rules.button_groups for w, _ in lists if w in group]
    grouped += [w for w, _ in lists if w not in grouped]
    blocks += [
        PageBreak(),
        Heading("Step 2: which button to press", level=2),
        Paragraph(
            "Find the word you read in step 1 in the left column. Go along its list "
            "from the left and press the first word that is on one of the buttons.",
            size=22,
        ),
        LayoutTable(
            ("Button read", "Words to look for, in order"),
            tuple((word, ", ".join(rules.priority[word])) for word in grouped),
            weights=(1, 7),
            size=18,
        ),
    ]
    return Section(TITLE, tuple(blocks))
