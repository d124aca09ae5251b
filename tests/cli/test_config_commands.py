"""Every command that starts episodes reads the same layers as ``gptnt run``: defaults < the
``--config`` file < ``GPTNT_*`` variables < its own flags (counted only when given); a bad value
stops it with one line naming the layer and key, exit 2, before anything is written."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer
from child_server import GPTNT
from dask_scheduler import dask_scheduler

from gptnt.cli import app
from gptnt.cli.run import RUN_SETTINGS
from gptnt.cli.suite import SUITE_SETTINGS, WORKER_SETTINGS, _selection
from gptnt.config import ONE_EPISODE_LAUNCH, SUITE_LAUNCH, Config, load_config
from gptnt.errors import ConfigError
from gptnt.players.backends import OFFLINE_ENV
from gptnt.records import Ledger, read_summary
from gptnt.services.manager import EpisodeSettings

MANAGER = [sys.executable, "-m", "gptnt.services.manager"]
# No setting from this machine's environment; the paid-API guard kept (scripted players only).
CLEAN = {k: v for k, v in os.environ.items() if not k.startswith("GPTNT_")} | {OFFLINE_ENV: "1"}


def _run(argv: list[str], env: dict[str, str] | None = None, **kw: object):  # type: ignore[no-untyped-def]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False,
                          env={**CLEAN, **(env or {})}, **kw)  # type: ignore[call-overload]  # fmt: skip


# ----------------------------------------------------------------------------- resolution


def test_episode_settings_come_from_every_layer(tmp_path: Path) -> None:
    yaml = tmp_path / "run.yaml"
    yaml.write_text("timing:\n  idle_sleep_s: 0.1\n  stop_timeout_s: 7\ngame:\n  width: 320\n")
    env = {"GPTNT_TIMING_STOP_TIMEOUT_S": "8", "GPTNT_BUS_LAUNCH": "process"}
    cfg = load_config(yaml, env=env, flags={"game.width": 400}).config
    settings = EpisodeSettings.from_config(cfg, suite=True)
    assert settings.idle_sleep_s == 0.1  # file
    assert settings.stop_timeout_s == 8.0  # env beats file
    assert settings.game.width == 400  # flag beats file
    assert settings.launch == "process"  # env beats the suite's default
    # Unset, the launch is the one documented default for each use.
    assert EpisodeSettings.from_config(Config(), suite=True).launch == "warm"
    assert EpisodeSettings.from_config(Config()).launch == "process" == EpisodeSettings().launch


def test_a_suites_players_come_from_the_layers_only_when_set(tmp_path: Path) -> None:
    def selection(yaml: str, env: dict[str, str], flags: dict[str, object]):  # type: ignore[no-untyped-def]
        path = tmp_path / "s.yaml"
        path.write_text(yaml)
        layered = load_config(
            path, env=env, flags=flags, flag_names={"players.defuser": "--defuser"}
        )
        return _selection(None, None, None, None, None, False, False, None, layered)

    assert selection("", {}, {}).pair is None and selection("", {}, {}).manual is None
    pair = selection("players:\n  defuser: random\n  expert: random\n", {}, {}).pair
    assert pair == ("random", "random")  # the file names the one pairing
    env = {"GPTNT_PLAYERS_EXPERT": "idle"}
    assert selection("players:\n  defuser: random\n  expert: random\n", env, {}).pair == (
        "random", "idle")  # fmt: skip
    flags = {"players.defuser": "oracle"}
    assert selection("players:\n  defuser: random\n", env, flags).pair == ("oracle", "idle")
    assert selection("", {"GPTNT_GAME_RULE_SEED": "2"}, {}).rule_seeds == [2]  # else the suite's
    with pytest.raises(ConfigError, match=r"^env GPTNT_PLAYERS_EXPERT: players\.expert: --defuser"):
        selection("", env, {})
    with pytest.raises(ConfigError, match=r"^env GPTNT_PLAYERS_DEFUSER: players\.defuser 'nobody'"):
        selection("players:\n  expert: idle\n", {"GPTNT_PLAYERS_DEFUSER": "nobody"}, {})


def test_every_settings_option_names_its_key_and_its_one_default() -> None:
    """The help of an option that is a setting names the key, and the default it quotes is the
    configuration's (so the value has one default, in gptnt.config)."""
    root = typer.main.get_command(app)
    commands = {"run": (root.commands["run"], RUN_SETTINGS),  # type: ignore[attr-defined]
                "suite run": (root.commands["suite"].commands["run"], SUITE_SETTINGS),  # type: ignore[attr-defined]
                "worker": (root.commands["worker"], WORKER_SETTINGS)}  # type: ignore[attr-defined]  # fmt: skip
    defaults = {f"{s}.{k}": v for s, m in Config().model_dump().items() for k, v in m.items()}
    launch = {"run": ONE_EPISODE_LAUNCH, "suite run": SUITE_LAUNCH}
    for name, (command, keys) in commands.items():
        defaults["bus.launch"] = launch.get(name)
        params = {p.name: p for p in command.params}
        for param, key in keys.items():
            text = " ".join(params[param].help.split())  # type: ignore[attr-defined]
            assert f"(setting {key})" in text, (name, param)
            assert params[param].default is None, (name, param)  # left out, it sets nothing
            quoted = re.search(rf"default (\S+) \(setting {re.escape(key)}\)", text)
            if quoted and defaults[key] is not None:
                assert quoted.group(1) == str(defaults[key]), (name, param)


# ----------------------------------------------------------------------------- the commands


