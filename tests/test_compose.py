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
    for name in ("redis", "game", "vllm", "scheduler"):
        assert services[name]["healthcheck"]["test"], name
    for dependency in ("game", "redis"):
        assert services["worker"]["depends_on"][dependency]["condition"] == "service_healthy"
    assert services["suite"]["depends_on"]["scheduler"]["condition"] == "service_healthy"
    assert "vllm" in services["vllm"]["profiles"]


def test_a_suite_host_and_game_hosts_meet_at_one_scheduler(compose: dict[str, Any]) -> None:
    """The scheduler runs the suite's policy; the suite and every worker name its port; the
    suite host's services and the game host's are separate profiles (two boxes), and the
    submitting profile brings the scheduler along."""
    from gptnt.services.manager.suite import SCHEDULER_ENV

    services = _services(compose)
    scheduler = services["scheduler"]
    assert scheduler["command"][:2] == ["dask", "scheduler"]
    port = scheduler["command"][scheduler["command"].index("--port") + 1]
    assert {k: str(v) for k, v in scheduler["environment"].items()} == SCHEDULER_ENV
    assert any(str(p).startswith(f"{port}:") for p in scheduler["ports"])
    for name in ("worker", "suite"):
        words = _gptnt_commands(compose)[name]
        address = words[words.index("--scheduler") + 1]
        assert address.endswith((f"scheduler:{port}", f":{port}}}")), name
    assert {"suite-host", "submit"} <= set(scheduler["profiles"])
    for name in ("worker", "game", "redis"):
        assert services[name]["profiles"] == ["game-host"], name
    assert "replicas" in services["worker"]["deploy"]  # N workers per game host


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
