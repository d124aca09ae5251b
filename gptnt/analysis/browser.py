"""The report and the viewer in a real headless browser: Debian's ``chromium`` driven by
Playwright (the ``playwright`` package from PyPI, never downloading a browser of its own).

Used by the browser tests and by ``scripts/report_screenshots.py``. The browser runs with a
fresh profile, no network chatter and no GPU; every console error and page error of a page is
collected, so a caller can require there are none.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from gptnt.errors import ConfigError

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
PAGE_TIMEOUT_MS = 20_000  # any one wait of a page: load, selector, screenshot


def chromium_path() -> str | None:
    """The system Chromium (Debian ``chromium``), or ``None`` when it is not installed."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@dataclass
class Visit:
    """A page opened in the browser and the errors it reported."""

    page: Page
    errors: list[str] = field(default_factory=list)


@contextmanager
def browser() -> Iterator[BrowserContext]:
    """A headless Chromium with a fresh ``--user-data-dir``, closed on exit."""
    executable = chromium_path()
    if executable is None:
        raise ConfigError("chromium: not installed; apt-get install chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise ConfigError("playwright: not installed; pip install playwright") from None
    with tempfile.TemporaryDirectory(prefix="gptnt-chromium-") as profile, sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=executable,
            headless=True,
            args=list(CHROMIUM_FLAGS),
            viewport={"width": 1400, "height": 900},
        )
        context.set_default_timeout(PAGE_TIMEOUT_MS)
        try:
            yield context
        finally:
            context.close()


def visit(context: BrowserContext, path: Path) -> Visit:
    """Open a local file and wait until it has loaded, collecting console and page errors."""
    page = context.new_page()
    seen = Visit(page)
    page.on("console", lambda m: seen.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen.errors.append(str(e)))
    page.goto(path.resolve().as_uri(), wait_until="load")
    return seen
