"""Fuzzing every reader of outside bytes (``gptnt.bounded`` and its users): whatever the bytes,
a reader returns its value, skips and counts the item, or raises our typed error
(``UnreadableError`` or the ``ConfigError`` of the file's kind) — never anything else — and
crafted input (alias bombs, deep nesting, zips that lie) stays within bounded time and memory."""

from __future__ import annotations

import contextlib
import io
import json
import struct
import subprocess
import sys
import tracemalloc
import zipfile
from pathlib import Path

import hostile_inputs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gptnt.bounded import (
    Tally,
    load_yaml,
    parse_json,
    read_json,
    read_jsonl,
    strict_json,
)
from gptnt.errors import ConfigError, MissionError, PlayerConfigError, UnreadableError
from gptnt.missions import load_mission_file
from gptnt.players.config import load_player_config
from gptnt.records import LedgerEntry, read_events, read_summary
from gptnt.services.bus import Message
from gptnt.sim.recording import read_recording
from gptnt.suites import load_suite

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                HealthCheck.function_scoped_fixture])  # fmt: skip

# Bytes that look like our files often enough to reach past the first check.
SEEDS = [
    b'{"kind": "episode_ended", "outcome": "solved", "reason": "", "at": 1}',
    b'{"kind": "summary", "schema_version": 4}',
    b'{"kind": "message", "sender": "expert", "text": "cut", "sent_at": 1}',
    b"model: vllm:m\nbase_url: http://127.0.0.1:1/v1\n",
    b"a: &a [1, 2]\nb: [*a, *a]\n",
    b"name: s\nmissions: [Wires-234]\n",
]
outside = st.one_of(
    st.binary(max_size=400),
    st.sampled_from(SEEDS).flatmap(
        lambda seed: st.tuples(st.integers(0, len(seed)), st.binary(max_size=8)).map(
            lambda cut: seed[: cut[0]] + cut[1] + seed[cut[0] :]
        )
    ),
    st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
)


@FUZZ
@given(lines=st.lists(outside, max_size=6))
def test_json_lines_never_raise(
    tmp_path_factory: pytest.TempPathFactory, lines: list[bytes]
) -> None:
    folder = tmp_path_factory.mktemp("ep")
    data = b"\n".join(lines) + b"\n"
    (folder / "events.jsonl").write_bytes(data)
    tally = Tally()
    events = list(read_events(folder, tally=tally))
    assert len(events) + tally.total <= data.count(b"\n")
    list(read_jsonl(folder / "events.jsonl", LedgerEntry.model_validate_json, tally=Tally()))


@FUZZ
@given(data=outside)
def test_whole_json_files_are_a_value_or_our_error(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    folder = tmp_path_factory.mktemp("ep")
    (folder / "summary.json").write_bytes(data)
    tally = Tally()
    if read_summary(folder, tally=tally) is None:
        assert tally.total == 1
    with contextlib.suppress(UnreadableError):
        read_json(folder / "summary.json", json.loads)


@FUZZ
@given(data=outside)
def test_inbox_items_are_a_message_or_our_error(data: bytes) -> None:
    with contextlib.suppress(UnreadableError):
        assert isinstance(parse_json(data, Message.model_validate_json, where="inbox"), Message)


@FUZZ
@given(data=outside)
def test_yaml_is_plain_data_or_our_error(data: bytes) -> None:
    try:
        load_yaml(data.decode("utf-8", "replace"), where="file.yaml")
    except UnreadableError as err:
        assert "\n" not in str(err) and str(err).startswith("file.yaml: ")


@FUZZ
@given(data=outside, suffix=st.sampled_from([".yaml", ".json"]))
def test_config_suite_and_mission_files_raise_only_their_error(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, suffix: str
) -> None:
    folder = tmp_path_factory.mktemp("cfg")
    for name, load, error in [
        (f"player{suffix}", lambda p: load_player_config(str(p)), PlayerConfigError),
        (f"suite{suffix}", lambda p: load_suite(str(p)), MissionError),
        ("single/M-1.json", load_mission_file, MissionError),
    ]:
        path = folder / name
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
        if name.startswith("player") and suffix == ".json":
            continue  # a player config is YAML only
        try:
            load(path)
        except error as err:
            assert "\n" not in str(err)


@FUZZ
@given(flips=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=6),
       cut=st.integers(0, 10_000))  # fmt: skip
