"""``gptnt report`` and ``gptnt export`` over records that someone else broke: a torn line in
the middle of ``events.jsonl``, a line of bad UTF-8, a line far over the line cap, a truncated
and an empty ``summary.json``, junk in the ledger. Each bad item is skipped and named on one
warning line; every table is still written; nothing raises."""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gptnt.analysis import load_run
from gptnt.bounded import MAX_LINE_BYTES

GPTNT = Path(sys.executable).parent / "gptnt"


def _gptnt(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    if not GPTNT.exists():
        pytest.skip(f"console script {GPTNT} not installed")
    return subprocess.run([str(GPTNT), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip


@pytest.fixture
def broken(run_dir: Path, tmp_path: Path) -> Path:
    run = tmp_path / run_dir.name
    shutil.copytree(run_dir, run)
    episodes = sorted((run / "episodes").iterdir())
    events = episodes[0] / "events.jsonl"
    lines = events.read_bytes().splitlines(keepends=True)
    torn = lines[1][: len(lines[1]) // 2] + b"\n"
    huge = b'{"kind": "turn", "raw_output": "' + b"x" * (MAX_LINE_BYTES + 10) + b'"}\n'
    events.write_bytes(b"".join([lines[0], torn, b"\xff\xfe not utf-8\n", huge, *lines[2:]]))
    summary = episodes[1] / "summary.json"
    summary.write_bytes(summary.read_bytes()[:40])
    (episodes[2] / "summary.json").write_bytes(b"")
    for frame in sorted((episodes[4] / "frames").glob("*.png")):
        frame.write_bytes(b"\x89PNG\r\n\x1a\n junk")  # every frame and mask of one episode
    with open(run / "ledger.jsonl", "ab") as ledger:
        ledger.write(b"\x00\x01 junk\n")
    return run


def test_broken_records_are_skipped_counted_and_named(broken: Path, tmp_path: Path) -> None:
    run = load_run(broken)
    episodes = sorted((broken / "episodes").iterdir())
    events = episodes[0] / "events.jsonl"
    torn_at = len(events.read_bytes().splitlines()[1])
    junk_at = len((broken / "ledger.jsonl").read_bytes().splitlines())
    assert sorted(run.unreadable) == sorted([
        (f"3 lines unreadable in {events} (line 2: not valid JSON (EOF while parsing a string at line 1 "
        f"column {torn_at}))"),
        (f"{episodes[1] / 'summary.json'} unreadable (not valid JSON (EOF while parsing a string at "
        "line 3 column 17)); skipped"),
        (f"{episodes[2] / 'summary.json'} unreadable (not valid JSON (EOF while parsing a value at line "
        "1 column 0)); skipped"),
        (f"1 line unreadable in {broken / 'ledger.jsonl'} (line {junk_at}: not valid JSON (expected "
        "value at line 1 column 1))"),
    ])  # fmt: skip
    by_dir = {e.dir: e for e in run.episodes}
    assert by_dir[episodes[1]].summary is None and by_dir[episodes[2]].summary is None
    assert len(by_dir[episodes[0]].turns) > 0  # the readable lines are all there


@pytest.mark.parametrize("command", ["report", "export"])
def test_report_and_export_still_write_every_table(
    command: str, broken: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    args = ["--out", str(out)] + (["--format", "csv"] if command == "export" else [])
    done = _gptnt(command, str(broken), *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    text = done.stdout + done.stderr
    assert "Traceback" not in text
    warnings = [line for line in text.splitlines() if " unreadable " in line]
    assert len(warnings) == 4, text
    assert all(line.startswith("warning: ") for line in warnings)
    assert max(len(line) for line in text.splitlines()) < 500  # no 16 MB line echoed
    if command == "export":
        with open(out / "episodes.csv") as table:
            rows = list(csv.DictReader(table))
        assert len(rows) == len(list((broken / "episodes").iterdir()))
        assert (out / "turns.csv").stat().st_size > 0
    else:
        assert (out / "report.html").is_file() and (out / "report.md").is_file()


@pytest.fixture
def strange_folders(run_dir: Path, tmp_path: Path) -> Path:
    """Folders under ``episodes/`` that are no episode: a symlink loop (two links naming each
    other) and a name that is not UTF-8 (a copy of a real episode)."""
    run = tmp_path / run_dir.name
    shutil.copytree(run_dir, run)
    folder = run / "episodes"
    (folder / "loop-a1").symlink_to("loop-b-a1")
    (folder / "loop-b-a1").symlink_to("loop-a1")
    real = sorted(folder.iterdir())[0]
    shutil.copytree(real, folder / (b"bad\xff-a1").decode(errors="surrogateescape"))
    return run


def test_strange_episode_folders_are_skipped_and_named(strange_folders: Path) -> None:
    run = load_run(strange_folders)
    folder = strange_folders / "episodes"
    assert sorted(run.unreadable) == sorted([
        f"{folder / 'bad?-a1'} unreadable (its name is not UTF-8; rename it); skipped",
        f"{folder / 'loop-a1'} unreadable (not a directory); skipped",
        f"{folder / 'loop-b-a1'} unreadable (not a directory); skipped",
    ])  # fmt: skip
    assert len(run.episodes) == len(list(folder.iterdir())) - 3


def test_report_over_strange_folders_writes_every_table(
    strange_folders: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    done = _gptnt("report", str(strange_folders), "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    text = done.stdout + done.stderr
    assert "Traceback" not in text
    assert len([line for line in text.splitlines() if " unreadable " in line]) == 3, text
    assert (out / "report.html").is_file()


@pytest.mark.parametrize("command", ["report", "export"])
def test_out_that_is_a_file_is_refused_up_front(
    command: str, run_dir: Path, tmp_path: Path
) -> None:
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    for out in (afile, afile / "sub"):
        args = ["--out", str(out)] + (["--format", "csv"] if command == "export" else [])
        done = _gptnt(command, str(run_dir), *args, cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        assert done.stderr.strip().splitlines()[-1] == (
            f"error: --out {out}: {afile} is not a directory; give a folder"
        )
        assert afile.read_text() == "mine\n"
