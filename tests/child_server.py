"""A protocol server started as a child process for a test (``gptnt sim serve``, ``gptnt stub
serve``, the C# mod's host): waited for until ``/health`` answers — a child that exits first
fails the test with the end of its stderr — and stopped (terminate, then kill) when the block
ends. The child's stderr stays readable after the block (``process.stderr``)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

GPTNT = [sys.executable, "-c", "from gptnt.cli import main; main()"]
"""The ``gptnt`` command of this interpreter (whatever its console scripts)."""


@contextmanager
def child_server(
    command: list[str], url: str, *, timeout_s: float = 30.0, env: Mapping[str, str] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``command``, yield the process once ``url``/health answers 200."""
    if command[:3] == GPTNT:
        name = "gptnt " + " ".join(command[3:5])
    else:
        name = " ".join(Path(part).name for part in command[:2])
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + timeout_s
        while True:
            if process.poll() is not None:
                err = process.stderr.read().decode(errors="replace") if process.stderr else ""
                pytest.fail(f"`{name}` exited with {process.returncode}: {err[-2000:]}")
            try:
                if httpx.get(f"{url}/health", timeout=1.0).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > end:
                pytest.fail(f"`{name}` did not answer /health at {url} within {timeout_s:g} s")
            time.sleep(0.1)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
