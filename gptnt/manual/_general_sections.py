"""The parts of the manual around the modules: the introduction and the edgework appendices.

Game facts that are not rules (what an indicator or a port looks like) are stated here; where
an appendix says which edgework the rules consult, it reads that from the ruleset.
"""

from __future__ import annotations

from typing import get_args

from gptnt.manual import _edgework_figures as edge_fig
from gptnt.manual._layout import Block, Bullets, Heading, Paragraph, Section
from gptnt.manual._structure import BATTERIES, INDICATORS, PORTS, page_ref
from gptnt.manual.modules import section_for
from gptnt.protocol import KINDS, KINDS_BY_NAME, PortType
from gptnt.rules.modules import big_button
from gptnt.rules.ruleset import Ruleset

# The three-letter labels indicators carry in the game.
INDICATOR_LABELS = ("SND", "CLR", "CAR", "IND", "FRQ", "SIG", "NSA", "MSA", "TRN", "BOB", "FRK")


def introduction(rules: Ruleset) -> Section:
    blocks: list[Block] = [
        Heading("Defusing a Bomb"),
        Paragraph(
            f"This is the Expert's manual (rule set {rules.rule_seed}). The Expert holds it "
            "but cannot see the bomb; the Defuser sees the bomb but has no manual. So the "
            "Defuser describes what is there, and the Expert looks it up and says what to do."
        ),
        Heading("How a bomb ends", level=2),
        Paragraph(
            "The bomb explodes when its countdown timer runs out, or when it has collected as "
            "many strikes as it can take (three, unless the mission says otherwise). It is "
            "defused once every module on it has been disarmed."
        ),
        Heading("Modules", level=2),
        Paragraph(
            "A bomb carries up to eleven modules on its front and back faces, next to the "
            "timer, to be disarmed in any order. A module's status light (top right) turns "
            "green once it is disarmed. How to tell the modules apart, and their pages:"
        ),
        Bullets(
            tuple(
                f"{spec.title} ({page_ref(spec.name)}): {section_for(spec.name).LOOK}."
                for spec in KINDS
            )
        ),
        *(
            [
                Paragraph(
                    "Bombs of this rule set carry no "
                    + " or ".join(KINDS_BY_NAME[k].title for k in rules.missing)
                    + " module; "
                    + ("its page is" if len(rules.missing) == 1 else "their pages are")
                    + " left without rules."
                )
            ]
            if rules.missing
            else []
        ),
        Heading("Strikes", level=2),
        Paragraph(
            "A wrong move on a module is a strike: the module's status light flashes red and "
            "a mark is added to the strike counter above the timer. After each strike the "
            "timer runs faster. When the bomb shows no strike counter, the first strike "
            "detonates it."
        ),
        Heading("Information on the casing", level=2),
        Paragraph(
            "Some rules depend on the outside of the bomb: its serial number, its batteries, "
            "its indicators and its ports, found on the four edges of the casing. The serial "
            "number is printed on a label on one edge; it always ends in a digit, and its "
            "vowels are A, E, I, O and U. The appendices describe the rest: indicators in "
            f"Appendix A ({page_ref(INDICATORS)}), batteries in Appendix B "
            f"({page_ref(BATTERIES)}), ports in Appendix C ({page_ref(PORTS)})."
        ),
    ]
    return Section("Introduction", tuple(blocks))


def absent_module(kind: str) -> Section:
    """The page of a module the ruleset has no tables for: it keeps its place in the structure."""
    title = KINDS_BY_NAME[kind].title
    blocks: list[Block] = [
        Heading(f"Module: {title}"),
        Paragraph(
            f"Bombs of this rule set carry no {title} module, so this page holds no rules for "
            "it. (Its word list comes from the rule-seed word pools, which this manual was "
            "built without.)"
        ),
    ]
    return Section(title, tuple(blocks))


def _rule_indicators(rules: Ruleset) -> list[str]:
    return sorted(
        {
            c.label
            for r in rules.big_button.rules
            for c in r.when
            if isinstance(c, big_button.LitIndicator)
        }
    )


def appendix_indicators(rules: Ruleset) -> Section:
    used = _rule_indicators(rules)
    blocks: list[Block] = [
        Heading("Appendix A: Indicators"),
        Paragraph(
            "An indicator is a small plate on an edge of the casing with a light and a "
            "three-letter label. The light is either lit or unlit; a rule that asks for a lit "
            "indicator is not met by an unlit one with the same label. A bomb never carries "
            "two indicators with the same label."
        ),
        edge_fig.indicators([("FRK", True), ("CAR", False), ("SND", True)]),
        Paragraph("Labels an indicator can carry: " + ", ".join(INDICATOR_LABELS) + "."),
        Paragraph(
            "Indicators this manual's rules look at: " + (", ".join(used) if used else "none") + "."
        ),
    ]
    return Section("Appendix A: Indicators", tuple(blocks))


def appendix_batteries(rules: Ruleset) -> Section:
    blocks: list[Block] = [
        Heading("Appendix B: Batteries"),
        Paragraph(
            "Batteries sit in holders on the edges of the casing. A holder contains either one "
            "large D battery or two slim AA batteries. Rules always count batteries, not "
            "holders: a bomb with one D holder and one AA holder has three batteries."
        ),
        edge_fig.batteries(),
    ]
    return Section("Appendix B: Batteries", tuple(blocks))


def appendix_ports(rules: Ruleset) -> Section:
    names = list(get_args(PortType))
    parallel = any(i == "parallel_port" for _, i in rules.venn.diagram)
    blocks: list[Block] = [
        Heading("Appendix C: Ports"),
        Paragraph(
            "Ports are mounted on port plates on the edges of the casing. A plate can hold "
            "several ports, or none at all. These are the kinds of port a bomb can have:"
        ),
        edge_fig.ports(names),
    ]
    if parallel:
        blocks.append(
            Paragraph(
                "The Complicated Wires rules ask whether the bomb has a Parallel port: the "
                "long two-row socket with holes."
            )
        )
    return Section("Appendix C: Ports", tuple(blocks))
