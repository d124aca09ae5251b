"""The manual's page structure: which pages the Expert reads and what each page is about.

The paper's Expert read 16 of the official manual's 23 pages: the introduction (page 3), the
module pages (5–16) and the three appendices (21–23); the title pages (1, 2), the module
explainer (4) and the needy-module section (17–20) are left out. The importer takes those
pages of a user's PDF, and the generated manual is typeset onto the same pages: each part
below fills exactly its pages and each page carries the official page's number, so a prompt's
"Manual page 9" is Who's on First in either manual, and page counts and token figures compare.

A part is the introduction, a module kind (its registry name) or an appendix; ``official`` is
the running title the official manual prints on the part's pages.
"""

from __future__ import annotations

from dataclasses import dataclass

INTRODUCTION = "introduction"
INDICATORS = "appendix-indicators"
BATTERIES = "appendix-batteries"
PORTS = "appendix-ports"


@dataclass(frozen=True)
class Part:
    key: str  # INTRODUCTION, a module kind's registry name, or an appendix key
    pages: tuple[int, ...]  # the official manual's page numbers the part occupies
    official: str  # the official manual's running title on those pages


STRUCTURE: tuple[Part, ...] = (
    Part(INTRODUCTION, (3,), "Defusing Bombs"),
    Part("Wires", (5,), "Wires"),
    Part("BigButton", (6,), "The Button"),
    Part("Keypad", (7,), "Keypads"),
    Part("Simon", (8,), "Simon Says"),
    Part("WhosOnFirst", (9, 10), "Who's on First"),
    Part("Memory", (11,), "Memory"),
    Part("Morse", (12,), "Morse Code"),
    Part("Venn", (13,), "Complicated Wires"),
    Part("WireSequence", (14,), "Wire Sequences"),
    Part("Maze", (15,), "Mazes"),
    Part("Password", (16,), "Passwords"),
    Part(INDICATORS, (21,), "Appendix A"),
    Part(BATTERIES, (22,), "Appendix B"),
    Part(PORTS, (23,), "Appendix C"),
)
OFFICIAL_PAGE_COUNT = 23

PARTS: dict[str, Part] = {p.key: p for p in STRUCTURE}
PAPER_PAGES: tuple[int, ...] = tuple(n for p in STRUCTURE for n in p.pages)


def page_ref(key: str) -> str:
    """How a page points to a part: ``page 21``, ``pages 9–10``, or ``its page after the
    appendices`` for a kind the official manual has no page for."""
    if key not in PARTS:
        return "its page after the appendices"
    pages = PARTS[key].pages
    return f"page {pages[0]}" if len(pages) == 1 else f"pages {pages[0]}–{pages[-1]}"
