"""Which manual an episode reads: ``paper`` takes the imported official manual when there is
one (and the rule seed is 1), else the generated one with a one-line notice; ``official``
without an import is refused with the fix."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gptnt.errors import ConfigError
from gptnt.manual import OFFICIAL_ENV, build_manual, resolve_source, save

GPTNT = str(Path(sys.executable).with_name("gptnt"))


def test_paper_falls_back_in_one_line_and_official_is_refused(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(OFFICIAL_ENV, str(tmp_path / "nothing-here"))
    source, notice = resolve_source("paper", 1)
    assert source == "generated" and notice is not None and "\n" not in notice
    assert "gptnt manual import" in notice
    with pytest.raises(ConfigError, match="manual=official: no imported official manual"):
        resolve_source("official", 1)
    assert resolve_source("generated", 1) == ("generated", None)


def test_paper_takes_the_imported_manual_under_rule_seed_1_only(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "manual-official"
    save(build_manual(1), folder)  # any saved manual stands in for an import here
    monkeypatch.setenv(OFFICIAL_ENV, str(folder))
    assert resolve_source("paper", 1) == (str(folder.resolve()), None)
    source, notice = resolve_source("paper", 1764)
    assert source == "generated" and notice and "rule seed 1764" in notice


def test_a_suite_says_once_that_it_reads_the_generated_manual(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", OFFICIAL_ENV: str(tmp_path / "none"), "HOME": str(tmp_path)}
    done = subprocess.run(
        [GPTNT, "suite", "plan", "single", "--defuser", "oracle", "--expert",
         "anthropic:claude-sonnet-4-6", "--only", "Wires-234,Keypad-234"],
        capture_output=True, text=True, timeout=120, env=env, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("manual: ")]
    assert len(lines) == 1 and "not the official one the paper's Expert read" in lines[0]


def test_no_manual_notice_where_no_model_reads_the_manual(tmp_path: Path) -> None:
    # Review of issue 29: scripted Experts read the rules, not a manual; the notice was noise.
    env = {"PATH": "/usr/bin:/bin", OFFICIAL_ENV: str(tmp_path / "none"), "HOME": str(tmp_path)}
    for flags in (["--players", "oracle"], ["--players", "oracle", "--solo"]):
        done = subprocess.run(
            [GPTNT, "suite", "plan", "single", *flags, "--only", "Wires-234"],
            capture_output=True, text=True, timeout=120, env=env, check=False, cwd=tmp_path,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert not [line for line in done.stderr.splitlines() if line.startswith("manual: ")]
