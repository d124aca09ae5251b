"""Bounded reading of every byte that comes from outside: the one reader per kind.

Records (JSON lines and JSON files), suites, missions and configs (YAML and JSON), recordings
(zip members) and messages pushed by a partner all come from a file or a socket that someone
else wrote. Each reader here caps what it reads before it reads it and turns every way the
bytes can be wrong (too big, torn, not UTF-8, not JSON or YAML, of the wrong shape, a YAML
alias bomb, a compression method we do not read, corrupt deflate data) into either

- ``UnreadableError`` naming the source and what is wrong, on one line (a file read whole: a
  config, a mission, a recording), or
- a skipped item counted in a ``Tally`` (a line of a JSON-lines file, a message in an inbox):
  the rest is still read, and the caller says ``2 lines unreadable in …``.

This module depends on nothing of ours but ``gptnt.errors``, so every layer may use it.
"""

from __future__ import annotations

import json
import os
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Annotated, Any, TypeVar

import yaml
from pydantic import Field, ValidationError

from gptnt.errors import UnreadableError, first_problem

T = TypeVar("T")

MAX_LINE_BYTES = 16 * 1024 * 1024
"""A JSON line longer than this is skipped unread (a turn's record is well under 1 MB)."""
MAX_JSON_BYTES = 16 * 1024 * 1024
"""A JSON file (a summary, a run's record, a mission) larger than this is refused unread."""
MAX_YAML_BYTES = 1024 * 1024
"""A YAML file (a suite, a player or layered config, a price table) larger than this is
refused unread."""
MAX_YAML_NODES = 100_000
"""Nodes a YAML document may hold once its aliases are expanded (a 410-byte alias bomb expands
to billions)."""
MAX_MEMBER_BYTES = 64 * 1024 * 1024
"""A zip member (a recorded response body) larger than this, uncompressed, is refused unread."""
MAX_ARCHIVE_BYTES = 1024 * 1024 * 1024
"""What all members of one zip may inflate to together."""
MAX_MEMBERS = 100_000
"""Members of a zip at most: its central directory is read whole when it is opened (some
500 bytes of memory for each 50 on disk), so a zip of millions of empty members is refused
by what its end record declares, before that read."""
MAX_DIRECTORY_BYTES = 16 * 1024 * 1024
"""A zip's central directory at most (``MAX_MEMBERS`` with names of some 100 bytes)."""
ZIP_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}
"""The compression methods a recording may use."""

_CHUNK = 1024 * 1024

# ----------------------------------------------------------------------------- setting bounds
# Every numeric setting is bounded where it is declared, so that a value that would hang or
# exhaust a run (``turn_timeout_s: .inf``, ``image_size: [100000, 100000]``) is refused up front.

MAX_SECONDS = 86_400.0
"""Any duration a setting gives, wall or game: at most a day (a mission's ``timeLimit`` too)."""
IMAGE_SIDE = (16, 4096)
"""Pixels of a side of an image shown to a model."""
MAX_COUNT = 1_000_000
"""Any count a setting gives (tokens, images, retries are bounded tighter where they are)."""
MAX_REPEATS = 1000
"""Episodes per mission, mode and pairing at most (the paper plays 10); more is a typo that
would expand to millions of episodes before anything is checked."""
MAX_GAMES = 64
"""Games played in parallel at most: each is a set of services and a game of its own."""
MAX_SEED = 2**63 - 1
"""The largest seed of a bomb or of a player's randomness (a signed 64-bit integer)."""
MAX_PORT = 65_535
MAX_RULE_SEED = 2**31 - 1
"""The largest rule seed: the rule generator's seed is a 32-bit signed integer."""
RuleSeed = Annotated[int, Field(ge=1, le=MAX_RULE_SEED)]
"""A rule seed (1 = the v1 manual), bounded alike wherever one is given: a setting, a flag, a
mission, a suite, a request to the manager."""


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):g} MiB"


# ----------------------------------------------------------------------------- tally


@dataclass
class Skipped:
    """The items of one source that were skipped: how many, and the first one's reason."""

    source: str
    what: str = "line"
    """``line`` (items of a file) or ``file`` (a file read whole)."""
    count: int = 0
    first: str = ""

    def line(self) -> str:
        if self.what == "file":
            return f"{self.source} unreadable ({self.first}); skipped"
        noun = self.what if self.count == 1 else f"{self.what}s"
        return f"{self.count} {noun} unreadable in {self.source} ({self.first})"


