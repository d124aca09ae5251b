"""The manual's section on Complicated Wires, written from its rule tables."""

from __future__ import annotations

from gptnt.manual import _venn_figures as venn_fig
from gptnt.manual._layout import Block, Bullets, Heading, Paragraph, Section
from gptnt.manual._structure import BATTERIES, PORTS, page_ref
from gptnt.protocol import kind_spec
from gptnt.rules.modules import venn

TITLE = kind_spec("Venn").title
LOOK = "vertical wires with LEDs above and star spaces below"
"""How the Defuser can recognise the module (the manual's introduction lists it)."""


# How the manual writes each instruction of the Venn vocabulary: a letter and what it means.
VENN_LETTERS: dict[venn.Instruction, tuple[str, str]] = {
    "cut": ("C", "cut the wire"),
    "dont_cut": ("D", "do not cut the wire"),
    "serial_even": ("S", "cut the wire if the serial number ends in an even digit"),
    "parallel_port": ("P", "cut the wire if the bomb has a parallel port"),
    "two_batteries": ("B", "cut the wire if the bomb carries two or more batteries"),
}


def section(rules: venn.VennRules) -> Section:
    cells = [(*f, VENN_LETTERS[i][0]) for f, i in rules.diagram]
    used = sorted({i for _, i in rules.diagram}, key=list(VENN_LETTERS).index)
    blocks: list[Block] = [
        Heading(f"Module: {TITLE}"),
        Paragraph(
            "Up to six vertical wires. A wire may be white, red, blue, or striped with two of "
            "these colours; only whether it has red and whether it has blue matter. Above each "
            "wire is an LED that may be lit, and below it a space that may show a star (★)."
        ),
        Paragraph(
            "Treat every wire on its own. Find the region of the diagram that matches it: "
            "inside the Red ellipse if it has red colouring, inside Blue if it has blue, inside "
            "Star if a star shows below it, inside LED if its LED is lit, and outside each "
            "ellipse whose feature it lacks. Do what the letter there says; the grid below the "
            "diagram gives the same letters. Cutting a wire that must stay is a strike. The "
            "module is disarmed once every wire that should be cut has been cut."
        ),
        Bullets(tuple(f"{VENN_LETTERS[i][0]}: {VENN_LETTERS[i][1]}" for i in used), size=23),
        Paragraph(
            f"Batteries are described in Appendix B ({page_ref(BATTERIES)}), ports in "
            f"Appendix C ({page_ref(PORTS)}).",
            size=22,
        ),
        venn_fig.venn_diagram(
            cells,
            "Venn diagram of four ellipses labelled Red, ★ Star, LED on and Blue, with one "
            "letter in each region (the grid below lists every region).",
        ),
        venn_fig.venn_grid(cells),
    ]
    return Section(TITLE, tuple(blocks))
