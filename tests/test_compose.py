"""``docker-compose.yml`` stays runnable: every ``gptnt`` command it runs exists in our CLI.

Compose is never started here (no Docker in CI); the file is parsed and checked against the
typer app, the Dockerfiles it builds, and the vLLM arguments ``gptnt vllm`` would use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer
import yaml

from gptnt.cli import app

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())


def _services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return compose["services"]


def _gptnt_commands(compose: dict[str, Any]) -> dict[str, list[str]]:
    return {
        name: [str(part) for part in service["command"]]
        for name, service in _services(compose).items()
        if isinstance(service.get("command"), list) and service["command"][:1] == ["gptnt"]
    }


def _resolve(words: list[str]) -> tuple[Any, list[str]]:
    """Walk the typer app down ``words`` (after ``gptnt``); the command and its remaining words.

    Groups are recognised by their ``commands`` table (typer may bring its own click, so
    ``isinstance`` checks against the installed click would not hold).
    """
    command: Any = typer.main.get_command(app)
    rest = list(words)
    while getattr(command, "commands", None) is not None and rest and not rest[0].startswith("-"):
        sub = command.commands.get(rest[0])
        if sub is None:
            known = ", ".join(sorted(command.commands))
            raise AssertionError(f"`gptnt … {rest[0]}` is not a command (known: {known})")
        command, rest = sub, rest[1:]
    assert getattr(command, "commands", None) is None, f"{words}: names a group, not a command"
    return command, rest


def test_compose_runs_gptnt_in_the_worker_and_suite_services(compose: dict[str, Any]) -> None:
    commands = _gptnt_commands(compose)
    assert {"worker", "suite"} <= set(commands), commands


@pytest.mark.parametrize("service", ["worker", "suite"])
def test_every_gptnt_command_and_option_exists(compose: dict[str, Any], service: str) -> None:
    words = _gptnt_commands(compose)[service][1:]
    command, rest = _resolve(words)
    known = {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}
    unknown = [word for word in rest if word.startswith("--") and word.split("=")[0] not in known]
    assert not unknown, f"{service}: `gptnt {' '.join(words)}` uses unknown options {unknown}"


def test_dockerfiles_exist(compose: dict[str, Any]) -> None:
    for name, service in _services(compose).items():
        build = service.get("build")
        if build:
            assert (REPO / build["context"] / build["dockerfile"]).is_file(), name


def test_long_running_services_have_health_checks(compose: dict[str, Any]) -> None:
    services = _services(compose)
    for name in ("redis", "game", "vllm"):
        assert services[name]["healthcheck"]["test"], name
    for name in ("worker", "suite"):
        assert services[name]["depends_on"]["game"]["condition"] == "service_healthy", name
    assert services["suite"]["depends_on"]["redis"]["condition"] == "service_healthy"
    assert "vllm" in services["vllm"]["profiles"]


def _options(args: list[str]) -> dict[str, str]:
    """``--flag value`` pairs of a vLLM command line (flags without a value map to "")."""
    pairs: dict[str, str] = {}
    for i, word in enumerate(args):
        if word.startswith("--"):
            following = args[i + 1] if i + 1 < len(args) else ""
            pairs[word] = "" if following.startswith("--") else following
    return pairs


def test_vllm_serves_what_gptnt_vllm_would(compose: dict[str, Any]) -> None:
    """Same model and settings as ``gptnt vllm qwen3-5-27b``; only the bind host differs."""
    from gptnt.players.config import load_player_config
    from gptnt.players.serving import vllm_command

    ours = vllm_command(load_player_config("qwen3-5-27b"))
    assert ours[:2] == ["vllm", "serve"]
    expected = {"--model": ours[2], **_options(ours[3:])}
    served = _options([str(word) for word in _services(compose)["vllm"]["command"]])
    assert served.pop("--host") == "0.0.0.0"
    expected.pop("--host")
    served.pop("--api-key")
    assert served == expected
