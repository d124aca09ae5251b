"""Piped output keeps a wide table on one line per row (rich alone would wrap it at 80 columns)."""

from __future__ import annotations

import os
import subprocess

from child_server import GPTNT


def test_a_piped_plan_prints_each_row_on_one_line() -> None:
    done = subprocess.run(
        [*GPTNT, "suite", "plan", "cross-play",
         "--players", "gpt-5-2,claude-sonnet-4-6"],
        capture_output=True, text=True, timeout=120, check=True,
        env={k: v for k, v in os.environ.items() if k != "COLUMNS"},
    )  # fmt: skip
    rows = [line for line in done.stdout.splitlines() if line.startswith("│")]
    assert len(rows) == 4  # two experiments × two players, no continuation lines
    assert all("sync, single" in row for row in rows)
    assert max(map(len, done.stdout.splitlines())) > 80


def test_columns_is_honoured_when_piped() -> None:
    done = subprocess.run(
        [*GPTNT, "missions", "list"],
        capture_output=True, text=True, timeout=120, check=True,
        env={**os.environ, "COLUMNS": "60"},
    )  # fmt: skip
    assert max(map(len, done.stdout.splitlines())) <= 60
