"""A ``gptnt worker`` whose every result is malformed in the way its run's name says:
``python rogue_results.py -- <gptnt worker arguments>``. It plays each attempt honestly, then
ships, instead of the packed records, one of ``MALFORMED`` (the run name, ``--run KIND``, picks
which). Anyone who can reach a suite's scheduler could run such a worker; the suite must refuse
each result whole, record the attempt ``crashed: bad result: …`` and write nothing else."""

from __future__ import annotations

import base64
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from gptnt.cli import main
from gptnt.services.manager import host

_real_pack = host.pack
OUTSIDE = Path(tempfile.gettempdir()) / "gptnt-rogue-escaped.txt"
"""Where the ``absolute-path`` result would write, if the suite let it."""


def _files(episode: Path) -> dict[str, str]:
    return json.loads(_real_pack(episode))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _with(episode: Path, **changes: str) -> str:
    return json.dumps({**_files(episode), **changes})


def _summary(episode: Path, **fields: object) -> str:
    files = _files(episode)
    summary = json.loads(base64.b64decode(files["summary.json"]))
    files["summary.json"] = _b64(json.dumps({**summary, **fields}).encode())
    return json.dumps(files)


def _without_summary(episode: Path) -> str:
    files = _files(episode)
    del files["summary.json"]
    return json.dumps(files)


MALFORMED: dict[str, Callable[[Path], object]] = {
    "not-json": lambda e: _real_pack(e)[:-7],
    "not-an-object": lambda e: json.dumps(list(_files(e).items())),
    "not-text": lambda e: _files(e),  # a dict, not packed text
    "not-base64": lambda e: _with(e, **{"events.jsonl": "%%% not base64 %%%"}),
    "no-summary": _without_summary,
    "not-a-summary": lambda e: _with(e, **{"summary.json": _b64(b'{"outcome": "solved"}')}),
    "another-attempt": lambda e: _summary(e, attempt=7),
    "another-mission": lambda e: _summary(e, mission_id="Maze-1"),
    "escapes-upward": lambda e: _with(e, **{"../../../../../escaped.txt": _b64(b"rogue")}),
    "absolute-path": lambda e: _with(e, **{str(OUTSIDE): _b64(b"rogue")}),
    "nul-in-a-name": lambda e: _with(e, **{"frames/a\x00b.png": _b64(b"rogue")}),
    "too-many-files": lambda e: _with(e, **{f"frames/{n}.png": "" for n in range(20_001)}),
}


def _rogue_pack(episode: Path) -> object:
    # <staging>/<run>-<mark>/episodes/<key>-aN: the run's name, without the suite's mark
    kind = episode.parent.parent.name.rsplit("-", 1)[0]
    make = MALFORMED.get(kind)
    return make(episode) if make else _real_pack(episode)


if __name__ == "__main__":
    host.pack = _rogue_pack  # type: ignore[assignment]
    sys.argv = ["gptnt", *sys.argv[sys.argv.index("--") + 1 :]]
    main()
