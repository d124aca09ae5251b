"""``gptnt vllm``: the vLLM command line per open model, checked through --dry-run."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gptnt.cli import app
from gptnt.errors import PlayerConfigError
from gptnt.manual import PAPER_PAGES
from gptnt.players.config import load_player_config
from gptnt.players.serving import vllm_command

REPO = Path(__file__).resolve().parents[2]


def _flag(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


@pytest.mark.parametrize(
    ("name", "model", "port", "length"),
    [("qwen3-5-27b", "Qwen/Qwen3.5-27B", "8000", "128000"),
     ("internvl3-5-38b", "OpenGVLab/InternVL3_5-38B", "8001", "40960")],
)  # fmt: skip
def test_dry_run_prints_the_papers_serving_flags(
    name: str, model: str, port: str, length: str
) -> None:
    result = CliRunner().invoke(app, ["vllm", name, "--dry-run"])
    assert result.exit_code == 0, result.output
    command = shlex.split(result.output.strip())
    assert command[:3] == ["vllm", "serve", model]
    assert _flag(command, "--port") == port and _flag(command, "--max-model-len") == length
    assert _flag(command, "--dtype") == "bfloat16"
    assert _flag(command, "--tensor-parallel-size") == "2"
    config = load_player_config(name)
    images = json.loads(_flag(command, "--limit-mm-per-prompt"))["image"]
    assert images >= len(PAPER_PAGES) + 17  # the manual's pages + a Simon/Morse turn's frames
    assert config.input_limit + config.max_tokens <= int(length)  # the window holds a turn


def test_qwen_thinking_off_and_internvl_remote_code() -> None:
    qwen = vllm_command(load_player_config("qwen3-5-27b"))
    assert json.loads(_flag(qwen, "--default-chat-template-kwargs")) == {"enable_thinking": False}
    assert "--trust-remote-code" in vllm_command(load_player_config("internvl3-5-38b"))


def test_api_models_are_refused() -> None:
    with pytest.raises(PlayerConfigError, match="not served by vLLM"):
        vllm_command(load_player_config("gpt-5-2"))


def test_script_passes_through(tmp_path: Path) -> None:
    gptnt = REPO / ".venv" / "bin" / "gptnt"
    if not gptnt.exists():
        pytest.skip("no installed gptnt entry point")
    out = subprocess.run(
        [str(REPO / "scripts" / "serve_vllm.sh"), "qwen3-5-27b", "--dry-run", "--port", "9100"],
        capture_output=True, text=True, check=True, env={**os.environ, "GPTNT": str(gptnt)},
    )  # fmt: skip
    assert "--port 9100" in out.stdout and out.stdout.startswith("vllm serve Qwen/Qwen3.5-27B")
