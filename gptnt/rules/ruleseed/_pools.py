"""The word pools the Morse Code and Password generators index: the user's file, never ours.

The pools (3,140 Morse words, 1,550 passwords, in generator order) come from the community's
rule-seed pages and are not ours to redistribute, so gptnt ships only their SHA-256 digests
and checks a user's file against them: a pool in another order would silently give other tables.
Where a file is found, in order: an explicit path (``--pools FILE``), ``GPTNT_RULESEED_POOLS``,
then the copy ``gptnt ruleseed pools import FILE`` stored in the user data directory.

File format (JSON): ``{"morse_code": {"words": [...]}, "password": {"words": [...]}}``; other
keys are ignored.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from gptnt.bounded import read_json
from gptnt.errors import ConfigError, UnreadableError

ENV = "GPTNT_RULESEED_POOLS"
FILE_NAME = "ruleseed-pools.json"
HOW_TO = (
    f"run `gptnt ruleseed pools import FILE`, pass --pools FILE or set {ENV} "
    "(FILE: the rule-seed word pools JSON; gptnt does not ship them)"
)
# (key in the file, word count, sha256 of the words joined by newlines)
MAX_POOLS_BYTES = 1024 * 1024
"""A pools file larger than this is refused unread (the real one is about 63 KB)."""

_EXPECTED = {
    "morse_code": (3140, "3b8215c56572c71192f5e43ec45180ba1a167afc1b955cc94d9639cef3f7b221"),
    "password": (1550, "4f0a7030d6129aa7fdf91ad3a12a5871b1ad8ec05162a22f237e9ff3bf8b731b"),
}


@dataclass(frozen=True)
class WordPools:
    """The two pools, lower case, in the order the generators index them."""

    morse: tuple[str, ...]
    password: tuple[str, ...]
    source: str  # the file they were read from


def data_dir() -> Path:
    """The user data directory: ``$XDG_DATA_HOME/gptnt`` (default ``~/.local/share/gptnt``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gptnt"


def read_pools(path: Path) -> WordPools:
    """Read and check a pools file; one ``ConfigError`` line naming what is wrong."""
    try:
        data = read_json(Path(path), json.loads, limit=MAX_POOLS_BYTES)
    except UnreadableError as err:
        raise ConfigError(f"pools={err}; {HOW_TO}") from None
    words: dict[str, tuple[str, ...]] = {}
    for key, (count, digest) in _EXPECTED.items():
        listed = data.get(key, {}).get("words") if isinstance(data, dict) else None
        if not isinstance(listed, list) or not all(isinstance(w, str) for w in listed):
            raise ConfigError(f"pools={path}: no {key}.words list of strings; {HOW_TO}")
        got = hashlib.sha256("\n".join(listed).encode()).hexdigest()
        if len(listed) != count or got != digest:
            raise ConfigError(
                f"pools={path}: {key}.words ({len(listed)} words) is not the rule-seed pool of "
                f"{count} words in generator order (sha256 differs); use the original file"
            )
        words[key] = tuple(listed)
    return WordPools(morse=words["morse_code"], password=words["password"], source=str(path))


def locate(explicit: Path | None = None) -> Path | None:
    """The pools file in force, or None when there is none."""
    if explicit is not None:
        return Path(explicit)
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    stored = data_dir() / FILE_NAME
    return stored if stored.is_file() else None


def import_pools(path: Path) -> Path:
    """Check ``path`` and store a copy in the user data directory; returns the copy's path."""
    read_pools(path)
    target = data_dir() / FILE_NAME
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=target.parent, delete=False, suffix=".tmp") as tmp:
        pass
    shutil.copyfile(path, tmp.name)
    os.replace(tmp.name, target)
    return target
