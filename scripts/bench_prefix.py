"""How much of each request a provider's prefix cache could serve, over a recorded episode.

For every model call: the input tokens at its start that repeat the same player's previous
request (text: 4 characters a token; a picture: ``--tokens-per-image``, Claude's count for a
640×480 frame by default), as a share of all input tokens, per player and overall. A player's
first request counts as not shared. GPTNT's layout allowed about 41% (paper H.3); we aim at
90% or more.

``bound``: the share no append-only layout can beat without changing what the players are
shown — each Defuser turn's pictures are new by design (the previous frame unmarked and the
newest one marked, paper §4.2.1), and a first request is new as a whole.

    python scripts/bench_prefix.py                    # a full sync episode of mission 1
    python scripts/bench_prefix.py --cassette tests/data/model-session.cassette.json
    python scripts/bench_prefix.py --requests requests.jsonl [--save-requests out.jsonl]

The episode is ``gptnt run`` (simulator, sync, in-process services) against a loopback
``ChatServer``: by default with the talkative scripted players (mostly messages, few presses,
so it runs to the timeout like the paper's models), or replaying a cassette. No network.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from gptnt.players.cassette import (
    Cassette,
    ChatServer,
    Replay,
    Responder,
    Script,
    prefix_table,
    write_player_configs,
)

TOKENS_PER_IMAGE = 424


def play(responder: Responder, mission: str = "1", mode: str = "sync") -> ChatServer:
    """Play one episode with both seats answered by ``responder``; the server keeps requests."""
    from gptnt.cli import app

    server = ChatServer(responder)
    os.environ.setdefault("GPTNT_OFFLINE", "1")
    with server.running(), tempfile.TemporaryDirectory() as tmp:
        configs = write_player_configs(Path(tmp) / "players", server.url)
        app(
            ["run", "--mission", mission, "--mode", mode, "--defuser", str(configs["defuser"]),
             "--expert", str(configs["expert"]), "--launch", "task", "--quiet",
             "--out", str(Path(tmp) / "runs")],
            standalone_mode=False,
        )  # fmt: skip
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cassette", type=Path, help="replay this cassette's episode")
    parser.add_argument("--requests", type=Path, help="measure these request bodies (JSONL)")
    parser.add_argument("--save-requests", type=Path, help="write the measured requests here")
    parser.add_argument("--tokens-per-image", type=int, default=TOKENS_PER_IMAGE)
    args = parser.parse_args()
    requests: list[dict[str, Any]]
    if args.requests:
        requests = [json.loads(line) for line in args.requests.read_text().splitlines() if line]
    elif args.cassette:
        cassette = Cassette.load(args.cassette)
        server = play(Replay(cassette), str(cassette.about["mission"]), str(cassette.about["mode"]))
        if len(server.calls) != len(cassette.calls):
            raise SystemExit(
                f"replay diverged after {len(server.calls)} of {len(cassette.calls)} calls"
            )
        requests = server.received
    else:
        requests = play(Script.talkative()).received
    if args.save_requests:
        args.save_requests.write_text("".join(json.dumps(r) + "\n" for r in requests))
    table = prefix_table(requests, tokens_per_image=args.tokens_per_image)
    print(f"{'player':<16}{'requests':>9}{'input tok':>11}{'shared':>9}{'bound':>8}")
    rows = [(model, row.requests, row.total, row.shared, row.unshareable)
            for model, row in sorted(table.items())]  # fmt: skip
    rows.append(("overall", *(sum(r[i] for r in rows) for i in range(1, 5))))  # type: ignore[arg-type]
    for model, n, total, shared, fixed in rows:
        print(f"{model:<16}{n:>9}{total:>11}{shared / total:>9.1%}{(total - fixed) / total:>8.1%}")
    print("GPTNT's layout: about 41% of input tokens cacheable (paper H.3); aim: >= 90%")


if __name__ == "__main__":
    main()
