"""Record the model session replayed by the CI smoke test and the prefix benchmark.

Plays ``gptnt run --mission 1 --mode sync`` on the simulator with both seats taken by the
scripted stand-in models of ``gptnt.players.cassette.Script`` (they read only the request's
text), and writes every reply to ``tests/data/model-session.cassette.json`` together with how
the episode ended. Re-record after a change to the prompts, the turn text or the simulator's
mission 1 (the replay refuses a request whose text differs from the recorded one).

    python scripts/record_cassette.py [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from gptnt.players.cassette import ChatServer, Script, write_player_configs

MISSION, MODE = "1", "sync"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out", type=Path, default=REPO / "tests" / "data" / "model-session.cassette.json"
    )
    args = parser.parse_args()
    from gptnt.cli import app

    os.environ.setdefault("GPTNT_OFFLINE", "1")
    server = ChatServer(Script())
    with server.running(), tempfile.TemporaryDirectory() as tmp:
        configs = write_player_configs(Path(tmp) / "players", server.url)
        runs = Path(tmp) / "runs"
        app(
            ["run", "--mission", MISSION, "--mode", MODE, "--defuser", str(configs["defuser"]),
             "--expert", str(configs["expert"]), "--launch", "task", "--quiet", "--out", str(runs)],
            standalone_mode=False,
        )  # fmt: skip
        summary = json.loads(next(runs.rglob("summary.json")).read_text())
    cassette = server.record(
        mission=MISSION, mode=MODE, outcome=summary["outcome"], strikes=summary["strikes"],
        defuser_turns=summary["turns"]["defuser"], expert_turns=summary["turns"]["expert"],
        made_by="scripts/record_cassette.py",
    )  # fmt: skip
    cassette.save(args.out)
    print(f"{len(cassette.calls)} calls, {summary['outcome']} → {args.out}")


if __name__ == "__main__":
    main()
