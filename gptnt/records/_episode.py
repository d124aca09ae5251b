"""Writing and reading one episode directory.

::

    <episode>/events.jsonl   one Event per line, appended and flushed as the episode runs
    <episode>/frames/<sha256>.png   every image once, named by the hash of its bytes
    <episode>/messages/<sha256>.json   every request message once (v3), named by its hash
    <episode>/summary.json   written last, atomically (temp file + rename), once the rest is
                             on disk (frames and messages are stored unsynced, synced then)

A crash loses at most the line being written; a reader skips a torn last line. Every read goes
through ``gptnt.bounded``: a bad line is skipped and counted, never fatal to the episode.
"""

from __future__ import annotations

import errno
import hashlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from pydantic import TypeAdapter

from gptnt.bounded import Tally, read_json, read_jsonl
from gptnt.errors import UnreadableError
from gptnt.records._schema import (
    Event,
    SanzaruReferee,
    SanzaruStarted,
    SanzaruTurn,
    StoredMessage,
    Summary,
    TurnEvent,
)

_EVENT = TypeAdapter(Event)
_SANZARU = (SanzaruStarted, SanzaruTurn, SanzaruReferee)

EVENTS = "events.jsonl"
SUMMARY = "summary.json"
FRAMES = "frames"
MESSAGES = "messages"


def _file_mode() -> int:
    """0666 less the process umask: the mode ``open()`` would have given a new file."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


FILE_MODE = _file_mode()


_DISK_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


def disk_problem(err: BaseException, path: Path | None = None) -> str | None:
    """``disk: <why> (<file>)`` when ``err`` is a write refused for want of space (a full
    filesystem, a quota, a file-size limit); ``None`` for anything else."""
    if not isinstance(err, OSError) or err.errno not in _DISK_ERRNOS:
        return None
    name = err.filename or path
    where = f" writing {name}" if name else ""
    return f"disk: {err.strerror}{where}; free space, then rerun to resume"


def write_atomic(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` so readers see either nothing or all of it (``durable``: and
    it survives a power cut, at the price of an fsync)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, FILE_MODE)  # mkstemp's 0600 would make records unreadable to a group
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            if durable:
                os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _fsync_files(folder: Path) -> None:
    """fsync every file in ``folder`` (if it exists) and the folder itself."""
    if not folder.is_dir():
        return
    for path in [*folder.iterdir(), folder]:
        if path.is_file() or path == folder:
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def store_png(episode_dir: Path, png: bytes, *, durable: bool = True) -> str:
    """Store one PNG under its content hash (once); return the hash. A turn stores its frames
    with ``durable=False``: ``EpisodeWriter.finish`` makes them durable before the summary."""
    digest = hashlib.sha256(png).hexdigest()
    path = episode_dir / FRAMES / f"{digest}.png"
    if not path.exists():  # a view seen before costs one stat, not a mkdir too
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, png, durable=durable)
    return digest


def frame_path(episode_dir: Path, digest: str) -> Path:
    return episode_dir / FRAMES / f"{digest}.png"


def store_message(episode_dir: Path, message: StoredMessage, *, durable: bool = True) -> str:
    """Store one request message under the hash of its JSON (once); return the hash."""
    data = message.model_dump_json(exclude_defaults=True).encode()
    digest = hashlib.sha256(data).hexdigest()
    path = episode_dir / MESSAGES / f"{digest}.json"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, data, durable=durable)
    return digest


def read_message(episode_dir: Path, digest: str) -> StoredMessage | None:
    """A stored request message (``None`` when the file is missing)."""
    path = episode_dir / MESSAGES / f"{digest}.json"
    if not path.is_file():
        return None
    return StoredMessage.model_validate_json(path.read_bytes())


def requests(turns: Iterable[TurnEvent]) -> dict[tuple[str, int], list[str]]:
    """Every model turn's whole request as message hashes, keyed by (role, turn): each
    ``Transcript`` resolved against the previous request of its role."""
    previous: dict[str, list[str]] = {}
    out: dict[tuple[str, int], list[str]] = {}
    for t in sorted(turns, key=lambda t: (t.role, t.turn)):
        if t.request is None:
            continue
        before = previous.get(t.role, [])
        whole = before[: t.request.reuse] + t.request.messages
        previous[t.role] = out[(t.role, t.turn)] = whole
    return out


class EpisodeWriter:
    """The one writer of an episode's ``events.jsonl`` and ``summary.json``."""

    def __init__(self, episode_dir: Path, *, durable: bool = True) -> None:
        """``durable=False`` skips the fsyncs (still atomic): for episodes that replay in
        milliseconds, such as the in-process random baseline."""
        self.dir = episode_dir
        self._durable = durable
        self.dir.mkdir(parents=True, exist_ok=True)
        self._id = episode_dir.name
        self._events = open(self.dir / EVENTS, "ab")  # noqa: SIM115

    def append(self, event: Event) -> None:
        """Append one event, stamped with this episode's id (the directory name). Durable: on
        disk line by line (a live reader sees each event at once); not durable, buffered until
        ``finish``."""
        if event.episode_id != self._id:
            event = event.model_copy(update={"episode_id": self._id})
        # The JSON's UTF-8 bytes as pydantic makes them (``model_dump_json`` is these decoded):
        # a text file would decode and encode every line again.
        self._events.write(event.__pydantic_serializer__.to_json(event) + b"\n")
        if self._durable:
            self._events.flush()

    def store_png(self, png: bytes) -> str:
        return store_png(self.dir, png)

    def finish(self, summary: Summary) -> None:
        """Write the summary (last, atomically) and close the event log. Durable: first the
        frames and messages the turns stored without an fsync (off the turns' path), then the
        event log, then the summary, so a summary on disk means all it refers to is too."""
        self._events.flush()
        if self._durable:
            for folder in (FRAMES, MESSAGES):
                _fsync_files(self.dir / folder)
            os.fsync(self._events.fileno())
        write_summary(self.dir, summary, durable=self._durable)
        self.close()

    def close(self) -> None:
        if not self._events.closed:
            self._events.close()


