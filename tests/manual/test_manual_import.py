"""The importer against the official PDF fixture (skipped when ../shared is absent)."""

from __future__ import annotations

import difflib
import hashlib
from pathlib import Path

import pytest

from gptnt.errors import ConfigError
from gptnt.manual import PAPER_PAGES, PLAYER_PAGE_HEIGHTS, Manual, import_pdf, load_manual, save
from gptnt.manual._import import page_text

pytestmark = pytest.mark.fixtures


def normalised(text: str) -> str:
    return " ".join(text.split())


def similarity(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, normalised(a), normalised(b), autojunk=False).ratio()


@pytest.fixture(scope="module")
def imported(official_pdf: Path) -> Manual:
    return import_pdf(official_pdf)


def test_the_paper_pages_are_taken(imported: Manual) -> None:
    assert PAPER_PAGES == (3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 21, 22, 23)
    assert [p.number for p in imported.pages] == list(PAPER_PAGES)


def test_text_matches_the_fixture_pages(imported: Manual, official_pdf: Path) -> None:
    for page in imported.pages:
        assert "file:///" not in page.text
        fixture = official_pdf.parent / "text" / f"page_{page.number}.txt"
        expected = fixture.read_text(encoding="utf-8")
        body = "\n".join(expected.splitlines()[2:])
        assert similarity(page.text, body) >= 0.9, page.number


def test_titles_come_from_the_running_footer(imported: Manual) -> None:
    titles = {p.number: p.title for p in imported.pages}
    assert titles[3] == "Defusing Bombs"
    assert titles[5] == "Wires"
    assert titles[21] == "Appendix A"


def test_images_are_portrait_at_every_player_height(imported: Manual) -> None:
    for page in imported.pages:
        assert set(PLAYER_PAGE_HEIGHTS) < set(page.images)
        for height in PLAYER_PAGE_HEIGHTS:
            img = page.image(height)
            assert img.height == height and img.width < img.height
            assert abs(img.width / img.height - 612 / 792) < 0.01  # US Letter kept


def test_identity_is_the_pdf_hash_and_survives_a_round_trip(
    imported: Manual, official_pdf: Path, tmp_path: Path
) -> None:
    digest = hashlib.sha256(official_pdf.read_bytes()).hexdigest()
    assert imported.identity == f"imported:{digest}"
    save(imported, tmp_path / "official", sha256=digest)
    again = load_manual(tmp_path / "official", rule_seed=1)
    assert again.identity == imported.identity
    assert [p.text for p in again.pages] == [p.text for p in imported.pages]
    assert again.pages[0].png(640) == imported.pages[0].png(640)


def test_a_short_pdf_is_refused(official_pdf: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="pages"):
        import_pdf(official_pdf, pages=(3, 99))
    with pytest.raises(ConfigError, match="no such file"):
        import_pdf(tmp_path / "missing.pdf")


def test_a_damaged_pdf_is_refused_not_imported_with_blank_pages(
    official_pdf: Path, tmp_path: Path
) -> None:
    """A copy with a run of its bytes lost still opens (pdfium repairs the cross-reference) but
    its middle pages come out without text; the Expert would read blank rules pages."""
    data = bytearray(official_pdf.read_bytes())
    n = len(data)
    data[n // 3 : n // 3 + n // 4] = bytes(n // 4)
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(bytes(data))
    with pytest.raises(ConfigError, match=r"page \d+ has no text"):
        import_pdf(damaged)
    truncated = tmp_path / "truncated.pdf"
    truncated.write_bytes(bytes(data[: n // 2]))
    with pytest.raises(ConfigError, match="cannot be read as a PDF"):
        import_pdf(truncated)


def test_print_noise_is_recognised() -> None:
    raw = "8/28/2020 Some-Title\r\nfile:///C:/x/index.html 3/23\r\nReal line\r\n"
    assert page_text(raw, clean=True) == "Real line\n"
    assert page_text(raw, clean=False).startswith("8/28/2020")
