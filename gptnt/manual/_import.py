"""Import a user's copy of the official Bomb Defusal Manual (PDF) as the Expert's pages.

The paper gives the Expert 16 of the 23 pages (``PAPER_PAGES``, from the manual's structure in
``_structure``): the introduction (3), the eleven modules' pages (5–16) and the three appendices
(21–23); the title pages (1, 2), the module explainer (4) and the needy-module pages (17–20) are
left out. Each page's text comes from the PDF's text layer
and its image is rendered with pdfium, at the full page size and at the page heights the player
configs need, portrait kept.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from pathlib import Path

from gptnt.errors import ConfigError
from gptnt.manual._page import PLAYER_PAGE_HEIGHTS, Manual, ManualPage, resize_to_height, to_png
from gptnt.manual._structure import OFFICIAL_PAGE_COUNT, PAPER_PAGES

RENDER_DPI = 150  # the full-size page image (US Letter: 1275 × 1650 px)

# Lines a browser adds when it prints a page: date + document title, and the file URL.
_PRINT_NOISE = (
    re.compile(r"^\d{1,2}/\d{1,2}/\d{4} \S+$"),
    re.compile(r"^file:///\S+ \d+/\d+$"),
)
# The running footer "… v. 1 <section>" names the page's section.
_RUNNING_TITLE = re.compile(r"v\. ?\d+ (.+)$")


def page_text(raw: str, *, clean: bool) -> str:
    """The PDF page's text with Unix line ends; ``clean`` drops the browser's print lines."""
    lines = raw.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if clean:
        lines = [line for line in lines if not any(p.match(line.strip()) for p in _PRINT_NOISE)]
    return "\n".join(lines).strip() + "\n"


def page_title(text: str, number: int) -> str:
    for line in reversed(text.splitlines()):
        match = _RUNNING_TITLE.search(line.strip())
        if match:
            return match.group(1).strip()
    return f"Page {number}"


def import_pdf(
    pdf: Path,
    *,
    pages: Sequence[int] = PAPER_PAGES,
    heights: Sequence[int] = PLAYER_PAGE_HEIGHTS,
    clean: bool = True,
) -> Manual:
    """Read ``pages`` (1-based) of the PDF: text and images. Identity: the PDF's sha256."""
    try:
        import pypdfium2 as pdfium  # optional dependency (extra "manual")
    except ImportError:
        raise ConfigError(
            "pdf: importing needs pypdfium2; install it with `pip install 'gptnt[manual]'`"
        ) from None

    pdf = Path(pdf)
    if not pdf.is_file():
        raise ConfigError(f"pdf={pdf}: no such file; give the path of your copy of the manual")
    data = pdf.read_bytes()  # read once: the pages and the identity are of the same bytes
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as err:
        raise ConfigError(f"pdf={pdf}: cannot be read as a PDF ({err})") from None
    try:
        missing = [p for p in pages if not 1 <= p <= len(document)]
        if missing:
            raise ConfigError(
                f"pdf={pdf}: has {len(document)} pages, pages {missing} are "
                f"missing; is this the {OFFICIAL_PAGE_COUNT}-page Bomb Defusal Manual?"
            )
        out = []
        for number in pages:
            page = document[number - 1]
            textpage = page.get_textpage()
            text = page_text(textpage.get_text_range(), clean=clean)
            textpage.close()
            if not text.strip():  # every page the Expert reads is rules: a damaged copy
                page.close()
                raise ConfigError(
                    f"pdf={pdf}: page {number} has no text (a damaged or scanned copy); "
                    "import an intact copy of the manual"
                )
            full = page.render(scale=RENDER_DPI / 72).to_pil().convert("RGB")
            page.close()
            images = {full.height: to_png(full, colors=128)}
            for h in heights:
                images[h] = to_png(resize_to_height(full, h), colors=128)
            out.append(
                ManualPage(number=number, title=page_title(text, number), text=text, images=images)
            )
    finally:
        document.close()
    digest = hashlib.sha256(data).hexdigest()
    return Manual(identity=f"imported:{digest}", kind="imported", pages=tuple(out), source=pdf.name)
