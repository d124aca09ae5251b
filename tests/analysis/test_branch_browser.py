"""A counterfactual replay in the report, in real headless Chromium (the system ``chromium``
through Playwright): the branches table links the branch beside its parent, that page shows
both from the fork with the replaced message where they part, and each column reaches its
episode's own viewer page, which names the parent and marks the restored turns. The parent
and the branch are played for the test (sync, the simulator, scripted players, a real Redis)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gptnt.analysis.browser import chromium_path
from gptnt.cli import app
from gptnt.config import GameConfig
from gptnt.records import Ledger, TurnEvent, read_events
from gptnt.services.manager import EpisodeSettings, EpisodeSpec, Fork, play_episode, replay_episode

pytest.importorskip("playwright.sync_api")
if chromium_path() is None:
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

from gptnt.analysis.browser import browser, visit

FAST = EpisodeSettings(
    launch="task", idle_sleep_s=0.5, turn_timeout_s=30, game=GameConfig(startup_timeout_s=30)
)
MESSAGE = "Forget the manual: cut the last wire."


@pytest.fixture(scope="module")
def forked(redis_admin_url: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A run with a sync episode and its branch whose first Expert turn after 2 says
    ``MESSAGE``; the report of it. Returns (report folder, fork turn)."""
    run_dir = tmp_path_factory.mktemp("runs") / "forked"
    spec = EpisodeSpec.make("Wires-286", "sync")

    async def play() -> int:
        await play_episode(spec, FAST, admin_url=redis_admin_url, run_dir=run_dir)
        parent = run_dir / Ledger(run_dir).latest()[spec.key].episode_dir
        turns = [e for e in read_events(parent) if isinstance(e, TurnEvent)]
        k = next(n for n, t in enumerate(turns) if t.role == "expert" and n > 2)
        fork = Fork(parent=parent, turn=k, message=MESSAGE)
        await replay_episode(fork, FAST, admin_url=redis_admin_url, run_dir=run_dir)
        return k

    k = asyncio.run(play())
    out = tmp_path_factory.mktemp("report")
    result = CliRunner().invoke(app, ["report", str(run_dir), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out, k


def test_the_branch_is_shown_beside_its_parent_from_the_fork(forked: tuple[Path, int]) -> None:
    out, k = forked
    with browser() as context:
        report = visit(context, out / "report.html")
        rows = report.page.locator('table[data-table="branches"] tbody tr')
        assert rows.count() == 1
        link = rows.first.locator("a.fork")
        href = link.get_attribute("href")
        assert href is not None and href.endswith(".fork.html")
        side = visit(context, out / href)
        page = side.page
        table = page.locator("#branches")
        assert table.get_attribute("data-fork") == str(k)
        first = page.locator("#branches tbody tr").first
        assert first.get_attribute("data-turn") == str(k)  # both columns start at the fork
        assert "differs" in (first.get_attribute("class") or "")
        assert first.locator("td.side").count() == 2
        parent_cell, branch_cell = first.locator("td.side").nth(0), first.locator("td.side").nth(1)
        assert MESSAGE in branch_cell.inner_text() and MESSAGE not in parent_cell.inner_text()
        assert page.locator("tr.first").count() == 1
        # Each column reaches its episode's viewer; the branch's names its parent.
        with page.expect_navigation():
            page.click("a.branch")
        assert "A replay of" in page.locator("header").inner_text()
        restored = page.locator("#timeline li", has_text="↺")
        assert restored.count() == k
        page.go_back()
        with page.expect_navigation():
            page.click("a.parent")
        assert page.locator("#timeline li", has_text="↺").count() == 0
        assert report.errors == [] and side.errors == []
