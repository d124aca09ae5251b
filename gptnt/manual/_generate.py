"""The generated manual: the sections of a ``Ruleset`` typeset into pages.

One source for game, oracle and manual: the section writers read the ruleset's tables, so a
manual built from another rule seed states that seed's rules. The identity hashes the page
texts (not the PNG bytes, which depend on the font rasteriser's version).
"""

from __future__ import annotations

import hashlib

from gptnt.manual._general_sections import (
    appendix_batteries,
    appendix_indicators,
    appendix_ports,
    introduction,
)
from gptnt.manual._layout import Section, block_text, render
from gptnt.manual._page import Manual
from gptnt.manual.modules import section_for
from gptnt.protocol import KINDS
from gptnt.rules.oracle import rule_file
from gptnt.rules.ruleset import Ruleset

MANUAL_TITLE = "GPTNT Expert Manual"


def sections(rules: Ruleset) -> list[Section]:
    """Introduction, one section per module kind (in the registry's order), appendices.

    A module whose tables the ruleset lacks (no rule-seed word pools) gets no section; the
    introduction says so.
    """
    body = [
        section_for(spec.name).section(rule_file(spec.name).tables(rules))
        for spec in KINDS
        if spec.name not in rules.missing
    ]
    return [
        introduction(rules),
        *body,
        appendix_indicators(rules),
        appendix_batteries(rules),
        appendix_ports(rules),
    ]


def outline_text(rules: Ruleset) -> str:
    """The words of every section without typesetting them: the pages' text minus running
    headers and page numbers (cheap; used to compare rulesets)."""
    return "\n".join(block_text(b) for s in sections(rules) for b in s.blocks)


def generate(rules: Ruleset) -> Manual:
    """Typeset the manual of ``rules``."""
    title = f"{MANUAL_TITLE} · rule seed {rules.rule_seed}"
    pages = tuple(render(sections(rules), manual_title=title))
    digest = hashlib.sha256("\f".join(p.text for p in pages).encode()).hexdigest()[:16]
    return Manual(
        identity=f"generated:rule-seed-{rules.rule_seed}:{digest}",
        kind="generated",
        pages=pages,
        rule_seed=rules.rule_seed,
        source=f"ruleset rule_seed={rules.rule_seed}",
    )
