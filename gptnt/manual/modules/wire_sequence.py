"""The manual's section on Wire Sequence, written from its rule tables."""

from __future__ import annotations

from gptnt.manual._layout import Block, Heading, LayoutTable, Paragraph, Section
from gptnt.manual.modules._words import ordinal, upper_first
from gptnt.protocol import kind_spec
from gptnt.rules.modules import wire_sequence

TITLE = kind_spec("WireSequence").title
LOOK = "wires from numbered plugs to letters A–C, with up/down buttons"
"""How the Defuser can recognise the module (the manual's introduction lists it)."""


def section(rules: wire_sequence.WireSequenceRules) -> Section:
    colours = [c for c, _ in rules.cut_letters]
    table = dict(rules.cut_letters)
    depth = max(len(v) for v in table.values())
    rows = tuple(
        (f"{upper_first(ordinal(n + 1))} wire of its colour",)
        + tuple((", ".join(table[c][n]) or "none") if n < len(table[c]) else "" for c in colours)
        for n in range(depth)
    )
    blocks: list[Block] = [
        Heading(f"Module: {TITLE}"),
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
        LayoutTable(
            ("Count so far", *(f"{c.capitalize()} wire: cut if plugged into" for c in colours)),
            rows,
            weights=(1.4, 1, 1, 1),
            center=True,
            size=24,
        ),
    ]
    return Section(TITLE, tuple(blocks))
