"""The generated manual has the official manual's page structure: the 16 pages the paper's
Expert read, numbered as in the PDF, each about the same module (or introduction, or appendix).

``golden/structure.json`` is the committed structure: each page's number, its running title in
the official manual and its title in ours. The generated manual of every rule seed is checked
against it (always); the golden itself is checked against the official manual's page texts
(``../shared/fixtures``; skipped without them).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gptnt.manual import PAPER_PAGES, STRUCTURE, Manual, build_manual
from gptnt.manual._generate import sections
from gptnt.manual._import import page_title
from gptnt.manual._layout import LayoutError, lay_out
from gptnt.manual._structure import OFFICIAL_PAGE_COUNT, PARTS
from gptnt.protocol import KINDS, kind_spec
from gptnt.rules.ruleset import ruleset

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures"
OFFICIAL = FIXTURES / "official-manual"
GOLDEN = json.loads((Path(__file__).parent / "golden" / "structure.json").read_text())
POOLS = FIXTURES / "ruleseed" / "pools.json"
# Our titles of the parts that are not modules.
OURS = {
    "introduction": "Introduction",
    "appendix-indicators": "Appendix A: Indicators",
    "appendix-batteries": "Appendix B: Batteries",
    "appendix-ports": "Appendix C: Ports",
}


def our_title(key: str) -> str:
    return OURS.get(key) or kind_spec(key).title


def test_the_golden_is_the_structure_the_paper_read() -> None:
    assert [row["number"] for row in GOLDEN] == list(PAPER_PAGES)
    assert len(GOLDEN) == 16 and PAPER_PAGES[-1] == OFFICIAL_PAGE_COUNT
    for part in STRUCTURE:
        rows = [row for row in GOLDEN if row["number"] in part.pages]
        assert [r["official"] for r in rows] == [part.official] * len(part.pages)
        assert [r["title"] for r in rows] == [our_title(part.key)] * len(part.pages)
    # the eleven vanilla kinds have their pages, in the registry's (= the official manual's)
    # order; a kind added to the registry later would follow the appendices
    modules = [p.key for p in STRUCTURE if p.key not in OURS]
    assert len(modules) == 11 and modules == [k.name for k in KINDS][:11]
    assert [len(PARTS[k].pages) for k in ("WhosOnFirst", "Venn", "Maze")] == [2, 1, 1]


def test_the_v1_manual_has_the_golden_structure(v1_manual: Manual) -> None:
    assert [{"number": p.number, "title": p.title} for p in v1_manual.pages] == [
        {"number": r["number"], "title": r["title"]} for r in GOLDEN
    ]
    for page in v1_manual.pages:  # the label the prompts show is the one printed on the page
        assert page.text.rstrip().endswith(f"Page {page.number}")


@pytest.mark.parametrize("seed", [2, 3, 42, 1764, 9001])
def test_every_rule_seed_manual_has_the_golden_structure(seed: int) -> None:
    # Without word pools Morse and Passwords keep their pages (saying the rule set has none).
    rules = ruleset(seed)
    laid = lay_out(sections(rules))
    assert [(n, p.section.title) for n, p in laid] == [(r["number"], r["title"]) for r in GOLDEN]
    assert set(rules.missing) == {"Morse", "Password"}


def test_a_rule_seed_manual_with_word_pools_has_the_golden_structure() -> None:
    if not POOLS.is_file():
        pytest.skip(f"{POOLS} absent (needs ../shared/fixtures)")
    manual = build_manual(1764, pools=POOLS)
    assert [(p.number, p.title) for p in manual.pages] == [
        (r["number"], r["title"]) for r in GOLDEN
    ]
    assert "Module: Morse Code" in next(p.text for p in manual.pages if p.number == 12)


def test_the_golden_matches_the_official_manual() -> None:
    pages = OFFICIAL / "text"
    if not pages.is_dir():
        pytest.skip(f"{pages} absent (needs ../shared/fixtures)")
    titles = {
        n: page_title((pages / f"page_{n}.txt").read_text(encoding="utf-8"), n)
        for n in range(1, OFFICIAL_PAGE_COUNT + 1)
    }
    assert {r["number"]: r["official"] for r in GOLDEN} == {n: titles[n] for n in PAPER_PAGES}
    # what is left out is the title pages, the module explainer and the needy modules: no page
    # of a part the Expert reads
    left_out = {titles[n] for n in titles if n not in PAPER_PAGES}
    assert not left_out & {p.official for p in STRUCTURE}
    assert {titles[n] for n in (4, 17)} == {"Section 1: Modules", "Section 2: Needy Modules"}


def test_a_section_that_will_not_fit_its_pages_is_refused() -> None:
    rules = ruleset(1)
    too_long = [
        s if s.title != "Memory" else s.__class__(s.title, s.blocks * 6, pages=s.pages)
        for s in sections(rules)
    ]
    with pytest.raises(LayoutError, match="'Memory' runs over its 1 page"):
        lay_out(too_long)
