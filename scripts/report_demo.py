"""A demonstration suite for ``gptnt report``: scripted players and a scripted model stand-in.

Plays, on the simulator, the single-module missions of one seed per module type (sync) and
multi-module mission 1 (sync and async), for five pairings of the oracle, random and idle
policies and a scripted model served over a loopback OpenAI-compatible server
(``gptnt.players.cassette.Script``: it sees only the request text). Then builds the report,
the exports and the screenshots of the report and of one episode page.

    python scripts/report_demo.py OUT_DIR [--games 2]

Takes about half an hour on two busy cores; rerunning resumes the suites (finished episodes are skipped).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from gptnt.players.cassette import ChatServer, Script, write_player_configs

SINGLE = "Wires-234,BigButton-234,Keypad-234,Simon-234,WhosOnFirst-234,Memory-234,Morse-234,Venn-234,WireSequence-234,Maze-234,Password-234"
MULTI = "1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    out: Path = args.out
    gptnt = str(Path(sys.executable).with_name("gptnt"))
    server = ChatServer(Script())
    env = {**os.environ, "GPTNT_OFFLINE": "1"}
    with server.running():
        configs = write_player_configs(out / "players", server.url)
        model_defuser, model_expert = str(configs["defuser"]), str(configs["expert"])
        pairings = [
            ("oracle", "oracle"),
            ("random", "idle"),
            ("random", "oracle"),
            (model_defuser, model_expert),
            (model_defuser, "oracle"),
        ]
        runs = out / "runs"
        for defuser, expert in pairings:
            for suite, only, modes in (("single", SINGLE, "sync"), ("multi", MULTI, "sync,async")):
                command = [gptnt, "suite", "run", suite, "--only", only, "--modes", modes,
                           "--defuser", defuser, "--expert", expert, "--games", str(args.games),
                           "--launch", "process", "--out", str(runs)]  # fmt: skip
                print("+", " ".join(command), flush=True)
                subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    run_dirs = sorted(str(p) for p in runs.iterdir() if p.is_dir())
    subprocess.run([gptnt, "report", *run_dirs, "--out", str(out / "report")], check=True)
    for fmt in ("parquet", "csv"):
        subprocess.run([gptnt, "export", *run_dirs, "--format", fmt, "--out",
                        str(out / f"export-{fmt}")], check=True)  # fmt: skip
    here = Path(__file__).resolve().parent
    subprocess.run([sys.executable, str(here / "report_screenshots.py"), str(out / "report"),
                    "--out", str(out / "screenshots")], check=True)  # fmt: skip


if __name__ == "__main__":
    main()
