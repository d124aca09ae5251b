"""``gptnt run`` with ``--out`` on a disk that fills mid-episode, for real: a 1 MiB tmpfs
mounted for the test (root), else a file-size limit (``RLIMIT_FSIZE``) on the child process,
which fails writes the same way (``EFBIG``) without privileges. The episode ends
``crashed: disk: …`` with exit 3 (the documented exit code of a crashed episode), no traceback."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gptnt.cli import ExitCode
from gptnt.players.backends import OFFLINE_ENV

GPTNT = Path(sys.executable).parent / "gptnt"
FREE_BYTES = 48 * 1024  # tmpfs: the episode's records (frames included) need well over this


FILE_CAP = 8 * 1024  # RLIMIT_FSIZE: the frames and the event log each outgrow it


@pytest.fixture(params=["tmpfs", "rlimit"])
def small_disk(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[Path, Callable[[], None] | None]]:
    """A directory on a nearly full filesystem (a 1 MiB tmpfs, root only), or a file-size cap
    for the child (anyone); and the child's pre-exec hook."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if request.param == "rlimit":

        def limit() -> None:  # writes past the cap fail with EFBIG instead of killing
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_CAP, FILE_CAP))

        yield mount, limit
        return
    mounted = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
        capture_output=True, check=False,
    ).returncode == 0  # fmt: skip
    if not mounted:
        pytest.skip("mounting a tmpfs needs root (CAP_SYS_ADMIN); the rlimit case still runs")
    try:
        size = os.statvfs(mount).f_bavail * os.statvfs(mount).f_frsize
        with open(mount / "filler", "wb") as filler:
            filler.write(bytes(size - FREE_BYTES))
        yield mount, None
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_crashes_the_episode_in_one_line(
    small_disk: tuple[Path, Callable[[], None] | None], tmp_path: Path
) -> None:
    if not GPTNT.exists():
        pytest.skip(f"console script {GPTNT} not installed")
    out, limit = small_disk
    env = {**os.environ, OFFLINE_ENV: "1"}
    env.pop("GPTNT_REDIS_URL", None)
    done = subprocess.run(
        [str(GPTNT), "run", "--mission", "Wires-234", "--mode", "sync", "--quiet",
         "--out", str(out / "runs")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False,
        preexec_fn=limit,
    )  # fmt: skip
    assert done.returncode == ExitCode.CRASHED, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("crashed: disk: "), lines
    assert lines[0].endswith("free space, then rerun to resume")
