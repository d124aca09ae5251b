"""Typesetting: blocks (headings, paragraphs, lists, tables, figures) flowed onto portrait pages.

Every block knows how tall it is at a given width, how to paint itself, and which text it
paints. The page text is built from the same strings the painter draws, in drawing order, so a
model reading the text and a model reading the image get the same manual. Each section starts
on a new page; a table or list that does not fit is split (a table repeats its header row). A
section may name the page numbers it fills (the manual's structure, ``_structure``): text that
runs over them is set smaller (``fit``), and taking more or fewer pages even so is a
``LayoutError``, never a silently shifted page.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw, ImageFont

from gptnt.fonts import font
from gptnt.manual._page import ManualPage, to_png

# A4 portrait at 150 dpi.
PAGE_WIDTH = 1240
PAGE_HEIGHT = 1754
MARGIN_X = 90
TOP = 120  # first line of content
BOTTOM = PAGE_HEIGHT - 110  # last line of content

BODY = 25
SMALL = 21
LINE = 1.38  # line height / font size
INK = (20, 20, 20)
GREY = (110, 110, 110)
RULE = (150, 150, 150)
HEAD_FILL = (225, 225, 225)

# ---------------------------------------------------------------------------- blocks


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 1  # 1 = section title, 2 = sub-heading


@dataclass(frozen=True)
class Paragraph:
    text: str
    size: int = BODY
    bold: bool = False


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]
    numbered: bool = False
    start: int = 1  # first number when numbered (a list split across pages continues)
    size: int = BODY


@dataclass(frozen=True)
class LayoutTable:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    weights: tuple[float, ...] | None = None  # relative column widths; default by content
    size: int = SMALL
    center: bool = False  # centre cell text (grids of short values)


@dataclass(frozen=True)
class Figure:
    """A drawing. ``paint(image, (x, y))`` draws it with its top-left at (x, y); ``text`` is
    every word and symbol the drawing shows, in reading order."""

    width: int
    height: int
    paint: Callable[[Image.Image, tuple[int, int]], None]
    text: str


@dataclass(frozen=True)
class PageBreak:
    pass


Block = Heading | Paragraph | Bullets | LayoutTable | Figure | PageBreak


@dataclass(frozen=True)
class Section:
    """One part of the manual (a module, the introduction, an appendix); starts a new page.
    ``pages``: the page numbers it must fill exactly (none: numbered on from the last page)."""

    title: str  # also printed in the running header of its pages
    blocks: tuple[Block, ...]
    pages: tuple[int, ...] = ()


# ---------------------------------------------------------------------------- text fitting


def wrap(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """Greedy word wrap to ``width`` pixels (a word longer than the line gets its own line)."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}" if line else word
            if line and fnt.getlength(trial) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def _line_height(size: float) -> int:
    return round(size * LINE)


def _heading_font(level: int) -> ImageFont.FreeTypeFont:
    return font(44 if level == 1 else 31, bold=True)


# ---------------------------------------------------------------------------- measuring


_GAP = 18  # space after a block


def _lines(t: LayoutTable) -> list[tuple[tuple[str, ...], bool]]:
    """The table's rows with a flag for the (bold, shaded) header; no header when empty."""
    head = [(t.header, True)] if t.header else []
    return head + [(r, False) for r in t.rows]


def _table_columns(t: LayoutTable, width: int) -> list[int]:
    ncol = len(_lines(t)[0][0])
    if t.weights is not None:
        weights = list(t.weights)
    else:
        fnt = font(t.size)
        weights = [max(fnt.getlength(r[i]) for r, _ in _lines(t)) ** 0.7 + 40 for i in range(ncol)]
    total = sum(weights)
    cols = [int(width * w / total) for w in weights]
    cols[-1] = width - sum(cols[:-1])
    return cols


def _row_lines(
    t: LayoutTable, row: Sequence[str], cols: list[int], *, bold: bool
) -> list[list[str]]:
    fnt = font(t.size, bold=bold)
    return [wrap(cell, fnt, c - 16) for cell, c in zip(row, cols, strict=True)]


def _row_height(t: LayoutTable, lines: list[list[str]]) -> int:
    return max(len(cell) for cell in lines) * _line_height(t.size) + 12


def height(block: Block, width: int) -> int:
    """Pixels the block takes at ``width``, including the gap after it."""
    match block:
        case Heading(text, level):
            fnt = _heading_font(level)
            return len(wrap(text, fnt, width)) * _line_height(fnt.size) + (14 if level == 1 else 4)
        case Paragraph(text, size, bold):
            return len(wrap(text, font(size, bold=bold), width)) * _line_height(size) + _GAP
        case Bullets(items, _, _, size):
            fnt = font(size)
            return sum(len(wrap(i, fnt, width - 48)) for i in items) * _line_height(size) + _GAP
        case LayoutTable():
            cols = _table_columns(block, width)
            rows = [_row_lines(block, r, cols, bold=b) for r, b in _lines(block)]
            return sum(_row_height(block, r) for r in rows) + _GAP
        case Figure(_, h):
            return h + _GAP
        case PageBreak():
            return 0


