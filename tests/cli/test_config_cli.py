"""The layered configuration: defaults < YAML < GPTNT_* environment < flags, each value with the
layer that set it, and ``gptnt config show`` printing them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gptnt.config import Config, GameConfig, env_name, load_config
from gptnt.errors import ConfigError

GPTNT = Path(sys.executable).parent / "gptnt"

RUN_YAML = """\
game:
  width: 800
  rule_seed: 2
timing:
  game_call_s: 20
records:
  out: elsewhere
"""


@pytest.fixture
def run_yaml(tmp_path: Path) -> Path:
    path = tmp_path / "run.yaml"
    path.write_text(RUN_YAML)
    return path


def test_defaults_alone() -> None:
    layered = load_config(env={})
    assert layered.config == Config()
    assert {source for _, _, source in layered.rows()} == {"default"}


def test_a_yaml_value_overrides_the_default(run_yaml: Path) -> None:
    layered = load_config(run_yaml, env={})
    assert layered.config.game.width == 800 and layered.config.game.rule_seed == 2
    assert layered.config.records.out == Path("elsewhere")
    assert layered.sources["game.width"] == f"file {run_yaml}"
    assert layered.config.game.height == GameConfig().height  # untouched keys keep defaults
    assert "game.height" not in layered.sources


def test_an_env_var_overrides_the_yaml_value(run_yaml: Path) -> None:
    env = {"GPTNT_GAME_WIDTH": "1024", "GPTNT_TIMING_STOP_TIMEOUT_S": "9"}
    layered = load_config(run_yaml, env=env)
    assert layered.config.game.width == 1024
    assert layered.sources["game.width"] == "env GPTNT_GAME_WIDTH"
    assert layered.config.timing.stop_timeout_s == 9.0
    assert layered.config.timing.game_call_s == 20.0  # from the file, no variable set
    assert env_name("timing.game_call_s") == "GPTNT_TIMING_GAME_CALL_S"


def test_a_flag_overrides_the_env_var(run_yaml: Path) -> None:
    layered = load_config(
        run_yaml, env={"GPTNT_GAME_WIDTH": "1024"}, flags={"game.width": 320, "bus.launch": None}
    )
    assert layered.config.game.width == 320
    assert layered.sources["game.width"] == "flag game.width"
    assert layered.config.bus.launch is None  # a flag left at None sets nothing
    assert "bus.launch" not in layered.sources


def test_the_redis_url_variable_is_the_bus_url() -> None:
    layered = load_config(env={"GPTNT_REDIS_URL": "redis://h:1/0"})
    assert layered.config.bus.redis_url == "redis://h:1/0"
    assert layered.sources["bus.redis_url"] == "env GPTNT_REDIS_URL"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"env": {"GPTNT_GAME_WIDTH": "wide"}}, "env GPTNT_GAME_WIDTH: game.width"),
        ({"flags": {"bus.launch": "thread"}}, "flag bus.launch: bus.launch"),
        ({"flags": {"game.colour": 1}}, "'game.colour' is not a setting"),
        ({"flags": {"game.backend": "ftp://x"}}, "game.backend 'ftp://x': has scheme 'ftp'"),
    ],
)
def test_bad_values_name_the_key_and_the_layer(kwargs: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace(".", r"\.").replace("(", r"\(")):
        load_config(**{"env": {}, **kwargs})


def test_bad_files_are_one_line_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: [1, 2]\n")
    with pytest.raises(ConfigError, match="'game' must be a mapping"):
        load_config(bad, env={})
    bad.write_text("game:\n  widht: 3\n")
    with pytest.raises(ConfigError, match=f"file {bad}: 'game.widht' is not a setting"):
        load_config(bad, env={})
    with pytest.raises(ConfigError, match="cannot read it"):
        load_config(tmp_path / "missing.yaml", env={})


def test_config_show_prints_values_and_sources(run_yaml: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPTNT_")}
    env["GPTNT_GAME_HEIGHT"] = "600"
    result = subprocess.run(
        [str(GPTNT), "config", "show", "--config", str(run_yaml),
         "--set", "timing.idle_sleep_s=0.1", "--json"],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["game.width"] == {"value": 800, "source": f"file {run_yaml}"}
    assert shown["game.height"] == {"value": 600, "source": "env GPTNT_GAME_HEIGHT"}
    assert shown["timing.idle_sleep_s"] == {"value": 0.1, "source": "flag timing.idle_sleep_s"}
    assert shown["game.backend"] == {"value": "sim", "source": "default"}
    bad = subprocess.run(
        [str(GPTNT), "config", "show", "--set", "game.width=tiny"],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert bad.returncode == 2 and "flag game.width: game.width" in bad.stderr


def test_gptnt_run_takes_its_settings_from_the_layers(tmp_path: Path) -> None:
    """A bad value in any layer stops `gptnt run` before anything starts, naming the layer."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPTNT_")}
    bad = tmp_path / "run.yaml"
    bad.write_text("game:\n  backend: ftp://nowhere\n")
    argv = [str(GPTNT), "run", "--mission", "1", "--mode", "sync", "--out", str(tmp_path)]
    from_file = subprocess.run(
        [*argv, "--config", str(bad)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert from_file.returncode == 2 and f"file {bad}: game.backend" in from_file.stderr
    from_env = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        env={**env, "GPTNT_BUS_LAUNCH": "thread"},
        timeout=60,
        check=False,
    )
    assert from_env.returncode == 2 and "env GPTNT_BUS_LAUNCH: bus.launch" in from_env.stderr
    assert not any(tmp_path.glob("*-1-sync"))  # nothing half-written


def test_a_bad_value_is_named_without_the_secret_in_it(tmp_path: Path) -> None:
    """A value of the wrong shape is echoed in the error, with any URL password masked."""
    cred = tmp_path / "cred.yaml"
    cred.write_text("players:\n  defuser:\n    base_url: http://alice:s3cret@127.0.0.1:9/v1\n")
    with pytest.raises(ConfigError) as err:
        load_config(cred)
    assert "s3cret" not in str(err.value)
    assert "players.defuser" in str(err.value) and "127.0.0.1:9" in str(err.value)
