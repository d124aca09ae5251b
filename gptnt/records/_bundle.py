"""An episode directory as one value, so records made on another host reach the run.

A ``gptnt worker`` on another host plays into a staging directory of its own; at the end of
each attempt it ships the episode's files (events, frames, summary, service logs) with its
ledger line over the suite's result stream, and the suite writes them into the run directory
(each file atomically) before the ledger line — so the run's ledger never names an episode
whose records it does not hold, and a rerun never replays one finished elsewhere.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path, PurePosixPath

from gptnt.records._episode import write_atomic


def pack(episode_dir: Path) -> str:
    """Every file under ``episode_dir`` as JSON: relative POSIX path → base64 bytes."""
    files = {
        p.relative_to(episode_dir).as_posix(): base64.b64encode(p.read_bytes()).decode()
        for p in sorted(episode_dir.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }
    return json.dumps(files)


def unpack(bundle: str, episode_dir: Path) -> int:
    """Write a packed episode into ``episode_dir`` (replacing what was there); files written.

    Paths that would leave ``episode_dir`` (absolute, or with ``..``) are refused.
    """
    files: dict[str, str] = json.loads(bundle)
    for name in files:
        path = PurePosixPath(name)
        if path.is_absolute() or ".." in path.parts:
            raise ValueError(f"episode bundle: path {name!r} leaves the episode directory")
    for name, data in files.items():
        target = episode_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, base64.b64decode(data))
    return len(files)