def block_text(block: Block) -> str:
    """The words the block paints, in reading order."""
    match block:
        case Heading(text) | Paragraph(text):
            return text
        case Bullets(items, numbered, start, _):
            return "\n".join(
                f"{n}. {i}" if numbered else f"• {i}" for n, i in enumerate(items, start)
            )
        case LayoutTable(header, rows):
            return "\n".join(" | ".join(c for c in r if c) for r in (header, *rows) if r)
        case Figure(_, _, _, text):
            return text
        case PageBreak():
            return ""


# ---------------------------------------------------------------------------- painting


def paint(block: Block, img: Image.Image, x: int, y: int, width: int) -> None:
    draw = ImageDraw.Draw(img)
    match block:
        case Heading(text, level):
            fnt = _heading_font(level)
            for i, line in enumerate(wrap(text, fnt, width)):
                draw.text((x, y + i * _line_height(fnt.size)), line, font=fnt, fill=INK)
            if level == 1:
                bottom = y + len(wrap(text, fnt, width)) * _line_height(fnt.size) + 2
                draw.line((x, bottom, x + width, bottom), fill=INK, width=3)
        case Paragraph(text, size, bold):
            fnt = font(size, bold=bold)
            for i, line in enumerate(wrap(text, fnt, width)):
                draw.text((x, y + i * _line_height(size)), line, font=fnt, fill=INK)
        case Bullets(items, numbered, start, size):
            fnt = font(size)
            for n, item in enumerate(items, start):
                draw.text((x + 8, y), f"{n}." if numbered else "•", font=fnt, fill=INK)
                for line in wrap(item, fnt, width - 48):
                    draw.text((x + 48, y), line, font=fnt, fill=INK)
                    y += _line_height(size)
        case LayoutTable():
            _paint_table(block, draw, x, y, width)
        case Figure(w, _, painter):
            painter(img, (x + (width - w) // 2, y))
        case PageBreak():
            pass


def _paint_table(t: LayoutTable, draw: ImageDraw.ImageDraw, x: int, y: int, width: int) -> None:
    cols = _table_columns(t, width)
    lh = _line_height(t.size)
    for row, bold in _lines(t):
        lines = _row_lines(t, row, cols, bold=bold)
        h = _row_height(t, lines)
        if bold:
            draw.rectangle((x, y, x + width, y + h), fill=HEAD_FILL)
        fnt = font(t.size, bold=bold)
        cx = x
        for cell_lines, c in zip(lines, cols, strict=True):
            for i, line in enumerate(cell_lines):
                tx = cx + (c - fnt.getlength(line)) / 2 if t.center else cx + 8
                draw.text((tx, y + 6 + i * lh), line, font=fnt, fill=INK)
            draw.line((cx, y, cx, y + h), fill=RULE, width=1)
            cx += c
        draw.line((x + width, y, x + width, y + h), fill=RULE, width=1)
        draw.line((x, y, x + width, y), fill=RULE, width=1)
        y += h
    draw.line((x, y, x + width, y), fill=RULE, width=1)


# ---------------------------------------------------------------------------- flowing


def _split(block: Block, width: int, room: int) -> tuple[Block, Block] | None:
    """Cut a list or table so that the first part fits in ``room`` px (None: cannot)."""
    if isinstance(block, LayoutTable):
        cols = _table_columns(block, width)
        used = _GAP + (
            _row_height(block, _row_lines(block, block.header, cols, bold=True))
            if block.header
            else 0
        )
        k = 0
        for row in block.rows:
            used += _row_height(block, _row_lines(block, row, cols, bold=False))
            if used > room:
                break
            k += 1
        if 0 < k < len(block.rows):
            return replace(block, rows=block.rows[:k]), replace(block, rows=block.rows[k:])
    if isinstance(block, Bullets):
        fnt = font(block.size)
        used, k = _GAP, 0
        for item in block.items:
            used += len(wrap(item, fnt, width - 48)) * _line_height(block.size)
            if used > room:
                break
            k += 1
        if 0 < k < len(block.items):
            head = replace(block, items=block.items[:k])
            return head, replace(block, items=block.items[k:], start=block.start + k)
    return None


@dataclass
class _Page:
    section: Section
    placed: list[tuple[Block, int]]  # block and its top y


def flow(sections: Sequence[Section]) -> list[_Page]:
    """Place the blocks of every section on pages."""
    width = PAGE_WIDTH - 2 * MARGIN_X
    pages: list[_Page] = []
    for section in sections:
        page = _Page(section, [])
        pages.append(page)
        y = TOP
        queue = list(section.blocks)
        while queue:
            block = queue.pop(0)
            if isinstance(block, PageBreak):
                page = _Page(section, [])
                pages.append(page)
                y = TOP
                continue
            h = height(block, width)
            # keep a heading with the start of what follows it
            need = h + (
                min(height(queue[0], width), 240) if isinstance(block, Heading) and queue else 0
            )
            if y + need > BOTTOM and page.placed:
                parts = _split(block, width, BOTTOM - y) if y + h > BOTTOM else None
                if parts is not None:
                    page.placed.append((parts[0], y))
                    queue.insert(0, parts[1])
                page = _Page(section, [])
                pages.append(page)
                y = TOP
                if parts is None:
                    queue.insert(0, block)
                continue
            if y + h > BOTTOM:  # alone on a page and still too tall: split or overflow
                parts = _split(block, width, BOTTOM - y)
                if parts is not None:
                    queue.insert(0, parts[1])
                    block, h = parts[0], height(parts[0], width)
            page.placed.append((block, y))
            y += h
    return pages


_SMALLEST = 17  # the smallest body text ``fit`` sets (px at 150 dpi)


def _smaller(block: Block, step: int) -> Block:
    if isinstance(block, Paragraph | Bullets | LayoutTable) and block.size > _SMALLEST:
        return replace(block, size=max(_SMALLEST, block.size - step))
    return block


def _fits(section: Section) -> bool:
    """Whether the section flows onto no more than its planned pages, nothing below the last
    line (a block too tall for a page and impossible to split overflows it)."""
    width = PAGE_WIDTH - 2 * MARGIN_X
    pages = flow([section])
    return len(pages) <= len(section.pages) and all(
        y + height(b, width) - _GAP <= BOTTOM for p in pages for b, y in p.placed
    )


def fit(section: Section) -> Section:
    """A section with planned pages whose text runs over them, with its body text set smaller
    step by step (down to 17 px) until it fits; other sections as they are. What still runs
    over is left for ``numbers`` to name."""
    if not section.pages or _fits(section):
        return section
    for step in range(1, _max_size(section) - _SMALLEST + 1):
        trial = replace(section, blocks=tuple(_smaller(b, step) for b in section.blocks))
        if _fits(trial):
            return trial
    return section


def _max_size(section: Section) -> int:
    sizes = [b.size for b in section.blocks if isinstance(b, Paragraph | Bullets | LayoutTable)]
    return max(sizes, default=_SMALLEST)


class LayoutError(ValueError):
    """A section does not fill the pages the manual's structure gives it."""


def numbers(flowed: Sequence[_Page]) -> list[int]:
    """Each flowed page's number: its section's planned pages, or on from the last one. A
    section that takes another number of pages than it plans is a ``LayoutError``."""
    out: list[int] = []
    for _, group in itertools.groupby(flowed, key=lambda p: id(p.section)):
        pages = list(group)
        section = pages[0].section
        if not section.pages:
            first = out[-1] + 1 if out else 1
            out += range(first, first + len(pages))
        elif len(pages) != len(section.pages):
            raise LayoutError(
                f"section {section.title!r} takes {len(pages)} pages but has "
                f"{len(section.pages)} (pages {', '.join(map(str, section.pages))}); "
                "shorten its text or give it more pages"
            )
        else:
            out += section.pages
    return out


def lay_out(sections: Sequence[Section]) -> list[tuple[int, _Page]]:
    """The sections fitted to their planned pages and flowed, each page with its number
    (what ``render`` paints; cheap, nothing is drawn)."""
    fitted = [fit(s) for s in sections]
    for section in fitted:
        if section.pages and not _fits(section):
            raise LayoutError(
                f"section {section.title!r} runs over its {len(section.pages)} page(s) "
                f"({', '.join(map(str, section.pages))}) even in 17 px text; shorten it"
            )
    flowed = flow(fitted)
    return list(zip(numbers(flowed), flowed, strict=True))


def render(sections: Sequence[Section], *, manual_title: str) -> list[ManualPage]:
    """Typeset the sections; each page's image and text come from the same strings."""
    width = PAGE_WIDTH - 2 * MARGIN_X
    small = font(SMALL)
    out: list[ManualPage] = []
    for number, page in lay_out(sections):
        img = Image.new("RGB", (PAGE_WIDTH, PAGE_HEIGHT), "white")
        draw = ImageDraw.Draw(img)
        title = page.section.title
        draw.text((MARGIN_X, 50), manual_title, font=small, fill=GREY)
        draw.text(
            (PAGE_WIDTH - MARGIN_X - small.getlength(title), 50), title, font=small, fill=GREY
        )
        draw.line((MARGIN_X, 84, PAGE_WIDTH - MARGIN_X, 84), fill=RULE, width=1)
        texts = [f"{manual_title} — {title}"]
        for block, y in page.placed:
            paint(block, img, MARGIN_X, y, width)
            texts.append(block_text(block))
        footer = f"Page {number}"
        draw.text(
            ((PAGE_WIDTH - small.getlength(footer)) / 2, PAGE_HEIGHT - 70),
            footer,
            font=small,
            fill=GREY,
        )
        texts.append(footer)
        out.append(
            ManualPage(
                number=number,
                title=title,
                text="\n".join(t for t in texts if t) + "\n",
                images={PAGE_HEIGHT: to_png(img, colors=48)},
            )
        )
    return out
