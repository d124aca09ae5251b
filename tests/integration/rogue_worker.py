"""A hostile game host for the fleet test: ``python rogue_worker.py OUTSIDE -- <gptnt worker
arguments>`` joins a suite's cluster as ``gptnt worker`` does, but its first result carries a
file at an absolute path under OUTSIDE and its second one a ``..`` path; after that it plays
honestly. Anyone who can reach the scheduler could run such a worker."""

from __future__ import annotations

import base64
import itertools
import json
import sys
from pathlib import Path

from gptnt.cli import main
from gptnt.services.manager import host

_real_pack = host.pack
_count = itertools.count()


def _rogue_pack(episode_dir: Path) -> str:
    files = json.loads(_real_pack(episode_dir))
    payload = base64.b64encode(b"written by a rogue worker").decode()
    n = next(_count)
    if n == 0:
        files[str(Path(sys.argv[1]).resolve() / "absolute.txt")] = payload
    elif n == 1:
        files["../../../../../dotdot.txt"] = payload
    return json.dumps(files)


if __name__ == "__main__":
    host.pack = _rogue_pack  # type: ignore[assignment]
    sys.argv = ["gptnt", *sys.argv[sys.argv.index("--") + 1 :]]
    main()