@dataclass
class Tally:
    """Items skipped while reading, per source; ``lines()`` says so, one line per source."""

    sources: dict[str, Skipped] = field(default_factory=dict)

    def skip(self, source: str | Path, why: str, *, what: str = "line") -> None:
        entry = self.sources.setdefault(str(source), Skipped(str(source), what))
        entry.count += 1
        if not entry.first:
            entry.first = why

    @property
    def total(self) -> int:
        return sum(s.count for s in self.sources.values())

    def lines(self) -> list[str]:
        return [s.line() for s in self.sources.values()]


# ----------------------------------------------------------------------------- bytes


def _regular(path: Path) -> None:
    """Refuse a path that exists but is no regular file: a FIFO would block the read forever,
    a device never end."""
    if path.exists() and not path.is_file():
        raise UnreadableError(f"{path}: not a regular file")


def read_bytes(path: Path, *, limit: int, what: str = "file") -> bytes:
    """The whole file, refused unread when larger than ``limit``; ``UnreadableError`` names it."""
    _regular(path)
    try:
        with open(path, "rb") as source:
            data = source.read(limit + 1)
    except OSError as err:
        raise UnreadableError(f"{path}: cannot read it ({err.strerror})") from None
    if len(data) > limit:
        raise UnreadableError(f"{path}: larger than {_mib(limit)}; not a {what} gptnt reads")
    return data


def read_text(path: Path, *, limit: int, what: str = "file") -> str:
    data = read_bytes(path, limit=limit, what=what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise UnreadableError(
            f"{path}: not UTF-8 text (byte {err.start}); fix the {what}"
        ) from None


def _validated(parse: Callable[[bytes], T], data: bytes, where: str) -> T:
    """``parse`` (a pydantic ``validate_json`` or ``json.loads``) with its errors as one line."""
    try:
        return parse(data)
    except ValidationError as err:
        raise UnreadableError(f"{where}: {_json_problem(err)}") from None
    except json.JSONDecodeError as err:
        raise UnreadableError(
            f"{where}: not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})"
        ) from None
    except UnicodeDecodeError as err:
        raise UnreadableError(f"{where}: not UTF-8 text (byte {err.start})") from None
    except RecursionError:
        raise UnreadableError(f"{where}: not valid JSON (nested too deeply)") from None
    except ValueError as err:  # a number of more than 4300 digits, a key given twice
        problem = _first_line(str(err)).partition("; use sys.")[0]
        raise UnreadableError(f"{where}: not valid JSON ({problem})") from None


def _json_problem(err: ValidationError) -> str:
    first = err.errors()[0]
    if first["type"] == "json_invalid":
        return f"not valid JSON ({_first_line(str(first['msg']).removeprefix('Invalid JSON: '))})"
    return first_problem(err, whole="value")


def _first_line(text: str, width: int = 200) -> str:
    line = text.strip().splitlines()[0] if text.strip() else "empty"
    return line if len(line) <= width else line[:width] + "…"


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"key {key!r} given twice")
        seen[key] = value
    return seen


def strict_json(data: bytes | str) -> Any:
    """``json.loads`` that refuses an object giving one key twice (which one would count is a
    guess: a file someone wrote says one thing or is wrong). Bytes are UTF-8 or refused
    (``UnicodeDecodeError``): ``json.loads`` would guess UTF-16 from a leading NUL."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    return json.loads(text, object_pairs_hook=_unique_keys)


def read_json(path: Path, parse: Callable[[bytes], T], *, limit: int = MAX_JSON_BYTES) -> T:
    """One JSON file read whole (at most ``limit`` bytes) and parsed by ``parse``."""
    return _validated(parse, read_bytes(path, limit=limit, what="JSON file"), str(path))


def parse_json(data: bytes | str, parse: Callable[[bytes], T], *, where: str) -> T:
    """One JSON value from a socket (a message, a stream entry), capped like a line."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > MAX_LINE_BYTES:
        raise UnreadableError(f"{where}: larger than {_mib(MAX_LINE_BYTES)}")
    return _validated(parse, raw, where)


# ----------------------------------------------------------------------------- JSON lines


def _lines(source: IO[bytes], limit: int) -> Iterator[tuple[bytes | None, bool]]:
    """Each line without its newline (``None`` for one longer than ``limit``, which is skipped
    without being held), and whether it ended with a newline."""
    while True:
        line = source.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            ended = False
            while chunk := source.readline(_CHUNK):
                if chunk.endswith(b"\n"):
                    ended = True
                    break
            yield None, ended
            continue
        ended = line.endswith(b"\n")
        yield (line[:-1] if ended else line), ended


