"""Every number a flag takes is bounded on both sides where the flag is declared, so that a typo
(`--episodes 10000000000`, `--port 999999`, `--rule-seed 0`) is one line and exit 2, not a run
that never ends, a server on a port that does not exist, or a seed the game cannot play. A few
flags are bounded elsewhere (the setting they set) or are caps, where any size means only "at
most this"; they are listed here with the reason. Then each kind of bound, and the up-front
checks of a command's output file and listening address (and a flag that would be ignored),
through the real script."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer

from gptnt.cli import app

GPTNT = Path(sys.executable).parent / "gptnt"
BOUNDED_ELSEWHERE = {
    ("run", "--seed"): "players.seed (PlayerSettings)",
    ("run", "--rule-seed"): "game.rule_seed (RuleSeed)",
    ("run", "--step-sleep"): "timing.step_sleep_s",
    ("run", "--idle-sleep"): "timing.idle_sleep_s",
    ("suite plan", "--rule-seed"): "check_rule_seeds (RuleSeed)",
    ("suite run", "--rule-seed"): "check_rule_seeds (RuleSeed)",
    ("suite plan", "--limit"): "a cap on the grid",
    ("suite run", "--limit"): "a cap on the grid",
    ("suite run", "--max-cost-usd"): "a cap on the cost",
    ("suite run", "--confirm-above-usd"): "a cap on the cost",
}


def _commands(command: object, path: tuple[str, ...] = ()) -> Iterator[tuple[str, object]]:
    subs = getattr(command, "commands", None)
    if subs is None:
        yield " ".join(path), command
        return
    for name, sub in sorted(subs.items()):
        yield from _commands(sub, (*path, name))


def _numeric(annotation: object) -> bool:
    return annotation in (int, float) or any(_numeric(a) for a in typing.get_args(annotation))


def test_every_number_a_flag_takes_is_bounded_on_both_sides() -> None:
    unbounded, seen = [], 0
    for name, command in _commands(typer.main.get_command(app)):
        for param in command.params:  # type: ignore[attr-defined]
            if not _numeric(param.type_descriptor.annotation):
                continue
            seen += 1
            flag = param.opts[0]
            if (name, flag) in BOUNDED_ELSEWHERE:
                continue
            if param.min is None or param.max is None:
                unbounded.append(f"gptnt {name} {flag}")
    assert seen > 30  # the walk found the CLI's numeric flags
    assert unbounded == []


def _gptnt(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GPTNT_HOME": str(cwd / "home")}
    return subprocess.run([str(GPTNT), *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120, check=False, stdin=subprocess.DEVNULL)  # fmt: skip


@pytest.fixture
def held_port() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


def test_bounds_outputs_and_addresses_are_checked_up_front(tmp_path: Path, held_port: int) -> None:
    if not GPTNT.exists():
        pytest.skip(f"console script {GPTNT} not installed")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    rows = [
        (("sim", "selfcheck", "--episodes", "9" * 20), "'--episodes': Input should be less"),
        (("ruleseed", "show", "--rule-seed", "0"), "'--rule-seed': Input should be greater"),
        (("sim", "serve", "--port", "70000"), "'--port': Input should be less than or equal"),
        (("sim", "serve", "--port", str(held_port)),
         f"--host '127.0.0.1' --port {held_port}: cannot listen there"),
        (("sim", "serve", "--host", "no-such-host.invalid"), "cannot listen there"),
        (("sim", "record", "--out", str(tmp_path / "folder")), "folder: is a directory; give"),
        (("sim", "record", "--out", str(tmp_path / "fifo")), "fifo: is not a regular file"),
        (("manual", "build", "--out", str(tmp_path / "fifo")), "fifo: is a file, not a directory"),
        (("config", "show", "--mode", "sync"), "--mode 'sync': only with --mission"),
    ]  # fmt: skip
    for args, expected in rows:
        done = _gptnt(*args, cwd=tmp_path)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, (args, done.stderr)
        assert lines[0].startswith("error: ") and expected in lines[0], (args, lines[0])
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "home") == ["fifo", "folder"]
    assert list((tmp_path / "folder").iterdir()) == []
