"""An episode directory as one value, so records made on another host reach the run.

Every suite worker plays into a staging directory of its own; at the end of each attempt it
ships the episode's files (events, frames, summary, service logs) as the attempt's result, and
the suite, the only writer of the run directory, checks them (``check``) and writes them into
the episode's directory (each file atomically) before its ledger line — so the run's ledger
never names an episode whose records it does not hold, and a rerun never replays one finished
elsewhere.

A bundle comes from another process, possibly another host: it is bounded and checked whole
before one byte of it is written (``BundleError`` names what is wrong).
"""

from __future__ import annotations

import base64
import binascii
import json
from pathlib import Path, PurePosixPath

from pydantic import ValidationError

from gptnt.errors import GptntError
from gptnt.records._episode import EVENTS, SUMMARY, write_atomic
from gptnt.records._schema import EpisodeStarted, Harness, Summary

MAX_BUNDLE_BYTES = 256 * 1024 * 1024
"""Decoded bytes one episode's records may hold (a 300 s async episode's frames, events and logs
are a few MB; this bounds a confused or hostile worker, not an episode)."""
MAX_BUNDLE_FILES = 20_000
"""Files one episode's records may hold (one frame per distinct image, plus a handful)."""


class BundleError(GptntError):
    """A shipped episode that cannot be taken as it is: what is wrong with it."""


def pack(episode_dir: Path) -> str:
    """Every file under ``episode_dir`` as JSON: relative POSIX path → base64 bytes."""
    files = {
        p.relative_to(episode_dir).as_posix(): base64.b64encode(p.read_bytes()).decode()
        for p in sorted(episode_dir.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }
    return json.dumps(files)


def check(
    bundle: object,
    *,
    attempt: int,
    mission_id: str,
    max_bytes: int = MAX_BUNDLE_BYTES,
    max_files: int = MAX_BUNDLE_FILES,
    harness: Harness | None = None,
) -> tuple[dict[PurePosixPath, bytes], Summary]:
    """The files of a packed episode and its summary, checked whole: a JSON object of relative
    paths inside the episode's directory (no absolute path, no ``..``, no backslash or NUL)
    to base64 data, at most ``max_files`` files and ``max_bytes`` decoded bytes, with a
    ``summary.json`` of the schema for this ``attempt`` of ``mission_id``, and (``harness``)
    played by that harness: an episode a host of another gptnt played is another experiment,
    whatever its records say. ``BundleError`` otherwise; nothing is written either way."""
    if not isinstance(bundle, str):
        raise BundleError(f"episode bundle: a {type(bundle).__name__}, not packed records")
    if len(bundle) > max_bytes * 4 // 3 + 64 * max_files + 2:
        raise BundleError(f"episode bundle: {len(bundle):,} characters, over the bound")
    try:
        files = json.loads(bundle)
    except (json.JSONDecodeError, RecursionError) as err:
        raise BundleError(f"episode bundle: not JSON ({err})") from None
    if not isinstance(files, dict):
        raise BundleError("episode bundle: not an object of path → data")
    if len(files) > max_files:
        raise BundleError(f"episode bundle: {len(files):,} files, over {max_files:,}")
    checked: dict[PurePosixPath, bytes] = {}
    total = 0
    for name, data in files.items():
        path = PurePosixPath(name)
        if (not name or path.is_absolute() or ".." in path.parts or "\\" in name
                or "\x00" in name or path == PurePosixPath(".")):  # fmt: skip
            raise BundleError(f"episode bundle: path {name!r} leaves the episode directory")
        if not isinstance(data, str):
            raise BundleError(f"episode bundle: {name!r} holds no base64 text")
        try:
            raw = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise BundleError(f"episode bundle: {name!r} is not base64") from None
        total += len(raw)
        if total > max_bytes:
            raise BundleError(f"episode bundle: over {max_bytes:,} bytes")
        checked[path] = raw
    raw_summary = checked.get(PurePosixPath(SUMMARY))
    if raw_summary is None:
        raise BundleError(f"episode bundle: no {SUMMARY}")
    try:
        summary = Summary.model_validate_json(raw_summary)
    except ValidationError as err:
        raise BundleError(f"episode bundle: {SUMMARY} is not a summary ({err.error_count()} "
                          f"errors, first: {err.errors()[0]['msg']})") from None  # fmt: skip
    if (summary.attempt, summary.mission_id) != (attempt, mission_id):
        raise BundleError(
            f"episode bundle: {SUMMARY} is attempt {summary.attempt} of {summary.mission_id}, "
            f"not the attempt {attempt} of {mission_id} it was sent for"
        )
    if harness is not None:
        _same_harness(checked.get(PurePosixPath(EVENTS), b""), harness)
    return checked, summary


def _same_harness(events: bytes, ours: Harness) -> None:
    """Refuse an episode whose start names another harness (version, commit) than ``ours``."""
    first = events.split(b"\n", 1)[0]
    try:
        started = EpisodeStarted.model_validate_json(first)
    except ValidationError:
        return  # no start recorded (it crashed first): nothing was played to mix in
    theirs = started.harness
    if theirs is None or (theirs.version, theirs.commit) != (ours.version, ours.commit):
        raise BundleError(
            f"episode bundle: played by gptnt {_name(theirs)}, not this suite's "
            f"{_name(ours)}; run the same gptnt on every game host"
        )


def _name(harness: Harness | None) -> str:
    if harness is None:
        return "of an unknown version"
    return harness.version + (f" (commit {harness.commit[:12]})" if harness.commit else "")


def unpack(files: dict[PurePosixPath, bytes], episode_dir: Path) -> int:
    """Write the checked files of a bundle (``check``) into ``episode_dir``; files written.
    The summary goes last, so a directory with a summary holds the whole episode."""
    order = sorted(files, key=lambda p: p == PurePosixPath(SUMMARY))
    for name in order:
        target = episode_dir.joinpath(*name.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, files[name])
    return len(files)