def write_summary(episode_dir: Path, summary: Summary, *, durable: bool = True) -> None:
    """``summary.json``, written atomically: by ``EpisodeWriter.finish``, and by a step that
    amends a finished episode's summary (``gptnt sanzaru judge``)."""
    write_atomic(episode_dir / SUMMARY, summary.model_dump_json(indent=2).encode(), durable=durable)


def read_events(episode_dir: Path, *, tally: Tally | None = None) -> Iterator[Event]:
    """The events of an episode in order. A line that cannot be read (torn, bad UTF-8, not an
    event, over ``MAX_LINE_BYTES``) is skipped and counted in ``tally``; a torn last line, the
    one in flight when the writer died, is skipped silently.

    Version 1 lines carry no ``episode_id`` except the first, and SANZARU's lines of the format
    before version 6 carry the episode key (the directory's name without ``-a<attempt>``): both
    are given the directory name, which is what the writer stamps.
    """
    old_sanzaru = episode_dir.name.rpartition("-a")[0]
    for event in read_jsonl(
        episode_dir / EVENTS, _EVENT.validate_json, tally=Tally() if tally is None else tally
    ):
        if not event.episode_id or (isinstance(event, _SANZARU)
                                    and event.episode_id == old_sanzaru):  # fmt: skip
            event = event.model_copy(update={"episode_id": episode_dir.name})
        yield event


def read_summary(episode_dir: Path, *, tally: Tally | None = None) -> Summary | None:
    """The summary, or ``None`` if the episode never finished or its summary cannot be read
    (truncated, empty, not a summary: counted in ``tally``), so that it is played again."""
    path = episode_dir / SUMMARY
    if not path.exists():
        return None
    try:
        return read_json(path, Summary.model_validate_json)
    except UnreadableError as err:
        if tally is not None:
            tally.skip(path, str(err).removeprefix(f"{path}: "), what="file")
        return None
