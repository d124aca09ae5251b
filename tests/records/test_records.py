"""Episode records and the ledger on real files."""

from __future__ import annotations

import hashlib
import io
import os
import time
from pathlib import Path

import pytest
from PIL import Image

from gptnt.bounded import Tally
from gptnt.records import (
    EpisodeEnded,
    EpisodeStarted,
    EpisodeWriter,
    Ledger,
    LedgerEntry,
    ModuleResult,
    PlayerInfo,
    RecordedAction,
    Summary,
    TurnEvent,
    episode_dir,
    frame_path,
    read_events,
    read_summary,
    store_png,
)

PLAYERS = [
    PlayerInfo(
        role="defuser",
        policy="oracle",
        kind="scripted",
        privileged=True,
        label="oracle (privileged, scripted)",
    ),
    PlayerInfo(role="expert", policy="oracle", kind="scripted", label="oracle (scripted)"),
]


def _png(colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), colour).save(out, format="PNG")
    return out.getvalue()


def _summary(key: str, outcome: str = "solved") -> Summary:
    now = time.time()
    return Summary(
        episode_id=key,
        mission_id="3",
        mode="sync",
        players=PLAYERS,
        outcome=outcome,
        modules=[ModuleResult(name="Wires", solved=True), ModuleResult(name="Maze", solved=False)],
        time_limit=180,
        started_at=now,
        ended_at=now,
    )


def test_episode_round_trip(tmp_path: Path) -> None:
    writer = EpisodeWriter(tmp_path / "ep")
    started = EpisodeStarted(
        episode_id="ep", mission_id="3", mode="sync", players=PLAYERS, mission="{}", at=1.0
    )
    writer.append(started)
    red = _png((255, 0, 0))
    digest = writer.store_png(red)
    assert writer.store_png(red) == digest  # stored once
    assert digest == hashlib.sha256(red).hexdigest()
    assert frame_path(tmp_path / "ep", digest).read_bytes() == red
    turn = TurnEvent(
        role="defuser",
        turn=0,
        started_at=1.0,
        dispatched_at=1.1,
        raw_output="press A",
        action=RecordedAction(
            kind="interact_game", name="click_release", label="A", x_pos=0.5, y_pos=0.5
        ),
        frames=[digest],
    )
    writer.append(turn)
    # Before the summary exists the episode counts as unfinished, yet its events are readable.
    assert read_summary(tmp_path / "ep") is None
    assert [e.kind for e in read_events(tmp_path / "ep")] == ["episode_started", "turn"]
    writer.append(EpisodeEnded(outcome="solved", reason="all modules solved", at=2.0))
    writer.finish(_summary("ep"))
    summary = read_summary(tmp_path / "ep")
    assert summary is not None and summary.modules_solved == 1
    events = list(read_events(tmp_path / "ep"))
    assert events[1] == turn.model_copy(update={"episode_id": "ep"})
    assert {e.episode_id for e in events} == {"ep"}  # every line names its episode
    assert not list((tmp_path / "ep").glob(".*tmp"))


