"""How much the transcripts (record schema 3) add to an episode's records.

Plays one sync episode of ``--mission`` with the stand-in model players of
``gptnt.players.cassette`` (a loopback OpenAI-compatible server; the Expert reads the manual),
then splits the episode directory's bytes into what schema 2 already kept (events without the
``request`` fields, summary, frames) and what the transcripts add (``messages/``, the
``request`` fields, and any image kept only for a request: none, since a manual page's image
is named by hash, not copied). Prints both and their ratio; the issue's bound is under 2×.

    python scripts/record_size.py --mission 1
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from typer.testing import CliRunner

from gptnt.cli import app
from gptnt.players.cassette import ChatServer, Script, write_player_configs
from gptnt.records import TurnEvent, read_events, read_message, requests


def measure(episode: Path) -> tuple[int, int, int]:
    """(bytes kept before transcripts, bytes the transcripts add, model turns)."""
    turns = [e for e in read_events(episode) if isinstance(e, TurnEvent)]
    referenced = {s.image for t in turns for s in t.shown} | {h for t in turns for h in t.frames}
    referenced |= {t.mask for t in turns if t.mask}
    request_images: set[str] = set()
    for hashes in requests(turns).values():
        for h in hashes:
            message = read_message(episode, h)
            request_images |= {p.image for p in message.parts if p.image} if message else set()
    only_requests = request_images - referenced
    messages = sum(p.stat().st_size for p in (episode / "messages").glob("*.json"))
    kept = [episode / "frames" / f"{h}.png" for h in only_requests]
    images = sum(p.stat().st_size for p in kept if p.is_file())  # manual pages are not copied
    lines = (episode / "events.jsonl").read_text(encoding="utf-8").splitlines()
    without = [
        json.dumps({k: v for k, v in json.loads(x).items() if k != "request"}) for x in lines
    ]
    fields = sum(map(len, lines)) - sum(map(len, without))
    print(
        f"messages/ {messages / 1e3:.0f} kB, request fields {fields / 1e3:.0f} kB, "
        f"images kept only for requests {images / 1e3:.0f} kB"
    )
    added = messages + images + fields
    total = sum(p.stat().st_size for p in episode.rglob("*") if p.is_file())
    return total - added, added, sum(t.request is not None for t in turns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mission", default="1", help="mission id (default 1)")
    args = parser.parse_args()
    os.environ["GPTNT_OFFLINE"] = "1"
    with tempfile.TemporaryDirectory() as tmp, ChatServer(Script()).running() as server:
        configs = write_player_configs(Path(tmp) / "players", server.url)
        result = CliRunner().invoke(app, [
            "run", "--mission", args.mission, "--mode", "sync", "--defuser",
            str(configs["defuser"]), "--expert", str(configs["expert"]), "--launch", "task",
            "--quiet", "--out", str(Path(tmp) / "runs"),
        ])  # fmt: skip
        if result.exit_code != 0:
            raise SystemExit(result.output)
        episode = next((Path(tmp) / "runs").rglob("summary.json")).parent
        before, added, calls = measure(episode)
    print(f"mission {args.mission}: {calls} model calls; records without transcripts "
          f"{before / 1e3:.0f} kB, transcripts add {added / 1e3:.0f} kB: "
          f"{(before + added) / before:.2f}× the records of schema 2")  # fmt: skip


if __name__ == "__main__":
    main()
