"""The budget cap of ``gptnt suite run --max-cost-usd``: a model stand-in on loopback reports
token usage, the price table turns it into dollars, and once the recorded cost reaches the cap
no new episode is scheduled; ``run.json`` and the report say the run was capped."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from child_server import GPTNT
from fake_openai import FakeServer, completion, serve

from gptnt.records import Ledger, read_run_info


@contextmanager
def _stand_in(replies: list[tuple[int, dict]]) -> Iterator[FakeServer]:
    """``fake_openai`` served from its own thread (the suite runs in a child process)."""
    ready, stop = threading.Event(), threading.Event()
    box: list[FakeServer] = []

    async def main() -> None:
        async for fake in serve():
            fake.replies.extend(replies)
            box.append(fake)
            ready.set()
            while not stop.is_set():
                await asyncio.sleep(0.05)

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    assert ready.wait(10), "the stand-in did not start"
    try:
        yield box[0]
    finally:
        stop.set()
        thread.join(10)


@pytest.mark.slow
def test_the_cap_stops_scheduling_and_the_report_says_so(tmp_path: Path) -> None:
    # Every call reports 100k prompt tokens; priced as claude-sonnet-4-6 in configs/prices.yaml
    # ($3 per million input tokens), one call costs about $0.30.
    reply = completion("<thoughts>waiting</thoughts><command>do_nothing</command>", prompt=100_000)
    with _stand_in([(200, reply)] * 400) as fake:
        player = tmp_path / "priced.yaml"
        player.write_text(f"model: vllm:claude-sonnet-4-6\nbase_url: {fake.url}\n"
                          "input_limit: 400000\n")  # fmt: skip
        suite = tmp_path / "capped.json"  # short clocks: a few turns per episode
        suite.write_text(json.dumps({
            "name": "capped", "missions": ["Wires-234", "Wires-286", "Wires-337"],
            "modes": ["sync"], "players": [str(player)], "time_factors": [0.2],
        }))  # fmt: skip
        env = {k: v for k, v in os.environ.items() if k != "GPTNT_REDIS_URL"}
        args = ["suite", "run", str(suite), "--games", "1", "--launch", "task",
                "--max-cost-usd", "1", "--yes", "--out", str(tmp_path / "runs")]  # fmt: skip
        done = subprocess.run([*GPTNT, *args], capture_output=True, text=True, timeout=300,
                              env={**env, "GPTNT_OFFLINE": "1"}, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr + done.stdout
        calls = len(fake.received)
    run_dir = tmp_path / "runs" / "suite-capped-priced"
    entries = list(Ledger(run_dir).entries())
    assert len(entries) == 1, "the cap must stop the run after the first episode"
    assert entries[0].cost_usd >= 1 and calls >= 4
    info = read_run_info(run_dir)
    assert info is not None and info.capped and info.unscheduled == 2 and info.episodes == 3
    assert info.spent_usd == pytest.approx(entries[0].cost_usd)
    assert "budget cap reached" in done.stdout
    # Before spending, the plan per experiment and player is printed with the total line.
    assert "Plan per experiment and model player" in done.stdout
    assert "sync, single, self-play" in done.stdout
    report = subprocess.run([*GPTNT, "report", str(run_dir)], capture_output=True, text=True,
                            timeout=120, check=False)  # fmt: skip
    assert report.returncode == 0 and "Capped run" in report.stdout

    # Without a cap the estimate above --confirm-above-usd is refused when nobody can answer.
    refused = subprocess.run(
        [*GPTNT, "suite", "run", str(suite), "--confirm-above-usd", "0",
         "--out", str(tmp_path / "runs2")],
        capture_output=True, text=True, timeout=120, check=False, stdin=subprocess.DEVNULL,
        env={**env, "GPTNT_OFFLINE": "1"},
    )  # fmt: skip
    assert refused.returncode == 2 and "pass --yes" in refused.stderr
    assert not (tmp_path / "runs2").exists()  # nothing half-written
