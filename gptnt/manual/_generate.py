"""The generated manual: the sections of a ``Ruleset`` typeset onto the official page structure.

One source for game, oracle and manual: the section writers read the ruleset's tables, so a
manual built from another rule seed states that seed's rules. Each part of ``STRUCTURE`` is one
section filling exactly the official pages of that part (page numbers included), for every rule
seed (``_layout.fit`` sets a section's text smaller when a seed's rules run longer): a module whose tables the ruleset lacks (no rule-seed word pools) keeps its page, which
says that bombs of this rule set carry none. The identity hashes the page texts (not the PNG
bytes, which depend on the font rasteriser's version).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable

from gptnt.manual._general_sections import (
    absent_module,
    appendix_batteries,
    appendix_indicators,
    appendix_ports,
    introduction,
)
from gptnt.manual._layout import Section, block_text, render
from gptnt.manual._page import Manual
from gptnt.manual._structure import BATTERIES, INDICATORS, INTRODUCTION, PARTS, PORTS, STRUCTURE
from gptnt.manual.modules import section_for
from gptnt.protocol import KINDS
from gptnt.rules.oracle import rule_file
from gptnt.rules.ruleset import Ruleset

MANUAL_TITLE = "GPTNT Expert Manual"

_GENERAL: dict[str, Callable[[Ruleset], Section]] = {
    INTRODUCTION: introduction,
    INDICATORS: appendix_indicators,
    BATTERIES: appendix_batteries,
    PORTS: appendix_ports,
}


def _section(key: str, rules: Ruleset) -> Section:
    if key in _GENERAL:
        return _GENERAL[key](rules)
    if key in rules.missing:
        return absent_module(key)
    return section_for(key).section(rule_file(key).tables(rules))


def sections(rules: Ruleset) -> list[Section]:
    """One section per part of the structure, in page order, each with its page numbers; a
    registry kind the official manual has no page for follows the appendices, numbered on."""
    planned = [dataclasses.replace(_section(p.key, rules), pages=p.pages) for p in STRUCTURE]
    return planned + [_section(spec.name, rules) for spec in KINDS if spec.name not in PARTS]


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