def test_frames_stored_unsynced_are_synced_at_finish_before_the_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn stores its frames without an fsync (off its path); a durable writer's finish
    fsyncs them, then the event log, and only then writes the summary."""
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    writer = EpisodeWriter(tmp_path / "ep")
    digest = store_png(tmp_path / "ep", _png((0, 0, 255)), durable=False)
    assert synced == []
    writer.finish(_summary("ep"))
    frame = str(frame_path(tmp_path / "ep", digest))
    events = str(tmp_path / "ep" / "events.jsonl")
    assert frame in synced and events in synced
    assert synced.index(frame) < synced.index(events) < len(synced) - 1  # the summary is last
    assert read_summary(tmp_path / "ep") is not None


def test_torn_last_line_is_skipped_silently_a_torn_middle_is_skipped_and_counted(
    tmp_path: Path,
) -> None:
    writer = EpisodeWriter(tmp_path / "ep")
    writer.append(EpisodeEnded(outcome="timeout", reason="clock", at=1.0))
    writer.close()
    with open(tmp_path / "ep" / "events.jsonl", "a") as out:
        out.write('{"kind": "turn", "role": "def')
    tally = Tally()
    assert len(list(read_events(tmp_path / "ep", tally=tally))) == 1
    assert tally.total == 0  # the line in flight when the writer died
    with open(tmp_path / "ep" / "events.jsonl", "a") as out:
        out.write('\n{"kind": "episode_ended", "outcome": "solved", "reason": "", "at": 2}\n')
    events = list(read_events(tmp_path / "ep", tally=tally))
    assert [e.outcome for e in events] == ["timeout", "solved"]  # type: ignore[union-attr]
    assert tally.lines() == [
        (
            f"1 line unreadable in {tmp_path / 'ep' / 'events.jsonl'} (line 2: not valid JSON (EOF while "
            "parsing a string at line 1 column 29))"
        )
    ]


def test_unknown_fields_and_outcomes_are_refused() -> None:
    with pytest.raises(ValueError):
        EpisodeEnded(outcome="exploded", reason="", at=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        RecordedAction(kind="interact_game", colour="red")  # type: ignore[call-arg]


def test_ledger_resume_and_rebuild(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path)
    assert ledger.done() == set()
    for key, attempt, status, outcome in [
        ("m1", 1, "finished", "solved"),
        ("m2", 1, "crashed", "crashed"),
        ("m2", 2, "finished", "timeout"),
        ("m3", 1, "crashed", "crashed"),
        ("m4", 1, "parked", "crashed"),
    ]:
        path = episode_dir(tmp_path, key, attempt)
        EpisodeWriter(path).finish(_summary(key, outcome))
        ledger.append(
            LedgerEntry(
                episode_key=key,
                attempt=attempt,
                status=status,
                outcome=outcome,
                episode_dir=str(path.relative_to(tmp_path)),
                at=time.time(),
            )
        )
    assert ledger.done() == {"m1", "m2", "m4"}
    assert ledger.attempts("m2") == 2
    with open(ledger.path, "a") as out:
        out.write('{"kind": "ledger_en')  # a writer killed mid-line
    assert ledger.done() == {"m1", "m2", "m4"}
    assert ledger.rebuild() == 5
    # Rebuilt from summaries: "parked" is a decision of the queue, so m4 comes back as crashed.
    assert ledger.done() == {"m1", "m2"}
    # A summary cut short (a full disk, a copy interrupted) or emptied: that episode is not done,
    # the rebuild skips it, and reconciling does not raise.
    summary = episode_dir(tmp_path, "m1", 1) / "summary.json"
    summary.write_bytes(summary.read_bytes()[:50])
    (episode_dir(tmp_path, "m2", 2) / "summary.json").write_bytes(b"")
    assert ledger.done() == set()
    assert ledger.reconcile() == 0
    assert ledger.rebuild() == 3


@pytest.mark.parametrize("name", [b"bad\xff-a1", b"m9-abc", b"m9-a", b"-a1", b"m9-a\xd9\xa3"],
                         ids=["not-utf8", "attempt-not-a-number", "no-attempt", "no-key",
                              "arabic-digit"])  # fmt: skip
def test_folders_that_are_no_attempt_are_skipped_and_counted(tmp_path: Path, name: bytes) -> None:
    """A folder under ``episodes/`` whose name is not UTF-8 or not ``KEY-aN`` (or that is a file)
    never stops a resume or a rebuild: it is skipped, named once, and the rest still count."""
    good = episode_dir(tmp_path, "m1", 1)
    EpisodeWriter(good).finish(_summary("m1"))
    odd = tmp_path / "episodes" / os.fsdecode(name)
    EpisodeWriter(odd).finish(_summary("odd"))
    (tmp_path / "episodes" / "m7-a1").write_text("a file where a folder goes")
    ledger = Ledger(tmp_path)
    tally = Tally()
    assert ledger.reconcile(tally=tally) == 1  # m1 only
    assert [e.episode_key for e in ledger.entries()] == ["m1"]
    assert tally.total == 2, tally.lines()
    lines = "\n".join(tally.lines())
    assert "m7-a1 unreadable (not a directory); skipped" in lines
    assert "rename" in lines
    lines.encode()  # the line itself can be printed and written
    again = Tally()
    assert ledger.rebuild(tally=again) == 1 and again.total == 2
    assert ledger.done() == {"m1"}


V1_EVENTS = [
    (
        '{"kind":"episode_started","schema_version":1,"episode_id":"old-a1","mission_id":"3",'
        '"mode":"sync","players":[{"role":"defuser","policy":"random","kind":"scripted",'
        '"privileged":false,"label":"random (scripted)","seat":null,"manual":null}],'
        '"mission":"{}","at":1.0}'
    ),
    (
        '{"kind":"turn","role":"defuser","turn":0,"started_at":1.0,"dispatched_at":1.5,'
        '"seconds_remaining":180.0,"received":[],"raw_output":"x","action":{"kind":"do_nothing",'
        '"name":null,"label":null,"x_pos":null,"y_pos":null,"message":null},"result":null,'
        '"warnings":[],"errors":[],"frames":[],"mask":null,"tokens":{"input":0,"output":0,'
        '"cache_read":0,"cache_write":0},"cost_usd":0.0,"latency_s":0.1}'
    ),
    '{"kind":"episode_ended","outcome":"timeout","reason":"clock","at":2.0}',
]


def test_version_1_records_still_read(tmp_path: Path) -> None:
    """A version 1 file (no ids on later lines, no settings, no harness) reads as version 2
    with the ids filled from the directory and the new fields empty."""
    folder = tmp_path / "old-a1"
    folder.mkdir()
    (folder / "events.jsonl").write_text("\n".join(V1_EVENTS) + "\n")
    events = list(read_events(folder))
    assert [e.episode_id for e in events] == ["old-a1"] * 3
    started, turn, _ = events
    assert started.schema_version == 1 and started.harness is None
    assert started.players[0].settings is None
    assert turn.shown == [] and turn.strikes is None


def test_a_rule_seed_copied_into_the_conditions_still_reads(tmp_path: Path) -> None:
    """Version 2 records of an earlier harness also wrote the rule seed into ``conditions``; the
    copy is dropped on reading and the episode's own ``rule_seed`` field is the one kept."""
    conditions = '{"suite":"paper","rule_seed":1764,"time_limit":300,"pairing":"a/b"}'
    summary = _summary("seeded-a1").model_dump_json(exclude={"conditions", "rule_seed"})
    summary = summary[:-1] + f',"rule_seed":1764,"conditions":{conditions}}}'
    folder = tmp_path / "seeded-a1"
    folder.mkdir()
    (folder / "summary.json").write_text(summary)
    read = read_summary(folder)
    assert read is not None and read.rule_seed == 1764
    assert read.conditions is not None and read.conditions.suite == "paper"
    assert "rule_seed" not in read.conditions.model_dump()
    with pytest.raises(ValueError, match="extra"):  # other unknown fields are still refused
        Summary.model_validate_json(summary.replace('"suite"', '"suit"'))


def test_a_line_after_a_torn_last_line_is_kept_whole(tmp_path: Path) -> None:
    """A writer killed mid-line (SIGKILL, a power cut) leaves the ledger without its final
    newline: the resumed run's first line was glued onto the torn one, and that finished
    attempt vanished from the ledger (found by killing a suite and resuming it)."""
    ledger = Ledger(tmp_path)
    ledger.close("Wires-234.sync.oracle-oracle.r0", 1, "solved")
    with ledger.path.open("ab") as torn:
        torn.write(b'{"kind":"ledger_entry","schema_version":6,"episode_key":"Wires-2')
    ledger.close("Wires-286.sync.oracle-oracle.r0", 1, "solved")
    tally = Tally()
    assert sorted(ledger.latest(tally=tally)) == [
        "Wires-234.sync.oracle-oracle.r0",
        "Wires-286.sync.oracle-oracle.r0",
    ]
    assert tally.total == 1  # the torn line, still counted and named
    assert ledger.path.read_bytes().endswith(b"}\n")
