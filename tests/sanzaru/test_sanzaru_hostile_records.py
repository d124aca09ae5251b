"""SANZARU run directories as a hostile user leaves them: a bad argument leaves no directory
behind, an ``--out`` that is a file is one line and exit 2, a torn or missing ``summary.json``
is reported on one line and played again by the next suite (never a traceback)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from gptnt.cli import app

GPTNT = str(Path(sys.executable).parent / "gptnt")


def _binary(*args: str) -> subprocess.CompletedProcess[str]:
    """The real binary, whose exit codes and one-line errors the user sees."""
    return subprocess.run([GPTNT, "sanzaru", *args], check=False, capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def _cli(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, ["sanzaru", *args])


def _suite(out: Path, team: str = "oracle"):  # type: ignore[no-untyped-def]
    return _cli("suite", "--team", team, "--variant", "base-1", "--instances", "2",
                "--repeats", "1", "--out", str(out))  # fmt: skip


def test_a_bad_argument_leaves_no_run_directory(tmp_path: Path) -> None:
    for args in (["run", "nosuch"], ["suite", "--variant", "nosuch"]):
        result = _binary(*args, "--out", str(tmp_path / "out"))
        assert result.returncode == 2, (args, result.stderr)
        assert not (tmp_path / "out").exists(), args


def test_an_out_that_is_a_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("mine")
    for args in (["run", "base-1"], ["suite", "--variant", "base-1", "--instances", "1"]):
        result = _binary(*args, "--out", str(tmp_path / "afile"))
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and "afile: not a directory" in result.stderr
    assert (tmp_path / "afile").read_text() == "mine"


def test_a_torn_or_missing_summary_is_said_and_played_again(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert _suite(run).exit_code == 0 and _suite(run, "random").exit_code == 0
    torn = run / "episodes" / "base-1-i1-r1-oracle.weak.dmb-a1" / "summary.json"
    torn.write_bytes(torn.read_bytes()[:90])  # the writer died mid-file (no atomic rename)
    gone = run / "episodes" / "base-1-i2-r1-random.weak.dmb-a1" / "summary.json"
    gone.unlink()
    report = _cli("report", str(run))
    assert report.exit_code == 0, report.output
    assert f"{torn} unreadable (not valid JSON" in report.output.replace("\n", "")
    assert f"{gone} unreadable (missing); skipped" in report.output.replace("\n", "")
    again = _suite(run)
    assert again.exit_code == 0, again.output
    assert (torn.parent.parent / "base-1-i1-r1-oracle.weak.dmb-a2" / "summary.json").is_file()
    assert _suite(run, "random").exit_code == 0
    assert (gone.parent.parent / "base-1-i2-r1-random.weak.dmb-a2" / "summary.json").is_file()
    clean = _cli("report", str(run))
    assert clean.exit_code == 0 and "unreadable" not in clean.output


async def test_a_provider_that_is_down_crashes_the_episode_never_loses_it(
    server, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """HTTP 500 on every call is the provider's failure: three in a row for one role end the
    episode ``crashed`` (kept out of n, played again), not a team's timeout coded as a mode; a
    well-formed but useless answer stays the model's."""
    from gptnt.players.config import PlayerConfig
    from gptnt.sanzaru import Team, play, variant

    config = PlayerConfig(model="vllm:team", base_url=server.url, transport_retries=0)
    server.replies = [(500, b"overloaded")] * 40
    down = await play(variant("base-1"), 1, Team("model", "team", config), tmp_path / "a")
    assert down.outcome == "crashed" and down.sanzaru and down.sanzaru.failure_mode is None, down
    assert down.reason.startswith("provider: provider failed 3 calls of the deaf")
    server.replies = []  # well-formed text without a call: the model's own loss
    played = await play(variant("base-1"), 1, Team("model", "team", config), tmp_path / "b")
    assert played.outcome == "timeout" and played.reason in ("timed_out", "never_acted")
