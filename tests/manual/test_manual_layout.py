"""The typesetter: page geometry, text that mirrors the drawing, splitting, section breaks."""

from __future__ import annotations

import numpy as np
import pytest

from gptnt.manual import ManualPage
from gptnt.manual._layout import (
    BODY,
    BOTTOM,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    Bullets,
    Heading,
    LayoutError,
    LayoutTable,
    PageBreak,
    Paragraph,
    Section,
    _fits,
    fit,
    flow,
    lay_out,
    render,
)


def ink_rows(png_page: ManualPage) -> np.ndarray:
    """Row indices of the page image that carry any non-white pixel."""
    arr = np.asarray(png_page.image().convert("L"))
    return np.nonzero((arr < 200).any(axis=1))[0]


def test_pages_are_a4_portrait_with_header_and_footer() -> None:
    pages = render(
        [Section("Alpha", (Heading("Alpha"), Paragraph("Hello there.")))], manual_title="Test"
    )
    assert len(pages) == 1
    img = pages[0].image()
    assert img.size == (PAGE_WIDTH, PAGE_HEIGHT)
    assert abs(PAGE_HEIGHT / PAGE_WIDTH - 2**0.5) < 0.01
    assert pages[0].text.splitlines() == ["Test — Alpha", "Alpha", "Hello there.", "Page 1"]


def test_each_section_starts_a_page_and_page_breaks_are_kept() -> None:
    sections = [
        Section("A", (Paragraph("one"), PageBreak(), Paragraph("two"))),
        Section("B", (Paragraph("three"),)),
    ]
    pages = render(sections, manual_title="T")
    assert [p.title for p in pages] == ["A", "A", "B"]
    assert [p.number for p in pages] == [1, 2, 3]
    assert "Page 2" in pages[1].text and "two" in pages[1].text


def test_planned_pages_are_numbered_as_planned_and_others_follow_on() -> None:
    sections = [
        Section("A", (Paragraph("one"), PageBreak(), Paragraph("two")), pages=(9, 10)),
        Section("B", (Paragraph("three"),), pages=(13,)),
        Section("C", (Paragraph("four"),)),
    ]
    pages = render(sections, manual_title="T")
    assert [(p.number, p.title) for p in pages] == [(9, "A"), (10, "A"), (13, "B"), (14, "C")]
    assert pages[1].text.splitlines()[-1] == "Page 10"


def test_text_too_long_for_its_page_is_set_smaller_until_it_fits() -> None:
    long = Section("L", (Paragraph("word " * 1200),), pages=(4,))
    assert len(flow([long])) == 1 and not _fits(long)  # one block, drawn past the bottom
    fitted = fit(long)
    assert _fits(fitted) and 17 <= fitted.blocks[0].size < BODY  # type: ignore[union-attr]
    listed = Section("M", (Bullets(tuple(f"item {i}" for i in range(60))),), pages=(4,))
    assert len(flow([listed])) == 2 and len(lay_out([listed])) == 1


def test_a_section_off_its_planned_page_count_is_refused() -> None:
    with pytest.raises(LayoutError, match="'S' takes 1 pages but has 2"):
        render([Section("S", (Paragraph("short"),), pages=(9, 10))], manual_title="T")
    with pytest.raises(LayoutError, match="'L' runs over its 1 page"):
        render([Section("L", (Paragraph("word " * 1600),), pages=(4,))], manual_title="T")


def test_a_long_table_is_split_with_its_header_repeated() -> None:
    rows = tuple((f"row {i}", f"value {i}") for i in range(120))
    pages = render([Section("T", (LayoutTable(("Key", "Value"), rows),))], manual_title="M")
    assert len(pages) > 1
    body = [line for p in pages for line in p.text.splitlines()]
    for i in range(120):
        assert body.count(f"row {i} | value {i}") == 1
    assert all("Key | Value" in p.text for p in pages)
    for page in pages:  # nothing is drawn into the footer zone
        rows_with_ink = ink_rows(page)
        content = rows_with_ink[(rows_with_ink > 100) & (rows_with_ink < PAGE_HEIGHT - 80)]
        assert content.max() <= BOTTOM


def test_a_long_list_continues_its_numbering() -> None:
    items = tuple(f"item {i}" for i in range(1, 80))
    flowed = flow([Section("L", (Bullets(items, numbered=True),))])
    assert len(flowed) > 1
    second = flowed[1].placed[0][0]
    assert isinstance(second, Bullets) and second.start == len(flowed[0].placed[0][0].items) + 1


def test_a_heading_is_not_left_alone_at_the_bottom() -> None:
    filler = tuple(Paragraph("x " * 400) for _ in range(3))
    blocks = (*filler, Heading("Next part", level=2), Paragraph("its text"))
    flowed = flow([Section("H", blocks)])
    where = {
        b.text: i
        for i, page in enumerate(flowed)
        for b, _ in page.placed
        if isinstance(b, Heading | Paragraph) and not b.text.startswith("x")
    }
    assert where["Next part"] == where["its text"]


def test_paragraph_text_is_drawn() -> None:
    empty = render([Section("S", ())], manual_title="M")[0]
    full = render([Section("S", (Paragraph("word " * 200),))], manual_title="M")[0]
    assert len(ink_rows(full)) > len(ink_rows(empty)) + 200


def test_every_venn_letter_sits_in_its_own_region() -> None:
    from gptnt.manual._venn_figures import (
        _VENN_AXES,
        _VENN_ELLIPSES,
        _VENN_STYLE,
        venn_letter_spots,
    )

    a, b = _VENN_AXES
    spots = venn_letter_spots()
    assert len(spots) == 16
    for features, (u, v) in spots.items():
        for (cx, cy, tilt), style in zip(_VENN_ELLIPSES, _VENN_STYLE, strict=True):
            c, s = np.cos(np.radians(tilt)), np.sin(np.radians(tilt))
            x, y = (u - cx) * c + (v - cy) * s, -(u - cx) * s + (v - cy) * c
            inside = (x / a) ** 2 + (y / b) ** 2 < 1
            assert inside == features[style[0]], (features, style[2])
