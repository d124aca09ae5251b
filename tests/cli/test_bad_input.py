"""Bad input to ``gptnt``, through the real script: each row is one mistake (or crafted file:
an alias bomb, a language tag, a zip that lies, a setting that would hang a run) and the one
line it must get, naming the field and the fix. Every row exits 2 (bad input) unless it says
otherwise, prints no traceback, and leaves no run directory. The rows run concurrently (each is a process of its
own) so the table costs seconds, not a minute.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import hostile_inputs
import pytest
import rogue_results

from gptnt.missions import DEFAULT_MISSIONS_DIR, MISSIONS_DIR_ENV
from gptnt.players.backends import OFFLINE_ENV
from gptnt.services.bus import EmbeddedRedis, free_port

GPTNT = Path(sys.executable).parent / "gptnt"
KEYS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "VLLM_API_KEY")


@dataclass(frozen=True)
class Row:
    name: str
    args: tuple[str, ...]
    expect: tuple[str, ...]
    """Fragments of the one error line, in order."""
    files: dict[str, str | bytes] = field(default_factory=dict)
    """Files made in the working directory first (``missions/…`` lands in a missions copy)."""
    absent: tuple[str, ...] = ()
    """Fragments the line must not contain."""
    command: tuple[str, ...] = ("run",)
    """The ``gptnt`` command; ``run`` gets ``--mode sync --quiet`` and a default mission and
    ``--out``."""
    env: dict[str, str] = field(default_factory=dict)
    code: int = 2
    built: dict[str, Callable[[Path], Path]] = field(default_factory=dict)
    """Files made by a builder of ``hostile_inputs`` (a crafted zip) in the working directory."""


def _mission(key: str, config: str) -> str:
    """A single-module Wires mission file ``key`` whose config starts with ``config`` (raw JSON
    text, so that it may say what ``json.dumps`` cannot)."""
    return (f'{{"id": "{key}", "kind": "single", "title": "Wires", "config": {{{config}, '
            '"timeLimit": 120, "components": ["Wires"]}}')  # fmt: skip


# Ports filled in by the fixture: {closed} refuses connections; {silent} accepts and never
# answers (a hanging game); {redis} is a real Redis with a password.
ROWS = [
    Row("anthropic key missing", ("--expert", "anthropic:claude-sonnet-4-6"),
        ("api_key_env: $ANTHROPIC_API_KEY is not set", "export it")),
    Row("google key missing", ("--expert", "google:gemini-3-flash-preview"),
        ("api_key_env: $GOOGLE_API_KEY (or $GEMINI_API_KEY) is not set", "export it")),
    Row("shipped claude config, no key", ("--expert", "claude-sonnet-4-6"),
        ("player claude-sonnet-4-6: api_key_env: $ANTHROPIC_API_KEY is not set",)),
    Row("shipped gemini config, no key", ("--expert", "gemini-3-flash"),
        ("$GEMINI_API_KEY is not set",)),
    Row("shipped gpt config, no key", ("--defuser", "gpt-5-2"), ("$OPENAI_API_KEY is not set",)),
    Row("shipped vllm config, no key", ("--expert", "qwen3-5-27b"),
        ("$VLLM_API_KEY is not set", "any value if the vLLM server runs without --api-key")),
    Row("openai at OpenAI's endpoint, no key", ("--expert", "openai:gpt-x"),
        ("$OPENAI_API_KEY is not set", "set base_url")),
    # Another server needs no key (pydantic-ai sends a placeholder): its endpoint is probed.
    Row("openai with base_url and no key", ("--expert", "openai-local.yaml"),
        ("openai-local: base_url: http://127.0.0.1:{closed}/v1 is not answering",),
        files={"openai-local.yaml": "model: openai:gpt-x\nbase_url: http://127.0.0.1:{closed}/v1\n"}),
    Row("base url of a scripted seat", ("--defuser-base-url", "http://127.0.0.1:9/v1"),
        ("--defuser-base-url: the defuser is 'oracle'", "name a model with --defuser")),
    Row("provider pydantic-ai does not know", ("--expert", "nope:m"),
        ("nope:m: model: 'nope:m': provider 'nope' is not one pydantic-ai knows", "azure")),
    Row("azure without its endpoint", ("--expert", "azure:gpt-4o"),
        ("player gpt-4o: model 'azure:gpt-4o':", "AZURE_OPENAI_ENDPOINT")),
    Row("vllm without base_url", ("--expert", "vllm-nourl.yaml"),
        ("vllm-nourl.yaml: base_url: required for vllm", "http://127.0.0.1:8000/v1"),
        files={"vllm-nourl.yaml": "model: vllm:some-model\n"}),
    Row("vllm base_url malformed", ("--expert", "vllm-bad.yaml"),
        ("vllm-bad.yaml: base_url: '127.0.0.1:8000/v1' has no scheme",),
        files={"vllm-bad.yaml": "model: vllm:m\nbase_url: 127.0.0.1:8000/v1\n"}),
    Row("vllm server not answering", ("--expert", "vllm-down.yaml"),
        ("player vllm-down: base_url: http://127.0.0.1:{closed}/v1 is not answering",
         "start the server or fix base_url"),
        files={"vllm-down.yaml": "model: vllm:m\nbase_url: http://127.0.0.1:{closed}/v1\n"}),
    Row("player YAML syntax error", ("--expert", "broken.yaml"),
        ("broken.yaml: not valid YAML (line 3, column 1:", "fix the file's syntax"),
        files={"broken.yaml": "model: vllm:m\nbase_url: [http://127.0.0.1:8000/v1\n"}),
    Row("game URL with ftp scheme", ("--game", "ftp://localhost:8085"),
        ("--game 'ftp://localhost:8085': has scheme 'ftp'; use http or https", "or sim")),
    Row("game URL without scheme", ("--game", "localhost:8085"),
        ("--game 'localhost:8085': has no scheme; write it as http://localhost:8085",)),
    Row("game URL port out of range", ("--game", "http://localhost:99999"),
        ("--game 'http://localhost:99999': has a port outside 1–65535",)),
    Row("game unreachable", ("--game", "http://127.0.0.1:{closed}"),
        ("--game http://127.0.0.1:{closed}: /health did not answer", "or use --game sim")),
    Row("game hanging", ("--game", "http://127.0.0.1:{silent}"),
        ("--game http://127.0.0.1:{silent}: /health did not answer", "or use --game sim")),
    Row("redis unreachable", ("--redis-url", "redis://127.0.0.1:{closed}/0"),
        ("--redis-url 'redis://127.0.0.1:{closed}/0': no Redis answering",
         "leave --redis-url out")),
    Row("redis hanging", ("--redis-url", "redis://:secret@127.0.0.1:{silent}/0"),
        ("--redis-url 'redis://:***@127.0.0.1:{silent}/0': no Redis answering",),
        absent=("secret",)),
    Row("redis wrong password", ("--redis-url", "redis://:hunter2@127.0.0.1:{redis}/0"),
        ("--redis-url 'redis://:***@127.0.0.1:{redis}/0': the server refused the login",
         "put the right user:password in the URL"), absent=("hunter2",)),
    Row("redis without its password", ("--redis-url", "redis://127.0.0.1:{redis}/0"),
        ("the server refused the login",)),
    Row("redis URL malformed", ("--redis-url", "redis://127.0.0.1:port/0"),
        ("--redis-url 'redis://127.0.0.1:port/0': has a port that is not a number",)),
    Row("redis URL with http scheme", ("--redis-url", "http://127.0.0.1:6379"),
        ("has scheme 'http'; use redis or rediss or unix",)),
    Row("out is a file", ("--out", "taken"), ("--out taken: is a file, not a directory",),
        files={"taken": "x"}),
    Row("binary junk mission breaks only itself", ("--expert", "anthropic:claude-sonnet-4-6"),
        ("$ANTHROPIC_API_KEY is not set",),
        files={"missions/single/Junk-1.json": bytes(range(256))}, absent=("Junk",)),
    Row("binary junk mission, asked for", ("--mission", "Junk-1"),
        ("Junk-1.json: not UTF-8 text (byte ", "fix or remove it"),
        files={"missions/single/Junk-1.json": bytes(range(128, 256))}),
    Row("time limit of 1e12 s", ("--mission", "Wires-999"),
        ("Wires-999.json: config.timeLimit: Input should be less than or equal to 86400",),
        files={"missions/single/Wires-999.json": '{"id": "Wires-999", "kind": "single", '
               '"title": "Wires", "config": {"seed": 999, "timeLimit": 1e12, '
               '"components": ["Wires"]}}'}),
    # Outside bytes (issue 22): YAML, zips and settings that would hang or exhaust a run.
    Row("player YAML alias bomb", ("--expert", "bomb.yaml"),
        ("bomb.yaml: not valid YAML (its aliases expand to more than 100,000 values",),
         files={"bomb.yaml": hostile_inputs.ALIAS_BOMB}),
    Row("player YAML python tag", ("--expert", "tag.yaml"),
        ("tag.yaml: not valid YAML (line 1, column 8: ",
         "tag !!python/object/apply:os.system is not allowed"), files={"tag.yaml": hostile_inputs.PYTHON_TAG}),
    Row("player YAML not UTF-8", ("--expert", "latin.yaml"),
        ("latin.yaml: not UTF-8 text (byte 7)",), files={"latin.yaml": b"model: \xe9t\xe9\n"}),
    Row("player YAML of 2 MB", ("--expert", "huge.yaml"),
        ("huge.yaml: larger than 1 MiB; not a YAML file gptnt reads",),
        files={"huge.yaml": "model: vllm:m\n" + "#" * 2_000_000 + "\n"}),
    Row("config YAML alias bomb", ("--config", "bomb.yaml"),
        ("--config bomb.yaml: not valid YAML (its aliases expand",),
        files={"bomb.yaml": hostile_inputs.ALIAS_BOMB}),
    Row("config show, python tag", ("--config", "tag.yaml"),
        ("--config tag.yaml: not valid YAML (line 2, ",
         "tag !!python/object/apply:os.system is not allowed"),
        files={"tag.yaml": "game:\n  width: !!python/object/apply:os.system [id]\n"},
        command=("config", "show")),
    Row("suite file alias bomb", ("bomb.yaml", "--out", "runs", "--yes"),
        ("bomb.yaml: not valid YAML (its aliases expand",),
        files={"bomb.yaml": hostile_inputs.ALIAS_BOMB}, command=("suite", "run")),
    Row("timeStepSize of 1e15 ms", ("--mission", "Wires-998"),
        ("Wires-998.json: config.timeStepSize: Input should be less than 10000",),
        files={"missions/single/Wires-998.json": '{"id": "Wires-998", "kind": "single", '
               '"title": "Wires", "config": {"seed": 998, "timeLimit": 120, "timeStepSize": '
               '1e15, "components": ["Wires"]}}'}),
    Row("turn_timeout_s of .inf", ("--expert", "inf.yaml"),
        ("inf.yaml: turn_timeout_s: Input should be a finite number",),
        files={"inf.yaml": "model: vllm:m\nbase_url: http://127.0.0.1:{closed}/v1\n"
                           "turn_timeout_s: .inf\n"}),
    Row("timing.turn_timeout_s inf from the environment", (),
        ("env GPTNT_TIMING_TURN_TIMEOUT_S: timing.turn_timeout_s 'inf':",
         "Input should be a finite number"), env={"GPTNT_TIMING_TURN_TIMEOUT_S": "inf"}),
    Row("image_size of 0 x 0", ("--expert", "zero.yaml"),
        ("zero.yaml: image_size.0: Input should be greater than or equal to 16",),
        files={"zero.yaml": "model: vllm:m\nbase_url: http://127.0.0.1:{closed}/v1\n"
                            "image_size: [0, 0]\n"}),
    Row("image_size of 100000 x 100000", ("--expert", "big.yaml"),
        ("big.yaml: image_size.0: Input should be less than or equal to 4096",),
        files={"big.yaml": "model: vllm:m\nbase_url: http://127.0.0.1:{closed}/v1\n"
                           "image_size: [100000, 100000]\n"}),
    Row("output format unknown", ("--expert", "out.yaml"),
        ("out.yaml: output: Input should be 'react' or 'tool'",),
        files={"out.yaml": "model: vllm:m\nbase_url: http://127.0.0.1:{closed}/v1\n"
                           "output: json\n"}),
    Row("previous_frames past the ring buffer", ("--expert", "frames.yaml"),
        ("frames.yaml: previous_frames: Input should be less than or equal to 16",),
        files={"frames.yaml": "model: vllm:m\nbase_url: http://127.0.0.1:{closed}/v1\n"
                              "previous_frames: 17\n"}),
    Row("keep_thinking with thinking off", ("--expert", "keep.yaml"),
        ("keep.yaml: config: keep_thinking: thinking is off", "drop keep_thinking"),
        files={"keep.yaml": "model: vllm:m\nbase_url: http://127.0.0.1:{closed}/v1\n"
                            "thinking: 'off'\nkeep_thinking: true\n"}),
    Row("recording with corrupt deflate", ("corrupt.zip",),
        ("recording corrupt.zip: not a gptnt recording (member 'bodies/00000' is corrupt",),
        built={"corrupt.zip": hostile_inputs.corrupt_deflate}, command=("stub", "serve")),
    Row("recording with an unknown compression method", ("method.zip",),
        ("member 'bodies/00000' uses compression method 99; only stored and deflate",),
        built={"method.zip": hostile_inputs.unknown_method}, command=("stub", "serve")),
    Row("recording with a 300 MB member", ("bomb.zip",),
        ("member 'bodies/00000' is 300 MiB uncompressed, over the 64 MiB a member may hold",),
        built={"bomb.zip": hostile_inputs.zip_bomb}, command=("stub", "serve")),
    Row("virtual clock in sync", ("--clock", "virtual"),
        ("--clock virtual: the virtual clock times async play", "add --mode async")),
    Row("latency on the wall clock", ("--latency", "fixed:5"),
        ("--latency: a latency model needs --clock virtual",)),
    Row("unknown clock", ("--clock", "lunar"), ("--clock 'lunar': use wall or virtual",)),
    Row("fixed latency past its name's precision", ("--mode", "async", "--clock", "virtual",
                                                    "--latency", "fixed:100000000"),
        ("--latency 'fixed:100000000'", "SECONDS from 0.001 to 86400")),
    Row("suite file with a billion repeats", ("big.yaml",),
        ("big.yaml: repeats: Input should be less than or equal to 1000",),
        files={"big.yaml": "name: big\nmissions: [Wires-234]\nmodes: [sync]\n"
                           "repeats: 1000000000\n"}, command=("suite", "plan")),
    Row("second writer on a run directory", ("one.yaml", "--out", "runs", "--run", "held",
                                             "--yes"),
        ("--out runs/held: another run writes here (host ", "choose another --out"),
        files={"one.yaml": "name: one\nmissions: [Wires-234]\nmodes: [sync]\n"},
        built={"runs/held/.writer.lock": hostile_inputs.live_lock}, command=("suite", "run")),
    Row("second worker on a staging directory", ("--scheduler", "tcp://127.0.0.1:{closed}",
                                                 "--out", "runs/stage"),
        ("--out runs/stage: another run writes here (host ", "choose another --out"),
        built={"runs/stage/.writer.lock": hostile_inputs.live_lock}, command=("worker",)),
    # review22: values every layer must bound alike, keys given twice, a pools file that is
    # no regular file (a FIFO would block the read forever, /dev/zero never end).
    Row("mission seed of 5000 digits", ("--mission", "Wires-997"),
        ("Wires-997.json: not valid JSON (Exceeds the limit (4300 digits)", "fix or remove it"),
        files={"missions/single/Wires-997.json": _mission("Wires-997", '"seed": ' + "9" * 5000)}),
    Row("mission key given twice", ("--mission", "Wires-996"),
        ("Wires-996.json: not valid JSON (key 'timeLimit' given twice)", "fix or remove it"),
        files={"missions/single/Wires-996.json": _mission(
            "Wires-996", '"seed": 996, "timeLimit": 1, "timeLimit": 9000')}),
    Row("mission rule seed 0", ("--mission", "Wires-995"),
        ("Wires-995.json: config.ruleSeed: Input should be greater than or equal to 1",),
        files={"missions/single/Wires-995.json": _mission(
            "Wires-995", '"seed": 995, "ruleSeed": 0')}),
    Row("mission rule seed 10 to the 30", ("--mission", "Wires-994"),
        ("Wires-994.json: config.ruleSeed: Input should be less than or equal to 2147483647",),
        files={"missions/single/Wires-994.json": _mission(
            "Wires-994", '"seed": 994, "ruleSeed": 1' + "0" * 30)}),
    Row("mission sessionId with a newline", ("--mission", "Wires-993"),
        ("Wires-993.json: config.sessionId: String should match pattern",),
        files={"missions/single/Wires-993.json": _mission(
            "Wires-993", '"seed": 993, "sessionId": "a\\nb"')}),
    Row("mission sessionId of 3000 characters", ("--mission", "Wires-992"),
        ("Wires-992.json: config.sessionId: String should have at most 64 characters",),
        files={"missions/single/Wires-992.json": _mission(
            "Wires-992", '"seed": 992, "sessionId": "' + "a" * 3000 + '"')}),
    Row("suite rule seed 0", ("zero.yaml",),
        ("zero.yaml: rule_seeds.0: Input should be greater than or equal to 1",),
        files={"zero.yaml": "name: zero\nmissions: [Wires-234]\nmodes: [sync]\n"
                            "rule_seeds: [0]\n"}, command=("suite", "plan")),
    Row("config YAML key given twice", ("--config", "twice.yaml"),
        ("--config twice.yaml: not valid YAML (line 3, column 3: key 'idle_sleep_s' given "
         "twice (first on line 2)",),
        files={"twice.yaml": "timing:\n  idle_sleep_s: 0.1\n  idle_sleep_s: 9\n"}),
    Row("pools file that is a FIFO", ("--pools", "pools.json"),
        ("pools.json: not a regular file",), built={"pools.json": hostile_inputs.fifo}),
    Row("pools file linked to dev zero", ("--pools", "pools.json"),
        ("pools.json: not a regular file",), built={"pools.json": hostile_inputs.endless}),
    Row("pools file nested 100000 deep", ("--pools", "pools.json"),
        ("pools.json: not valid JSON (nested too deeply)",),
        files={"pools.json": "[" * 100_000 + "]" * 100_000}),
]  # fmt: skip


@dataclass(frozen=True)
class Result:
    row: Row
    returncode: int
    stdout: str
    stderr: str
    workdir: Path
    ports: dict[str, int]
    wall_s: float
    """Wall seconds of the process (reported with ``-s``, never asserted)."""


def _fill(text: str, ports: dict[str, int]) -> str:
    for name, port in ports.items():
        text = text.replace("{" + name + "}", str(port))
    return text


def _run(row: Row, base: Path, ports: dict[str, int]) -> Result:
    work = base / row.name.replace(" ", "-").replace(",", "")
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in KEYS}
    env[OFFLINE_ENV] = "1"
    env.pop("GPTNT_REDIS_URL", None)
    env.update(row.env)
    for name, build in row.built.items():
        build(work / name)
    for name, content in row.files.items():
        if name.startswith("missions/"):
            if not (work / "missions").exists():
                shutil.copytree(DEFAULT_MISSIONS_DIR, work / "missions")
            env[MISSIONS_DIR_ENV] = str(work / "missions")
        path = work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(_fill(content, ports))
    args = [_fill(a, ports) for a in row.args]
    command = list(row.command)
    if row.command == ("run",):
        command += ["--mode", "sync", "--quiet"]
        if "--mission" not in args:
            args = ["--mission", "Wires-234", *args]
        if "--out" not in args:
            args += ["--out", "runs"]
    started = time.monotonic()
    proc = subprocess.run(
        [str(GPTNT), *command, *args],
        cwd=work, env=env, capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    took = time.monotonic() - started
    return Result(row, proc.returncode, proc.stdout, proc.stderr, work, ports, took)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Result]]:
    if not GPTNT.exists():
        pytest.skip(f"console script {GPTNT} not installed")
    base = tmp_path_factory.mktemp("bad-input")
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(64)  # accepts into the backlog, never answers
    redis = EmbeddedRedis()
    redis_port = int(redis.start().rsplit(":", 1)[1].split("/")[0])
    ports = {"closed": free_port(), "silent": silent.getsockname()[1], "redis": redis_port}
    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            done = list(pool.map(lambda row: _run(row, base, ports), ROWS))
        for r in done:
            print(f"{r.wall_s:6.2f} s  {r.row.name}")
        yield {r.row.name: r for r in done}
    finally:
        silent.close()
        redis.stop()


@pytest.mark.timeout(1200)  # the first row's setup plays every row (4 at a time)
@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_bad_input_gets_one_line(row: Row, results: dict[str, Result]) -> None:
    result = results[row.name]
    lines = result.stderr.strip().splitlines()
    assert result.returncode == row.code, (result.returncode, result.stderr)
    assert len(lines) == 1, result.stderr
    line = lines[0]
    assert line.startswith("error: "), line
    position = 0
    for fragment in row.expect:
        fragment = _fill(fragment, result.ports)
        found = line.find(fragment, position)
        assert found >= 0, (fragment, line)
        position = found + len(fragment)
    for fragment in row.absent:
        assert fragment not in line, (fragment, line)
    # Checked before anything started: no run directory (but the one a row made), no output.
    made = [name for name in (*row.files, *row.built) if name.startswith("runs/")]
    assert made or not (result.workdir / "runs").exists()
    if made:
        assert sorted(
            str(p.relative_to(result.workdir))
            for p in (result.workdir / "runs").rglob("*")
            if p.is_file()
        ) == sorted(made)
    assert "Traceback" not in result.stderr and result.stdout.strip() == ""


def test_a_broken_mission_file_breaks_only_the_commands_that_need_it(tmp_path: Path) -> None:
    if not GPTNT.exists():
        pytest.skip(f"console script {GPTNT} not installed")
    shutil.copytree(DEFAULT_MISSIONS_DIR, tmp_path / "missions")
    (tmp_path / "missions" / "single" / "Junk-1.json").write_bytes(bytes(range(256)))
    env = {**os.environ, MISSIONS_DIR_ENV: str(tmp_path / "missions")}

    def gptnt(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(GPTNT), *args], env=env, capture_output=True, text=True, timeout=60, check=False
        )

    shown = gptnt("missions", "show", "Wires-234")
    assert shown.returncode == 0, shown.stderr
    listed = gptnt("missions", "list")  # the catalogue needs every file
    assert listed.returncode != 0
    assert listed.stderr.strip().splitlines() == [listed.stderr.strip()]
    assert "Junk-1.json: not UTF-8 text" in listed.stderr


def test_suite_run_is_checked_before_anything_starts(tmp_path: Path) -> None:
    """``gptnt suite run`` takes the same preflight: one line, nothing written."""
    if not GPTNT.exists():
        pytest.skip(f"console script {GPTNT} not installed")
    env = {**os.environ, OFFLINE_ENV: "1"}
    env.pop("GPTNT_REDIS_URL", None)
    closed = free_port()
    done = subprocess.run(
        [str(GPTNT), "suite", "run", "multi", "--redis-url", f"redis://127.0.0.1:{closed}/0",
         "--out", "runs", "--yes"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode not in (0, 130)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(
        f"error: --redis-url 'redis://127.0.0.1:{closed}/0': no Redis answering"
    )
    assert "start it, or leave --redis-url out" in lines[0]
    assert not (tmp_path / "runs").exists()


def test_replay_is_checked_before_anything_starts(tmp_path: Path) -> None:
    """A directory with no episode record, and a turn past the episode's end: exit 2, one line."""
    if not GPTNT.exists():
        pytest.skip(f"console script {GPTNT} not installed")
    episode = tmp_path / "episodes" / "x-a1"
    episode.mkdir(parents=True)
    nothing = subprocess.run(
        [str(GPTNT), "replay", str(episode), "--from-turn", "3"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert nothing.returncode == 2 and "Traceback" not in nothing.stderr
    assert "no events.jsonl; give an episode directory" in nothing.stderr
    started = (
        '{"kind":"episode_started","episode_id":"x-a1","mission_id":"3","mode":"sync",'
        '"players":[],"mission":"{}","at":1.0}\n'
    )
    (episode / "events.jsonl").write_text(started)
    past = subprocess.run(
        [str(GPTNT), "replay", str(episode), "--from-turn", "3"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert past.returncode == 2, past.stderr
    assert "--from-turn 3: the episode has 0 turns (0 to 0)" in past.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["episodes"]  # no ledger, no branch


def _groups(command: object, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command group of the CLI (``gptnt`` itself included), as its words."""
    commands = getattr(command, "commands", None)
    if commands is None:
        return
    yield path
    for name, sub in sorted(commands.items()):
        yield from _groups(sub, (*path, name))


def test_a_group_given_no_command_names_its_commands() -> None:
    """Click's usage error for a bare group has no message (it was ``error: ; see …``)."""
    if not GPTNT.exists():
        pytest.skip(f"console script {GPTNT} not installed")
    import typer

    from gptnt.cli import app

    root = typer.main.get_command(app)
    groups = list(_groups(root))
    assert len(groups) > 3  # gptnt, suite, missions, sim, …
    with ThreadPoolExecutor(4) as pool:
        done = list(pool.map(lambda words: subprocess.run(
            [str(GPTNT), *words], capture_output=True, text=True, timeout=60, check=False,
        ), groups))  # fmt: skip
    for words, result in zip(groups, done, strict=True):
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 2 and len(lines) == 1, (words, result.stderr)
        group = root
        for word in words:
            group = group.commands[word]  # type: ignore[attr-defined]
        path = " ".join(("gptnt", *words))
        assert lines[0] == (
            f"error: `{path}` needs a command: one of {', '.join(sorted(group.commands))}; "  # type: ignore[attr-defined]
            f"see `{path} --help`"
        )


# Result streams (issue 22, items 4 and 7): what a game host ships back is outside bytes too.
# Each row is a suite whose one attempt is played by a rogue worker (``rogue_results.py``)
# that ships its records malformed as the row says; the suite refuses the result whole,
# records the attempt ``crashed: bad result: …`` (parked: --retries 0), writes nothing of it,
# and exits 3 with no traceback.
STREAM_ROWS = {
    "not-json": "episode bundle: not JSON",
    "not-an-object": "episode bundle: not an object of path → data",
    "not-text": "episode bundle: a dict, not packed records",
    "not-base64": "episode bundle: 'events.jsonl' is not base64",
    "no-summary": "episode bundle: no summary.json",
    "not-a-summary": "episode bundle: summary.json is not a summary",
    "another-attempt": "summary.json is attempt 7 of Wires-234, not the attempt 1",
    "another-mission": "summary.json is attempt 1 of Maze-1, not the attempt 1 of Wires-234",
    "escapes-upward": "path '../../../../../escaped.txt' leaves the episode directory",
    "absolute-path": "gptnt-rogue-escaped.txt' leaves the episode directory",
    "nul-in-a-name": "leaves the episode directory",
    "too-many-files": "episode bundle: 20,0",
}


@pytest.fixture(scope="module")
def streamed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Result]]:
    """Every stream row played against one scheduler and one rogue worker (4 game slots)."""
    from dask_scheduler import dask_scheduler

    if not GPTNT.exists():
        pytest.skip(f"console script {GPTNT} not installed")
    base = tmp_path_factory.mktemp("bad-results")
    env = {k: v for k, v in os.environ.items() if k not in KEYS and not k.startswith("GPTNT_")}
    env[OFFLINE_ENV] = "1"
    rogue = Path(__file__).parents[1] / "rogue_results.py"
    (base / "host").mkdir()
    with dask_scheduler() as scheduler:
        worker = subprocess.Popen(
            [sys.executable, str(rogue), "--", "worker", "--scheduler", scheduler, "--out",
             "staging", "--games", "4"],
            cwd=base / "host", env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, start_new_session=True,
        )  # fmt: skip
        try:
            assert worker.stdout is not None and worker.stdout.readline().startswith("worker:")

            def play(kind: str) -> Result:
                work = base / kind
                work.mkdir()
                (work / "one.yaml").write_text("name: one\nmissions: [Wires-234]\nmodes: [sync]\n")
                started = time.monotonic()
                proc = subprocess.run(
                    [str(GPTNT), "suite", "run", "one.yaml", "--scheduler", scheduler, "--run",
                     kind, "--out", "runs", "--retries", "0", "--launch", "task", "--yes"],
                    cwd=work, env=env, capture_output=True, text=True, timeout=300, check=False,
                )  # fmt: skip
                row = Row(kind, (), (STREAM_ROWS[kind],), command=("suite", "run"), code=3)
                return Result(row, proc.returncode, proc.stdout, proc.stderr, work, {},
                              time.monotonic() - started)  # fmt: skip

            with ThreadPoolExecutor(max_workers=4) as pool:
                done = list(pool.map(play, STREAM_ROWS))
        finally:
            worker.terminate()
            worker.wait(timeout=60)
    for r in done:
        print(f"{r.wall_s:6.2f} s  {r.row.name}")
    yield {r.row.name: r for r in done}


@pytest.mark.slow
@pytest.mark.timeout(1200)  # the first row's setup plays every row (4 at a time)
@pytest.mark.parametrize("kind", list(STREAM_ROWS))
def test_a_malformed_result_is_refused_whole_and_recorded(
    kind: str, streamed: dict[str, Result]
) -> None:
    from gptnt.records import Ledger

    result = streamed[kind]
    assert result.returncode == 3, (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr, result.stderr
    assert "crashed: 1 episode(s) parked" in result.stderr, result.stderr
    run_dir = result.workdir / "runs" / kind
    (entry,) = Ledger(run_dir).entries()
    assert entry.status == "parked" and entry.outcome == "crashed", entry
    assert entry.reason.startswith("bad result: episode bundle: "), entry.reason
    assert STREAM_ROWS[kind] in entry.reason, entry.reason
    # Nothing of the refused result was written: the attempt's folder holds the suite's own
    # summary only, and no rogue file landed anywhere.
    assert [p.name for p in (run_dir / entry.episode_dir).iterdir()] == ["summary.json"]
    assert not list(result.workdir.parent.rglob("escaped.txt"))
    assert not rogue_results.OUTSIDE.exists()
