"""A manual on disk: one text file and PNG images per page, indexed by ``manual.json``.

Built and imported manuals share this layout, so players load either the same way::

    manual.json            the index (``ManualIndex``): identity, kind, source, pages
    page-05.txt            the page's text
    page-05.png            the page image as typeset / rendered (largest)
    page-05-h640.png       the same page, 640 px tall (one per player page height)

Writing goes through a temporary directory that replaces the target at the end, so a failure
never leaves a half-written manual behind.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from gptnt.errors import ConfigError
from gptnt.manual._page import PLAYER_PAGE_HEIGHTS, Manual, ManualPage, resize_to_height, to_png

INDEX = "manual.json"
FORMAT = 1


class PageEntry(BaseModel):
    number: int = Field(description="page number printed on the page (PDF page for imports)")
    title: str
    text: str = Field(description="file name of the page's text, relative to the index")
    images: dict[int, str] = Field(description="pixel height -> PNG file name")


class ManualIndex(BaseModel):
    format: int = FORMAT
    identity: str = Field(description="generated:rule-seed-N:<hash> or imported:<pdf sha256>")
    kind: str = Field(description="generated | imported")
    rule_seed: int | None = None
    source: str = Field(default="", description="ruleset or PDF file the pages came from")
    sha256: str | None = Field(default=None, description="sha256 of the source PDF (imports)")
    pages: list[PageEntry]


def save(
    manual: Manual,
    out: Path,
    *,
    heights: tuple[int, ...] = PLAYER_PAGE_HEIGHTS,
    sha256: str | None = None,
) -> Path:
    """Write ``manual`` to the directory ``out``; returns the index path. An existing manual
    directory there is replaced; any other non-empty directory is refused."""
    out = Path(out)
    if out.exists() and any(out.iterdir()) and not (out / INDEX).is_file():
        raise ConfigError(
            f"out={out}: exists and is not a manual directory (no {INDEX}); "
            "choose an empty or new directory"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        entries = []
        for page in manual.pages:
            stem = f"page-{page.number:02d}"
            (tmp / f"{stem}.txt").write_text(page.text, encoding="utf-8")
            images = {page.full_height: f"{stem}.png"}
            (tmp / images[page.full_height]).write_bytes(page.png())
            full = page.image()
            for h in heights:
                if h < page.full_height:
                    images[h] = f"{stem}-h{h}.png"
                    (tmp / images[h]).write_bytes(
                        page.images.get(h) or to_png(resize_to_height(full, h), colors=64)
                    )
            entries.append(
                PageEntry(number=page.number, title=page.title, text=f"{stem}.txt", images=images)
            )
        index = ManualIndex(
            identity=manual.identity,
            kind=manual.kind,
            rule_seed=manual.rule_seed,
            source=manual.source,
            sha256=sha256,
            pages=entries,
        )
        (tmp / INDEX).write_text(index.model_dump_json(indent=2) + "\n", encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out / INDEX


def load(directory: Path) -> Manual:
    """Read a manual directory written by ``save`` (a built or an imported manual)."""
    directory = Path(directory)
    path = directory / INDEX if directory.is_dir() else directory
    if not path.is_file():
        raise ConfigError(
            f"manual={directory}: no {INDEX} there; build one with "
            "`gptnt manual build` or `gptnt manual import PDF`"
        )
    try:
        index = ManualIndex.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError as err:
        raise ConfigError(
            f"manual={path}: not a valid manual index ({err.error_count()} errors); rebuild it"
        ) from None
    if index.format != FORMAT:
        raise ConfigError(f"manual={path}: format {index.format}, expected {FORMAT}; rebuild it")
    root = path.parent
    pages = tuple(
        ManualPage(
            number=e.number,
            title=e.title,
            text=(root / e.text).read_text(encoding="utf-8"),
            images={h: (root / name).read_bytes() for h, name in e.images.items()},
        )
        for e in index.pages
    )
    return Manual(
        identity=index.identity,
        kind=index.kind,
        pages=pages,
        rule_seed=index.rule_seed,
        source=index.source,
    )
