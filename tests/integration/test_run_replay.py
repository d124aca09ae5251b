"""CI smoke test of a real run against the recorded-game stub.

``tests/data/run-session.gptnt-rec.zip`` is the game service's whole exchange with the
simulator in ``gptnt run --mission Wires-234 --mode sync --record FILE`` (oracle pair). Served
by ``gptnt stub serve``, the same ``gptnt run`` with ``--game <stub URL>`` reaches the recorded
outcome; a run that asks for something else (another mission) ends at its first divergent
request with one line naming the request number, the expected and the received request, and a
non-zero exit.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from child_server import child_server

from gptnt.services.bus import free_port

GPTNT = Path(sys.executable).parent / "gptnt"
RECORDING = Path(__file__).resolve().parents[1] / "data" / "run-session.gptnt-rec.zip"


@pytest.fixture
def stub_url() -> Iterator[str]:
    """A fresh ``gptnt stub serve`` process replaying the committed run (position 0)."""
    if not GPTNT.exists():
        pytest.skip(f"console script {GPTNT} not installed")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with child_server([str(GPTNT), "stub", "serve", str(RECORDING), "--port", str(port)], url):
        yield url


def _run(mission: str, url: str, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(GPTNT), "run", "--mission", mission, "--mode", "sync", "--game", url,
         "--out", str(out), "--quiet", "--launch", "task"],
        capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip


def test_the_recorded_run_replays_to_its_outcome(stub_url: str, tmp_path: Path) -> None:
    result = _run("Wires-234", stub_url, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    (summary_path,) = tmp_path.glob("*/episodes/*/summary.json")
    summary = json.loads(summary_path.read_text())
    assert summary["outcome"] == "solved" and summary["strikes"] == 0
    assert [m["solved"] for m in summary["modules"]] == [True]


def test_a_divergent_run_ends_at_once_with_one_line(stub_url: str, tmp_path: Path) -> None:
    result = _run("Wires-286", stub_url, tmp_path)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    line = lines[0]
    assert "Replay diverged at request #1: expected GET /startmission?" in line
    expected, received = line.split("expected", 1)[1].split("received", 1)
    assert "seed=234" in expected and "seed=286" in received  # only what differs is named
