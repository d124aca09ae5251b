"""A service process runs this installation's gptnt, whatever directory the run starts in: one
holding another checkout of gptnt (another version's code) is never imported (``python -P``).
A suite resumed from a checkout of main once played its episodes with main's player and this
version's manager, and crashed every one on the record's new field."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

GPTNT = Path(sys.executable).parent / "gptnt"  # the console script: its own path, not the cwd


@pytest.mark.parametrize("launch", ["process", "warm"])
def test_a_gptnt_folder_in_the_working_directory_is_not_what_services_run(
    launch: str, tmp_path: Path
) -> None:
    decoy = tmp_path / "gptnt"
    decoy.mkdir()
    (decoy / "__init__.py").write_text('raise SystemExit("imported the gptnt of the cwd")\n')
    env = {k: v for k, v in os.environ.items() if k != "GPTNT_REDIS_URL"}
    done = subprocess.run(
        [str(GPTNT), "run", "--mission", "Wires-234", "--mode", "sync", "--launch", launch,
         "--out", str(tmp_path / "runs"), "--quiet"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    logs = "".join(p.read_text() for p in (tmp_path / "runs").rglob("*.log"))
    assert "imported the gptnt of the cwd" not in logs + done.stderr
