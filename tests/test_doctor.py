"""``gptnt doctor`` on this machine, against real loopback servers: the simulator as the game,
the embedded Redis, the OpenAI-compatible stand-in as a provider; and closed ports. The X
display and GPU lines say what this machine has (a box without them fails those checks)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from gptnt.cli import app
from gptnt.doctor import check_display, check_gpu
from gptnt.players.cassette import ChatServer, Script, loopback
from gptnt.sim.game import Game
from gptnt.sim.server import create_app


def _lines(output: str) -> dict[str, str]:
    """Check name → status (the first word) of each line."""
    out = {}
    for line in output.splitlines():
        status, _, rest = line.partition("  ")
        out[rest.strip().split("  ")[0].strip()] = status.strip()
    return out


def test_every_reachable_part_is_ok_and_the_exit_says_whether_any_failed(
    tmp_path: Path, redis_admin_url: str
) -> None:
    server = ChatServer(Script())
    with server.running(), loopback(create_app(Game(width=160, height=120))) as game:
        player = tmp_path / "fake-defuser.yaml"
        player.write_text(f"model: vllm:fake-defuser\nbase_url: {server.url}\n", encoding="utf-8")
        result = CliRunner().invoke(
            app, ["doctor", "--game", game, "--redis-url", redis_admin_url,
                  "--defuser", str(player)],
        )  # fmt: skip
    lines = _lines(result.output)
    assert lines["game /health"] == "ok" and lines["mod loaded"] == "ok", result.output
    assert "simulator: " in result.output and "module types" in result.output
    assert lines["redis"] == "ok" and lines["defuser fake-defuser"] == "ok"
    assert lines["expert"] == "skip"  # the scripted oracle
    assert lines["X display"] == check_display().status and lines["GPU"] == check_gpu().status
    assert result.exit_code == (1 if "FAIL" in lines.values() else 0)


def test_what_does_not_answer_fails_in_one_line_each(tmp_path: Path) -> None:
    player = tmp_path / "p.yaml"
    player.write_text("model: vllm:m\nbase_url: http://127.0.0.1:9/v1\n", encoding="utf-8")
    result = CliRunner().invoke(
        app, ["doctor", "--game", "http://127.0.0.1:9", "--redis-url", "redis://127.0.0.1:9",
              "--expert", str(player)],
    )  # fmt: skip
    lines = _lines(result.output)
    assert lines["game /health"] == lines["redis"] == lines["expert p"] == "FAIL", result.output
    assert lines["mod loaded"] == "skip"
    assert result.exit_code == 1
    assert len(result.output.splitlines()) == 7  # display, GPU, game, mod, Redis, two players


def test_the_display_check_reads_display_and_the_x_socket(tmp_path: Path) -> None:
    assert check_display({}, tmp_path).status == "FAIL"
    assert check_display({"DISPLAY": ":7"}, tmp_path).status == "FAIL"  # no X server socket
    (tmp_path / "X7").touch()
    assert check_display({"DISPLAY": ":7.0"}, tmp_path).status == "ok"


def test_the_gpu_check_lists_what_nvidia_smi_reports(tmp_path: Path) -> None:
    fake = tmp_path / "nvidia-smi"
    fake.write_text("#!/bin/sh\necho 'NVIDIA H100 80GB HBM3, 81559 MiB'\n"
                    "echo 'NVIDIA H100 80GB HBM3, 81559 MiB'\n", encoding="utf-8")  # fmt: skip
    fake.chmod(0o755)
    check = check_gpu(str(fake))
    assert check.status == "ok" and check.detail.startswith("2: NVIDIA H100")
    broken = tmp_path / "broken-smi"
    broken.write_text("#!/bin/sh\necho 'NVIDIA-SMI has failed' >&2\nexit 9\n", encoding="utf-8")
    broken.chmod(0o755)
    assert check_gpu(str(broken)).status == "FAIL"
    assert check_gpu(str(tmp_path / "absent")).status == "FAIL"


def test_doctor_has_help() -> None:
    result = CliRunner().invoke(app, ["doctor", "--help"])
    assert result.exit_code == 0 and "nvidia-smi" in result.output


def test_no_line_shows_a_urls_password(tmp_path: Path) -> None:
    """Every URL the checks name (the game's, Redis's, a provider's) reaches the screen with
    its userinfo hidden: a doctor's output is pasted into issues and chat."""
    player = tmp_path / "p.yaml"
    player.write_text("model: vllm:m\nbase_url: http://bob:provpw42@127.0.0.1:9/v1\n",
                      encoding="utf-8")  # fmt: skip
    result = CliRunner().invoke(
        app, ["doctor", "--game", "http://u:gamepw42@127.0.0.1:9",
              "--redis-url", "redis://u:redispw42@127.0.0.1:9", "--expert", str(player)],
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "127.0.0.1:9" in result.output
    for secret in ("gamepw42", "redispw42", "provpw42"):
        assert secret not in result.output, result.output
