"""Crafted outside bytes for the tests of the bounded readers (``gptnt.bounded``): recordings
whose zip lies, YAML that expands or names a language tag. Each builder writes real files the
way an attacker (or a broken disk) would, from a real recording made by ``write_recording``."""

from __future__ import annotations

import json
import os
import socket
import struct
import zipfile
from datetime import UTC, datetime
from pathlib import Path

from gptnt.sim.recording import Exchange, Recording, RecordingInfo, write_recording

ALIAS_BOMB = "\n".join(
    ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    + [f"{n}: &{n} [{','.join([f'*{p}'] * 9)}]" for p, n in zip("abcdefgh", "bcdefghi", strict=True)]
    + ["model: vllm:m"]
) + "\n"  # fmt: skip
"""356 bytes that expand to 9⁹ (387 million) strings."""

PYTHON_TAG = 'model: !!python/object/apply:os.system ["echo owned"]\n'


def recording(path: Path, body: bytes = b"Paused") -> Path:
    """A real, valid recording of one exchange."""
    info = RecordingInfo(created=datetime(2026, 1, 1, tzinfo=UTC), source="test")
    ex = Exchange(index=0, method="GET", target="/timestep", status=200, body=body)
    write_recording(path, Recording(info, [ex]))
    return path


def _data_offset(data: bytes, info: zipfile.ZipInfo) -> int:
    name_len, extra_len = struct.unpack(
        "<HH", data[info.header_offset + 26 : info.header_offset + 30]
    )
    return info.header_offset + 30 + name_len + extra_len


def corrupt_deflate(path: Path) -> Path:
    """A recording whose body member's deflate stream is overwritten with junk."""
    recording(path, body=bytes(range(256)) * 64)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo("bodies/00000")
    start = _data_offset(bytes(data), info)
    data[start : start + info.compress_size] = b"\xff" * info.compress_size
    path.write_bytes(bytes(data))
    return path


def unknown_method(path: Path, method: int = 99) -> Path:
    """A recording whose body member claims a compression method no reader knows."""
    recording(path)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo("bodies/00000")
    struct.pack_into("<H", data, info.header_offset + 8, method)  # the local header
    name = info.filename.encode()
    central = data.index(b"PK\x01\x02", data.index(b"PK\x01\x02"))
    while data[central + 46 : central + 46 + len(name)] != name:
        central = data.index(b"PK\x01\x02", central + 4)
    struct.pack_into("<H", data, central + 10, method)  # the central directory's entry
    path.write_bytes(bytes(data))
    return path


def zip_bomb(path: Path, size: int = 300 * 1024 * 1024) -> Path:
    """A recording whose one body inflates to ``size`` bytes of zeros (a few hundred KB on
    disk), written in chunks and never held whole."""
    info = RecordingInfo(created=datetime(2026, 1, 1, tzinfo=UTC), source="test")
    ex = Exchange(index=0, method="GET", target="/buffer", status=200)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("recording.json", info.model_dump_json())
        zf.writestr("exchanges.jsonl", ex.model_dump_json() + "\n")
        member = zipfile.ZipInfo(ex.member)
        member.compress_type = zipfile.ZIP_DEFLATED
        with zf.open(member, "w", force_zip64=True) as out:
            chunk = bytes(1024 * 1024)
            for _ in range(size // len(chunk)):
                out.write(chunk)
    return path


def live_lock(path: Path) -> Path:
    """A run directory's writer lock held by this (live) process on this host."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"host": socket.gethostname(), "pid": os.getpid(), "since": 0}))
    return path


def fifo(path: Path) -> Path:
    """A named pipe nobody writes to: opening it for reading blocks until a writer comes."""
    os.mkfifo(path)
    return path


def endless(path: Path) -> Path:
    """A link to ``/dev/zero``: a read of it never ends."""
    path.symlink_to("/dev/zero")
    return path
