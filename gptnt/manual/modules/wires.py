"""The manual's section on Wires, written from its rule tables."""

from __future__ import annotations

from gptnt.manual._layout import Block, Bullets, Heading, Paragraph, Section
from gptnt.manual.modules._words import count_words, edgework_condition, ordinal
from gptnt.protocol import kind_spec
from gptnt.rules.modules import wires

TITLE = kind_spec("Wires").title
LOOK = "three to six coloured wires running across the module"
"""How the Defuser can recognise the module (the manual's introduction lists it)."""


def _wires_condition(c: wires.Condition) -> str:
    match c:
        case wires.ColorCount(color, "eq", 0):
            return f"there are no {color} wires"
        case wires.ColorCount(color, "eq", 1):
            return f"there is exactly one {color} wire"
        case wires.ColorCount(color, "eq", n):
            return f"there are exactly {count_words(n)} {color} wires"
        case wires.ColorCount(color, "gt", 0):
            return f"there is at least one {color} wire"
        case wires.ColorCount(color, "gt", 1):
            return f"there is more than one {color} wire"
        case wires.ColorCount(color, _, n):  # "gt" ("eq" is matched above, every n)
            return f"there are more than {count_words(n)} {color} wires"
        case wires.LastWireIs(color):
            return f"the bottom wire is {color}"
    return edgework_condition(c)


def _wires_cut(c: wires.Cut) -> str:
    match c:
        case wires.CutNth(n):
            return f"cut the {ordinal(n)} wire"
        case wires.CutLastOf(color):
            return f"cut the lowest {color} wire"
        case wires.CutFirstOf(color):
            return f"cut the highest {color} wire"
        case wires.CutOnlyOf(color):
            return f"cut the {color} wire"
    raise AssertionError(f"no wording for wires cut {c!r}")


def section(rules: wires.WiresRules) -> Section:
    blocks: list[Block] = [
        Heading(f"Module: {TITLE}"),
        Paragraph(
            "This module has several coloured wires stretched across it. Exactly one of them "
            "has to be cut. Cutting any other wire costs a strike."
        ),
        Paragraph(
            "Number the wires from the top down, counting only wires that are actually there "
            "(skip empty slots): the first wire is the highest one present, the last wire the "
            "lowest. Pick the list below for the number of wires, and read it from the top: "
            "the first rule whose conditions all hold tells you which wire to cut."
        ),
    ]
    for count, rule_list in sorted(rules.by_count.items()):
        items = []
        for rule in rule_list:
            if rule.when:
                cond = " and ".join(_wires_condition(c) for c in rule.when)
                items.append(f"If {cond}: {_wires_cut(rule.cut)}.")
            else:
                items.append(f"In every other case: {_wires_cut(rule.cut)}.")
        blocks += [Heading(f"{count} wires", level=2), Bullets(tuple(items), numbered=True)]
    return Section(TITLE, tuple(blocks))
