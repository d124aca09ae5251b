"""The report and a viewer page in real headless Chromium (Debian ``chromium``, driven by
Playwright with the system binary): no console errors, the timeline shows every recorded turn,
stepping with the keyboard shows that turn's image. Skipped where Chromium or Playwright is
absent; CI installs both (``.ci/run``, the ``test`` extra)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gptnt.analysis import ANALYSES, load_run, paper_tables
from gptnt.analysis.browser import chromium_path
from gptnt.cli import app

pytest.importorskip("playwright.sync_api")
if chromium_path() is None:
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

from gptnt.analysis.browser import browser, visit

REPO = Path(__file__).resolve().parents[2]


def test_report_and_viewer_in_chromium(run_dir: Path, report_dir: Path) -> None:
    run = load_run(run_dir)
    model = next(e for e in run.episodes if "fake-defuser" in e.key)
    turns = sorted(model.turns, key=lambda t: (t.started_at, t.role != "defuser"))
    with browser() as context:
        report = visit(context, report_dir / "report.html")
        page = report.page
        tables = len(ANALYSES) + len(paper_tables(run.episodes))
        assert page.locator("table[data-table]").count() == tables
        # Every plot the report draws is on the page, titled, with one bar or cell per row.
        from gptnt.analysis import all_tables
        from gptnt.analysis._report import plots

        figures = plots(all_tables(run.episodes), run.episodes)
        assert len(figures) >= 6
        drawn = page.locator("figure.plot svg")
        assert drawn.count() == len(figures)
        for n in range(drawn.count()):
            svg = drawn.nth(n)
            assert svg.locator("title, text").count() > 2
            assert svg.locator("rect").count() >= 1
            box = svg.bounding_box()
            assert box is not None and box["width"] > 100 and box["height"] > 40
        assert page.locator("a.episode").count() == len(run.episodes)
        assert page.locator("tr.parked").count() == 1
        href = page.locator(f'a.episode:text-is("{model.episode_id}")').get_attribute("href")
        with page.expect_navigation():
            page.click(f'a.episode:text-is("{model.episode_id}")')
        assert page.url.split("#")[0].endswith(href)
        # The viewer, reached from the report as a reader would.
        viewer = visit(context, report_dir / href)  # a fresh tab, to collect its errors
        v = viewer.page
        assert v.locator("#timeline li").count() == len(turns)
        assert v.locator("#turn").get_attribute("data-index") == "0"
        target = max(i for i, t in enumerate(turns) if t.role == "defuser" and t.shown)
        for _ in range(target):
            v.keyboard.press("ArrowDown")
        assert v.locator("#turn").get_attribute("data-index") == str(target)
        assert "selected" in (v.locator("#timeline li").nth(target).get_attribute("class") or "")
        images = v.locator("#turn img.shown")
        assert images.count() == len(turns[target].shown)
        newest = images.nth(images.count() - 1)
        assert newest.get_attribute("src").endswith(f"{turns[target].shown[-1].image[:16]}.png")
        v.wait_for_function("() => Array.from(document.images).every(i => i.complete)")
        assert newest.evaluate("i => i.naturalWidth") == 640
        v.keyboard.press("Home")
        assert v.locator("#turn").get_attribute("data-index") == "0"
        assert report.errors == [] and viewer.errors == []


def test_one_command_makes_both_screenshots(report_dir: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "report_screenshots.py"), str(report_dir),
         "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    for name in ("report.png", "episode.png"):
        data = (tmp_path / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


PAYLOADS = ("<!--<script>", "</script>", "<!--", "\u2028 and \u2029", "</script><script>x=1",
            "a & b > c < d")  # fmt: skip


def test_script_like_model_text_cannot_break_the_viewer(run_dir: Path, tmp_path: Path) -> None:
    """Text a model wrote is data: with ``<!--<script>`` in its output the HTML parser would
    swallow the embedded turns (a dead page) were ``<`` left in them."""
    from gptnt.records import TurnEvent, read_events

    run = tmp_path / run_dir.name
    shutil.copytree(run_dir, run)
    episode = next(p for p in (run / "episodes").iterdir() if "fake-defuser" in p.name)
    events = list(read_events(episode))
    hostile = []
    for i, event in enumerate(events):
        if isinstance(event, TurnEvent):
            text = PAYLOADS[i % len(PAYLOADS)]
            event = event.model_copy(update={"raw_output": f"{text} {event.raw_output}",
                                             "received": [*event.received, text]})  # fmt: skip
        hostile.append(event)
    (episode / "events.jsonl").write_text("".join(e.model_dump_json() + "\n" for e in hostile))
    turns = sorted((e for e in hostile if isinstance(e, TurnEvent)),
                   key=lambda t: (t.started_at, t.role != "defuser"))  # fmt: skip
    out = tmp_path / "report"
    done = CliRunner().invoke(app, ["report", str(run), "--out", str(out)])
    assert done.exit_code == 0, done.output
    page = out / "episodes" / run.name / f"{episode.name}.html"
    with browser() as context:
        viewer = visit(context, page)
        v = viewer.page
        assert v.locator("#timeline li").count() == len(turns)
        for i, turn in enumerate(turns):
            if i:
                v.keyboard.press("ArrowDown")
            assert v.locator("#turn").get_attribute("data-index") == str(i)
            shown = v.locator("#turn pre").nth(1).text_content()
            assert shown == turn.raw_output  # the payload arrives as text, whole
        assert v.evaluate("() => typeof x") == "undefined"  # nothing of it ran
        assert viewer.errors == []


def test_a_model_turn_shows_its_whole_transcript(run_dir: Path, report_dir: Path) -> None:
    """The viewer shows what a model was sent, whole: the system prompt, the Expert's manual,
    the history with the model's own earlier replies, and the newest turn with its images."""
    from gptnt.records import read_message, requests

    run = load_run(run_dir)
    model = next(e for e in run.episodes if "fake-defuser" in e.key)
    turns = sorted(model.turns, key=lambda t: (t.started_at, t.role != "defuser"))
    whole = requests(model.turns)
    assert whole, "the committed model episode has no transcripts (record schema 4)"
    page = report_dir / "episodes" / run.name / f"{model.episode_id}.html"
    with browser() as context:
        viewer = visit(context, page)
        v = viewer.page
        for role in ("defuser", "expert"):
            i = max(i for i, t in enumerate(turns) if t.role == role and t.request)
            t = turns[i]
            v.keyboard.press("Home")
            for _ in range(i):
                v.keyboard.press("ArrowDown")
            assert v.locator("#turn").get_attribute("data-index") == str(i)
            sent = [read_message(model.dir, h) for h in whole[(role, t.turn)]]
            shown = v.locator("#turn .transcript details.message")
            assert shown.count() == len(sent) > 2
            assert [shown.nth(n).get_attribute("data-role") for n in range(len(sent))] == [
                m.role
                for m in sent  # type: ignore[union-attr]
            ]
            system = shown.nth(0).locator("pre").first.text_content()
            assert system == sent[0].parts[0].text  # type: ignore[union-attr]
            # The model's own replies are in its history, word for word.
            replies = [x.raw_output for x in model.turns if x.role == role and x.turn < t.turn]
            history = [shown.nth(n).locator("pre").first.text_content()
                       for n in range(len(sent)) if sent[n].role == "assistant"]  # type: ignore[union-attr]  # fmt: skip
            assert history and history == replies[-len(history) :]
            newest = shown.nth(len(sent) - 1)
            assert "newest" in (newest.get_attribute("class") or "")
            pictures = newest.locator("img.sent")
            assert pictures.count() == len(t.shown)
            if role == "defuser":
                assert pictures.count() > 0
                v.wait_for_function("() => Array.from(document.images).every(i => i.complete)")
                assert pictures.nth(pictures.count() - 1).evaluate("i => i.naturalWidth") == 640
            else:
                manual = shown.nth(1)
                assert "manual" in (manual.locator("summary").text_content() or "")
                assert manual.locator("p.missing").count() > 10  # the page images, by hash
                assert "Wires" in (manual.text_content() or "")
            assert "unknown" in (v.locator("#turn").text_content() or "")  # no price: not $0
        assert viewer.errors == []
