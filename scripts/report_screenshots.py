"""Screenshots of a written report and of one of its episode pages, for a person to look at.

    python scripts/report_screenshots.py REPORT_DIR --out DIR [--episode N]

REPORT_DIR is what ``gptnt report RUN_DIR... --out REPORT_DIR`` wrote. Writes
``DIR/report.png`` (the whole page) and ``DIR/episode.png`` (the viewer, stepped to turn N of
the first episode page with a Defuser image, default: its second Defuser turn). Needs the
system ``chromium`` and the ``playwright`` package; exits 1 with one line if either is missing
or a page logs a console error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gptnt.analysis import REPORT_HTML
from gptnt.analysis.browser import browser, visit
from gptnt.errors import GptntError


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--episode", type=int, default=None, help="timeline index to step to")
    args = parser.parse_args()
    page_path = args.report / REPORT_HTML
    if not page_path.is_file():
        print(f"error: REPORT_DIR {args.report}: no {REPORT_HTML}; run gptnt report --out first",
              file=sys.stderr)  # fmt: skip
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        with browser() as context:
            report = visit(context, page_path)
            report.page.screenshot(path=str(args.out / "report.png"), full_page=True)
            links = report.page.eval_on_selector_all("a.episode", "els => els.map(e => e.href)")
            pages = [Path(href.removeprefix("file://")) for href in links]
            # The first page with two Defuser turns (read from the file: no page visit each).
            chosen = next((p for p in pages
                           if p.read_text(encoding="utf-8").count('data-role="defuser"') >= 2),
                          pages[0] if pages else None)  # fmt: skip
            if chosen is None:
                print("error: the report links no episode page", file=sys.stderr)
                return 1
            viewer = visit(context, chosen)
            roles = viewer.page.eval_on_selector_all(
                "#timeline li", "els => els.map(e => e.dataset.role)"
            )
            defuser = [i for i, r in enumerate(roles) if r == "defuser"] or [0]
            index = args.episode if args.episode is not None else defuser[min(1, len(defuser) - 1)]
            viewer.page.click(f"#timeline li:nth-child({index + 1})")
            viewer.page.wait_for_function(
                "() => Array.from(document.images).every(i => i.complete)"
            )
            viewer.page.screenshot(path=str(args.out / "episode.png"))
            errors = report.errors + viewer.errors
    except GptntError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    if errors:
        print(f"error: the pages logged console errors: {errors[:3]}", file=sys.stderr)
        return 1
    print(f"{args.out / 'report.png'}\n{args.out / 'episode.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
