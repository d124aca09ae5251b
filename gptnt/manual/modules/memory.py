"""The manual's section on Memory, written from its rule tables."""

from __future__ import annotations

from gptnt.manual._layout import Block, Heading, LayoutTable, Paragraph, Section
from gptnt.protocol import kind_spec
from gptnt.rules.modules import memory

TITLE = kind_spec("Memory").title
LOOK = "a big digit display above four numbered buttons"
"""How the Defuser can recognise the module (the manual's introduction lists it)."""


def section(rules: memory.MemoryRules) -> Section:
    rows = [
        (f"Stage {s}", *(_memory_choice(c) for c in choices))
        for s, choices in enumerate(rules.stages, 1)
    ]
    displays = range(1, len(rules.stages[0]) + 1)
    blocks: list[Block] = [
        Heading(f"Module: {TITLE}"),
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
        LayoutTable(
            ("Stage",) + tuple(f"Display shows {d}" for d in displays),
            tuple(rows),
            weights=(0.55, 1, 1, 1, 1),
            size=21,
        ),
    ]
    return Section(TITLE, tuple(blocks))


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