def read_jsonl(
    path: Path, parse: Callable[[bytes], T], *, tally: Tally, limit: int = MAX_LINE_BYTES
) -> Iterator[T]:
    """The parsed lines of a JSON-lines file; a line that is too long, not UTF-8, not JSON or
    not of its type is skipped and counted in ``tally``. A last line without its newline that
    does not parse is the line in flight when a writer died: skipped, not counted."""
    try:
        _regular(path)
        source = open(path, "rb")  # noqa: SIM115 (closed below; a generator holds it)
    except FileNotFoundError:
        return
    except UnreadableError:
        tally.skip(path, "not a regular file", what="file")
        return
    except OSError as err:
        tally.skip(path, f"cannot read: {err.strerror}")
        return
    with source:
        for number, (line, ended) in enumerate(_lines(source, limit), start=1):
            if line is None:
                tally.skip(path, f"line {number}: longer than {_mib(limit)}")
                continue
            if not line.strip():
                continue
            try:
                yield _validated(parse, line, f"line {number}")
            except UnreadableError as err:
                if not ended:
                    return  # torn: the writer died while writing it
                tally.skip(path, str(err))


# ----------------------------------------------------------------------------- YAML


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader that refuses a document whose aliases expand past
    ``MAX_YAML_NODES`` nodes, before constructing it."""

    def construct_document(self, node: yaml.Node) -> Any:
        _check_expansion(node)
        return super().construct_document(node)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        """A mapping that gives one key twice is refused (PyYAML would keep the last silently);
        the keys a merge (``<<``) brings in may override, as YAML's merge says."""
        first: dict[tuple[str, str], yaml.Node] = {}
        for key, _ in node.value:
            if not isinstance(key, yaml.ScalarNode) or key.tag == "tag:yaml.org,2002:merge":
                continue
            seen = first.setdefault((key.tag, key.value), key)
            if seen is not key:
                raise yaml.constructor.ConstructorError(
                    None, None,
                    f"key {key.value!r} given twice (first on line {seen.start_mark.line + 1})",
                    key.start_mark,
                )  # fmt: skip
        return super().construct_mapping(node, deep)


def _check_expansion(root: yaml.Node) -> None:
    """Count the nodes ``root`` expands to (each alias counts its whole target again), without
    expanding: the size of a node is memoised by identity."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in on_path:  # a recursive alias: infinite when expanded
            raise UnreadableError("an alias refers to a node that contains it")
        on_path.add(key)
        total = 1
        if isinstance(node, yaml.SequenceNode):
            total += sum(size(child) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in node.value)
        on_path.discard(key)
        sizes[key] = total
        if total > MAX_YAML_NODES:
            raise UnreadableError(
                f"its aliases expand to more than {MAX_YAML_NODES:,} values; write the values out"
            )
        return total

    size(root)


def _yaml_problem(err: yaml.YAMLError) -> str:
    """PyYAML's several-line message as one line: where, and what."""
    mark = getattr(err, "problem_mark", None)
    problem = getattr(err, "problem", None) or _first_line(str(err))
    if "could not determine a constructor for the tag" in problem:
        tag = problem.partition("'")[2].rstrip("'").replace("tag:yaml.org,2002:", "!!")
        problem = f"tag {tag} is not allowed (plain YAML only: no language-specific tags)"
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    return _first_line(f"{where}{problem}")


def load_yaml(text: str, *, where: str) -> Any:
    """One YAML document as plain data (safe tags only, aliases bounded); ``UnreadableError``
    naming ``where`` (the file, as the user should see it) on one line."""
    try:
        return yaml.load(text, Loader=_BoundedLoader)
    except UnreadableError as err:
        raise UnreadableError(f"{where}: not valid YAML ({err})") from None
    except yaml.YAMLError as err:
        raise UnreadableError(
            f"{where}: not valid YAML ({_yaml_problem(err)}); fix the file's syntax"
        ) from None
    except RecursionError:
        raise UnreadableError(f"{where}: not valid YAML (nested too deeply)") from None


def read_yaml(path: Path, *, where: str | None = None, limit: int = MAX_YAML_BYTES) -> Any:
    """A YAML file (at most ``limit`` bytes, UTF-8) as plain data; see ``load_yaml``."""
    label = where or str(path)
    try:
        text = read_text(path, limit=limit, what="YAML file")
    except UnreadableError as err:
        raise UnreadableError(f"{label}{str(err).removeprefix(str(path))}") from None
    return load_yaml(text, where=label)