def test_mutated_recordings_load_or_raise_our_error(
    tmp_path_factory: pytest.TempPathFactory, flips: list[tuple[int, int]], cut: int
) -> None:
    folder = tmp_path_factory.mktemp("rec")
    data = bytearray(hostile_inputs.recording(folder / "ok.zip", body=b"x" * 500).read_bytes())
    for at, value in flips:
        data[at % len(data)] = value
    path = folder / "mutated.zip"
    path.write_bytes(bytes(data[: max(cut, 22)]) if cut < len(data) else bytes(data))
    try:
        read_recording(path)
    except ConfigError as err:
        assert "\n" not in str(err)


# Parses each file given (the last with read_yaml, the others' text with load_yaml), prints each
# refusal on a line, then how far the resident high-water mark rose meanwhile, in KiB (Linux).
_PEAK_CHILD = """
import resource, sys
from pathlib import Path
from gptnt.bounded import UnreadableError, load_yaml, read_yaml
*texts, last = sys.argv[1:]
texts = [Path(name).read_text() for name in texts]
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
for parse, arg in [*((load_yaml, text) for text in texts), (read_yaml, Path(last))]:
    try:
        parse(arg) if parse is read_yaml else parse(arg, where="bomb.yaml")
    except UnreadableError as err:
        print(str(err).replace(chr(10), " "))
    else:
        sys.exit("accepted: " + str(arg)[:80])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


def test_alias_bombs_and_deep_nesting_stay_small(tmp_path: Path) -> None:
    """The 356-byte bomb (9⁹ strings expanded) and 100,000 nested brackets are refused with a
    few MB of memory, not gigabytes. The peak is a fresh interpreter's resident high-water mark,
    which counts every allocation (C's too); tracemalloc, which hooks each one, made PyYAML's
    scan of the brackets take 80 s instead of 5."""
    texts = (hostile_inputs.ALIAS_BOMB, "[" * 100_000, "a: " + "{b: " * 50_000)
    files = [tmp_path / f"{n}.yaml" for n in range(len(texts))]
    for file, text in zip(files, texts, strict=True):
        file.write_text(text)
    (tmp_path / "bomb.yaml").write_text(hostile_inputs.ALIAS_BOMB)
    child = subprocess.run(
        [sys.executable, "-c", _PEAK_CHILD, *map(str, files), str(tmp_path / "bomb.yaml")],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert child.returncode == 0, child.stdout + child.stderr
    *refusals, peak_kib = child.stdout.splitlines()
    assert len(refusals) == len(texts) + 1, child.stdout
    assert "aliases expand to more than" in refusals[-1], refusals[-1]
    assert int(peak_kib) * 1024 < 200 * 1024 * 1024, peak_kib


def test_a_member_that_lies_about_its_size_is_cut_at_the_cap(tmp_path: Path) -> None:
    """A zip whose header declares a small size for a large member is never inflated past the
    declared size plus one byte of the cap (zipfile stops at the declared size)."""
    from gptnt.bounded import zip_member

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("m", bytes(1_000_000))
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as zf:
        with pytest.raises(UnreadableError, match="over the 0.5 MiB a member may hold"):
            zip_member(zf, "m", where="z", limit=512 * 1024)
        assert len(zip_member(zf, "m", where="z")) == 1_000_000


def test_a_fifo_in_place_of_a_record_is_named_not_waited_on(tmp_path: Path) -> None:
    """Found by attacking the readers: a named pipe where a record file belongs blocked the
    report forever (open() waits for a writer)."""
    import os

    os.mkfifo(tmp_path / "events.jsonl")
    os.mkfifo(tmp_path / "summary.json")
    tally = Tally()
    assert list(read_events(tmp_path, tally=tally)) == []
    assert read_summary(tmp_path, tally=tally) is None
    assert sorted(tally.lines()) == [
        f"{tmp_path / 'events.jsonl'} unreadable (not a regular file); skipped",
        f"{tmp_path / 'summary.json'} unreadable (not a regular file); skipped",
    ]


def test_a_body_named_by_many_exchanges_is_inflated_once(tmp_path: Path) -> None:
    """Found by attacking the readers: 10,000 exchange lines naming one 1 MB body would have
    inflated it 10,000 times (10 GB); each member is now inflated once."""
    from datetime import UTC, datetime

    from gptnt.sim.recording import Exchange, RecordingInfo

    info = RecordingInfo(created=datetime(2026, 1, 1, tzinfo=UTC), source="test")
    line = Exchange(index=0, method="GET", target="/buffer", status=200).model_dump_json()
    path = tmp_path / "many.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("recording.json", info.model_dump_json())
        zf.writestr("exchanges.jsonl", (line + "\n") * 10_000)
        zf.writestr("bodies/00000", bytes(1_000_000))
    recording = read_recording(path)
    assert len(recording.exchanges) == 10_000
    assert len({id(ex.body) for ex in recording.exchanges}) == 1


def test_a_key_given_twice_is_refused_but_a_merge_may_override() -> None:
    """PyYAML and ``json.loads`` keep the last of two equal keys silently; a file someone wrote
    that says ``idle_sleep_s`` twice is wrong, not a choice of the later value."""
    with pytest.raises(
        UnreadableError, match=r"line 3, column 1: key 'a' given twice \(first on line 1\)"
    ):
        load_yaml("a: 1\nb: 2\na: 3\n", where="x.yaml")
    with pytest.raises(UnreadableError, match="key 'k' given twice"):
        load_yaml("top:\n  - {k: 1, k: 2}\n", where="x.yaml")
    merged = load_yaml("base: &b {a: 1, b: 2}\nmine:\n  <<: *b\n  a: 5\n", where="x.yaml")
    assert merged["mine"] == {"a": 5, "b": 2}
    assert load_yaml("1: x\n'1': y\n", where="x.yaml") == {1: "x", "1": "y"}  # two keys
    with pytest.raises(UnreadableError, match=r"not valid JSON \(key 'seed' given twice\)"):
        parse_json(b'{"x": {"seed": 1, "seed": 2}}', strict_json, where="m.json")


def test_json_numbers_past_python_s_digit_limit_are_one_line() -> None:
    with pytest.raises(UnreadableError) as caught:
        parse_json(b'{"seed": ' + b"9" * 5000 + b"}", json.loads, where="m.json")
    assert str(caught.value) == (
        "m.json: not valid JSON (Exceeds the limit (4300 digits) for integer string conversion: "
        "value has 5000 digits)"
    )


def test_a_zip_of_too_many_members_is_refused_before_its_directory_is_read(
    tmp_path: Path,
) -> None:
    """Found by attacking the readers: zipfile reads the whole central directory on open (167 MB
    of memory and 12 s for 300,000 empty members in a 24 MB file). The end record's count and
    directory size are checked first; a count that understates the directory does not pass."""
    from gptnt.bounded import MAX_DIRECTORY_BYTES, MAX_MEMBERS

    path = tmp_path / "many.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for i in range(MAX_MEMBERS + 1):
            zf.writestr(f"{i:0150d}", b"")
    data = bytearray(path.read_bytes())
    end = data.rfind(b"PK\x06\x06")  # over 65,535 members: the zip64 end record says
    assert struct.unpack_from("<Q", data, end + 40)[0] > MAX_DIRECTORY_BYTES
    with pytest.raises(UnreadableError, match=f"declares {MAX_MEMBERS + 1} members"):
        read_recording(path)
    struct.pack_into("<QQ", data, end + 24, 1, 1)  # the count says one member
    path.write_bytes(bytes(data))
    tracemalloc.start()
    try:
        with pytest.raises(UnreadableError, match="declares 1 members in"):
            read_recording(path)
        assert tracemalloc.get_traced_memory()[1] < 1024 * 1024
    finally:
        tracemalloc.stop()