@pytest.mark.slow
def test_suite_run_plays_with_the_layered_settings(tmp_path: Path) -> None:
    yaml = tmp_path / "suite.yaml"
    yaml.write_text(f"records:\n  out: {tmp_path / 'from-file'}\nbus:\n  launch: task\n"
                    "players:\n  defuser: random\n  expert: random\n")  # fmt: skip
    env = {"GPTNT_PLAYERS_EXPERT": "idle", "GPTNT_BUS_LAUNCH": "process"}  # env beats the file
    argv = [*GPTNT, "suite", "run", "single", "--only", "Wires-234", "--modes", "sync",
            "--run", "layers", "--config", str(yaml), "--defuser", "oracle"]  # flag beats both  # fmt: skip
    done = _run(argv, env)
    assert done.returncode == 0, done.stderr
    run_dir = tmp_path / "from-file" / "layers"
    (entry,) = Ledger(run_dir).latest().values()
    summary = read_summary(run_dir / entry.episode_dir)
    assert summary.conditions.pairing == "oracle/idle"
    logs = sorted(p.name for p in (run_dir / entry.episode_dir / "logs").iterdir())
    assert logs == ["defuser.log", "expert.log", "game.log"]  # process launch, from env


def test_suite_run_refuses_a_bad_value_before_writing_anything(tmp_path: Path) -> None:
    yaml = tmp_path / "suite.yaml"
    yaml.write_text("timing:\n  idle_sleep_s: -1\n")
    argv = [*GPTNT, "suite", "run", "single", "--yes", "--out", str(tmp_path / "runs")]
    bad = _run([*argv, "--config", str(yaml)])
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        f"error: file {yaml}: timing.idle_sleep_s -1: Input should be greater than or equal to 0"
    ]
    flag = _run([*argv, "--launch", "thread"], {"GPTNT_BUS_LAUNCH": "task"})
    assert flag.returncode == 2 and flag.stderr.startswith("error: --launch 'thread': ")
    assert not (tmp_path / "runs").exists()


def test_gptnt_run_takes_its_players_from_the_players_section(tmp_path: Path) -> None:
    yaml = tmp_path / "run.yaml"
    yaml.write_text("players:\n  defuser: random\n  expert: idle\ngame:\n  rule_seed: 2\n")
    out = tmp_path / "runs"
    argv = [*GPTNT, "run", "--mission", "Wires-234", "--mode", "sync", "--launch", "task",
            "--quiet", "--config", str(yaml), "--out", str(out)]  # fmt: skip
    done = _run([*argv, "--expert", "oracle"])  # the flag beats the file
    assert done.returncode == 0, done.stderr
    (episode,) = out.glob("*/episodes/*")
    summary = read_summary(episode)
    assert {p.role: p.policy for p in summary.players} == {"defuser": "random", "expert": "oracle"}
    assert summary.rule_seed == 2  # game.rule_seed from the file reaches the game
    bad = _run(argv, {"GPTNT_PLAYERS_DEFUSER": "nobody"})
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: env GPTNT_PLAYERS_DEFUSER: players.defuser 'nobody': ")
    solo = _run([*argv, "--solo", "oracle"])
    assert solo.returncode == 2
    assert f"drop file {yaml}: players.defuser" in solo.stderr
    assert len(list(out.glob("*/episodes/*"))) == 1  # the refused runs wrote nothing


def _taking_from(argv: list[str], env: dict[str, str], scheduler: str) -> tuple[str, int]:
    """The scheduler a worker says it takes episodes from, and its exit code once it has joined
    the cluster at ``scheduler`` (named there by its pid) and is stopped by SIGTERM."""
    from distributed import Client

    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**CLEAN, **env})  # fmt: skip
    client = Client(scheduler, timeout=30)
    try:
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            workers = client.scheduler_info(n_workers=-1)["workers"].values()
            if any(str(w.get("name", "")).endswith(f"-{proc.pid}") for w in workers):
                break
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
        client.close()
    said = re.search(r"taking episodes from ([^;\s]+)", out)
    return (said.group(1) if said else out), proc.returncode


def test_worker_and_manager_meet_at_the_layered_scheduler(tmp_path: Path) -> None:
    yaml = tmp_path / "worker.yaml"
    yaml.write_text("bus:\n  scheduler: tcp://file-host:1\n")
    with dask_scheduler() as here:
        # env beats the file (gptnt worker), a flag beats env (python -m gptnt.services.manager)
        worker = [*GPTNT, "worker", "--config", str(yaml), "--out", str(tmp_path / "w")]
        assert _taking_from(worker, {"GPTNT_BUS_SCHEDULER": here}, here) == (here, 130)
        manager = [*MANAGER, "--config", str(yaml), "--scheduler", here]
        env = {"GPTNT_BUS_SCHEDULER": "tcp://env-host:2"}
        assert _taking_from(manager, env, here) == (here, 130)
    for argv in ([*GPTNT, "worker"], MANAGER):
        unset = _run(argv)
        assert unset.returncode == 2 and len(unset.stderr.strip().splitlines()) == 1
        assert "bus.scheduler is unset" in unset.stderr
    bad = _run([*MANAGER, "--config", str(yaml), "--out", str(tmp_path / "m")],
               {"GPTNT_RECORDS_OUT": "x", "GPTNT_GAME_WIDTH": "wide"})  # fmt: skip
    assert bad.returncode == 2
    assert bad.stderr.strip() == (
        "error: env GPTNT_GAME_WIDTH: game.width 'wide': Input should be a valid integer, "
        "unable to parse string as an integer"
    )
    assert not (tmp_path / "m").exists()
