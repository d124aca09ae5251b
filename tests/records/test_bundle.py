"""A shipped episode (``pack``) is checked whole before a byte of it is written (``check``):
any path leaving the episode's directory, bad data, a size over the bounds, or a summary that
is not this attempt's is a ``BundleError`` naming it, and nothing is written."""

from __future__ import annotations

import base64
import json
import time
from pathlib import Path

import pytest

from gptnt.records import (
    BundleError,
    EpisodeStarted,
    Harness,
    Ledger,
    PlayerInfo,
    Summary,
    check,
    harness,
    pack,
    read_summary,
    unpack,
)

PLAYERS = [PlayerInfo(role="defuser", policy="oracle", kind="scripted", label="oracle")]


def _summary(attempt: int = 1, outcome: str = "solved", mission: str = "Wires-234") -> Summary:
    return Summary(episode_id="e", mission_id=mission, mode="sync", attempt=attempt,
                   players=PLAYERS, outcome=outcome, time_limit=81, started_at=time.time(),
                   ended_at=time.time())  # type: ignore[arg-type]  # fmt: skip


def _episode(tmp_path: Path) -> Path:
    folder = tmp_path / "staging" / "ep-a1"
    (folder / "frames").mkdir(parents=True)
    (folder / "summary.json").write_text(_summary().model_dump_json())
    (folder / "events.jsonl").write_text('{"kind": "x"}\n')
    (folder / "frames" / "abc.png").write_bytes(b"\x89PNG...")
    return folder


def _with(bundle: str, name: str, data: object) -> str:
    files = json.loads(bundle)
    files[name] = data
    return json.dumps(files)


def test_a_packed_episode_round_trips_into_the_run(tmp_path: Path) -> None:
    source = _episode(tmp_path)
    files, summary = check(pack(source), attempt=1, mission_id="Wires-234")
    target = tmp_path / "run" / "episodes" / "ep-a1"
    assert unpack(files, target) == 3
    assert read_summary(target) == summary == read_summary(source)
    assert (target / "frames" / "abc.png").read_bytes() == b"\x89PNG..."


@pytest.mark.parametrize(
    "name",
    ["/etc/passwd", "../escape.txt", "frames/../../escape.txt", "a\\..\\b", "nul\x00", "", "."],
)
def test_a_path_leaving_the_episode_directory_is_refused(tmp_path: Path, name: str) -> None:
    bundle = _with(pack(_episode(tmp_path)), name, base64.b64encode(b"x").decode())
    with pytest.raises(BundleError, match="leaves the episode directory"):
        check(bundle, attempt=1, mission_id="Wires-234")


@pytest.mark.parametrize(
    ("bundle", "why"),
    [
        (None, "not packed records"),
        ("{not json", "not JSON"),
        ('["a list"]', "not an object"),
        ("{}", "no summary.json"),
        ('{"summary.json": 7}', "no base64 text"),
        ('{"summary.json": "***"}', "is not base64"),
        (json.dumps({"summary.json": base64.b64encode(b"{}").decode()}), "is not a summary"),
    ],
)
def test_malformed_bundles_are_refused_with_what_is_wrong(bundle: object, why: str) -> None:
    with pytest.raises(BundleError, match=why):
        check(bundle, attempt=1, mission_id="Wires-234")


def test_bundles_over_the_bounds_are_refused(tmp_path: Path) -> None:
    bundle = pack(_episode(tmp_path))
    with pytest.raises(BundleError, match="files, over 2"):
        check(bundle, attempt=1, mission_id="Wires-234", max_files=2)
    with pytest.raises(BundleError, match="over 100 bytes"):
        check(bundle, attempt=1, mission_id="Wires-234", max_bytes=100)
    with pytest.raises(BundleError, match="characters, over the bound"):
        check("x" * 10_000, attempt=1, mission_id="Wires-234", max_bytes=10, max_files=1)


def test_a_summary_of_another_attempt_or_mission_is_refused(tmp_path: Path) -> None:
    bundle = pack(_episode(tmp_path))
    with pytest.raises(BundleError, match="not the attempt 2 of Wires-234"):
        check(bundle, attempt=2, mission_id="Wires-234")
    with pytest.raises(BundleError, match="not the attempt 1 of Keypad-286"):
        check(bundle, attempt=1, mission_id="Keypad-286")


def test_the_ledger_settles_each_attempt_and_parks_from_its_own_count(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path)
    assert ledger.next_attempt("k") == 1 and not ledger.has("k", 1)
    first = ledger.settle("k", _summary(1, "crashed"), park_after=3)
    stopped = ledger.settle("k", _summary(2, "interrupted"), park_after=3)
    second = ledger.settle("k", _summary(3, "crashed"), park_after=3)
    third = ledger.settle("k", _summary(4, "crashed"), park_after=3)
    assert [first.status, stopped.status, second.status, third.status] == [
        "crashed", "interrupted", "crashed", "parked",
    ]  # fmt: skip
    assert ledger.has("k", 2) and ledger.next_attempt("k") == 5 and "k" in ledger.done()
    assert third.episode_dir == "episodes/k-a4"


def test_an_episode_played_by_another_harness_is_refused(tmp_path: Path) -> None:
    """A game host running another gptnt (version or commit) played another experiment: its
    records would mix into the suite's rates unnoticed, so the suite refuses them."""
    ours = harness()
    source = _episode(tmp_path)
    start = EpisodeStarted(episode_id="e", mission_id="Wires-234", mode="sync", players=PLAYERS,
                           mission="{}", at=time.time(), harness=ours)  # fmt: skip
    (source / "events.jsonl").write_text(start.model_dump_json() + "\n")
    check(pack(source), attempt=1, mission_id="Wires-234", harness=ours)
    for other in (Harness(version="0.0.1", commit=ours.commit),
                  Harness(version=ours.version, commit="f" * 40), None):  # fmt: skip
        start = start.model_copy(update={"harness": other})
        (source / "events.jsonl").write_text(start.model_dump_json() + "\n")
        with pytest.raises(BundleError, match="played by gptnt .*, not this suite's"):
            check(pack(source), attempt=1, mission_id="Wires-234", harness=ours)
    # Without a start (an attempt that crashed before it) there is nothing played to refuse.
    (source / "events.jsonl").write_text("")
    check(pack(source), attempt=1, mission_id="Wires-234", harness=ours)