def read_json_or_yaml(path: Path, *, where: str | None = None) -> Any:
    """A ``.json`` file as JSON, anything else as YAML (JSON is YAML, but its errors read better
    as JSON's)."""
    if path.suffix == ".json":
        return read_json(path, strict_json)
    return read_yaml(path, where=where)


# ----------------------------------------------------------------------------- zip


def zip_member(archive: zipfile.ZipFile, name: str, *, where: str,
               limit: int = MAX_MEMBER_BYTES) -> bytes:  # fmt: skip
    """One member of a zip, its method and declared size checked before a byte is inflated,
    and never more than ``limit`` bytes inflated whatever the header says."""
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise UnreadableError(f"{where}: no member {name!r}") from None
    if info.compress_type not in ZIP_METHODS:
        raise UnreadableError(
            f"{where}: member {name!r} uses compression method {info.compress_type}; "
            f"only {' and '.join(ZIP_METHODS.values())} are read"
        )
    if info.flag_bits & 0x1:
        raise UnreadableError(f"{where}: member {name!r} is encrypted; recordings never are")
    if info.file_size > limit:
        raise UnreadableError(
            f"{where}: member {name!r} is {_mib(info.file_size)} uncompressed, over the "
            f"{_mib(limit)} a member may hold"
        )
    try:
        with archive.open(info) as member:
            data = member.read(limit + 1)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError,
            ValueError, struct.error) as err:  # fmt: skip
        raise UnreadableError(
            f"{where}: member {name!r} is corrupt ({_first_line(str(err))})"
        ) from None
    if len(data) > limit:
        raise UnreadableError(f"{where}: member {name!r} inflates past {_mib(limit)}")
    return data


_EOCD = b"PK\x05\x06"  # end of central directory: entries u16 at +10, directory size u32 at +12
_ZIP64_LOCATOR = b"PK\x06\x07"  # 20 bytes before it: the zip64 end record's offset u64 at +8
_ZIP64_EOCD = b"PK\x06\x06"  # entries u64 at +32, directory size u64 at +40


def _central_directory(path: Path) -> tuple[int, int] | None:
    """The member count and the central directory's size in bytes that a zip's end record
    declares (its zip64 record's, when it has one); ``None`` when there is no end record
    (``zipfile`` then says it is no zip). ``zipfile`` reads the directory by its size, so
    both are checked: a count can understate it."""
    try:
        with open(path, "rb") as source:
            size = source.seek(0, os.SEEK_END)
            source.seek(max(0, size - (22 + 0xFFFF)))  # the record and a comment of <= 64 KiB
            tail = source.read()
            at = tail.rfind(_EOCD)
            if at < 0 or len(tail) < at + 22:
                return None
            count, directory = struct.unpack_from("<HI", tail, at + 10)
            locator = at - 20
            if locator >= 0 and tail[locator : locator + 4] == _ZIP64_LOCATOR:
                (offset,) = struct.unpack_from("<Q", tail, locator + 8)
                source.seek(offset)
                record = source.read(48)
                if len(record) == 48 and record[:4] == _ZIP64_EOCD:
                    count, directory = struct.unpack_from("<QQ", record, 32)
            return count, directory
    except OSError:
        return None  # zipfile's own open names the problem


def open_zip(path: Path, *, where: str) -> zipfile.ZipFile:
    """The archive, its central directory read; the members' declared sizes together within
    ``MAX_ARCHIVE_BYTES``."""
    _regular(path)
    declared = _central_directory(path)
    if declared is not None and (declared[0] > MAX_MEMBERS or declared[1] > MAX_DIRECTORY_BYTES):
        raise UnreadableError(
            f"{where}: its end record declares {declared[0]} members in {_mib(declared[1])}, "
            f"over the {MAX_MEMBERS} members or {_mib(MAX_DIRECTORY_BYTES)} an archive may hold"
        )
    try:
        archive = zipfile.ZipFile(path)
    except FileNotFoundError:
        raise
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, struct.error, RuntimeError,
            NotImplementedError) as err:  # fmt: skip
        raise UnreadableError(f"{where}: not a zip file ({_first_line(str(err))})") from None
    total = sum(info.file_size for info in archive.infolist())
    if total > MAX_ARCHIVE_BYTES:
        archive.close()
        raise UnreadableError(
            f"{where}: its members inflate to {_mib(total)}, over the {_mib(MAX_ARCHIVE_BYTES)} "
            "an archive may hold"
        )
    return archive
