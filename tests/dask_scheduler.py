"""A Dask scheduler started as a child process for a test, the way a suite host runs one
(``dask scheduler`` with the suite's policy, ``SCHEDULER_ENV``); stopped when the block ends."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from gptnt.services.manager.suite import SCHEDULER_ENV


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def dask_scheduler(timeout_s: float = 60.0, **policy: str) -> Iterator[str]:
    """Yield the address (``tcp://127.0.0.1:PORT``) of a scheduler once it accepts; ``policy``
    overrides variables of ``SCHEDULER_ENV`` by name."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", str(port), "--no-dashboard"],
        env={**os.environ, **SCHEDULER_ENV, **policy}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        end = time.monotonic() + timeout_s
        while True:
            if process.poll() is not None:
                err = process.stderr.read().decode(errors="replace") if process.stderr else ""
                pytest.fail(f"dask scheduler exited with {process.returncode}: {err[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1.0):
                    break
            except OSError:
                if time.monotonic() > end:
                    pytest.fail(f"dask scheduler did not listen within {timeout_s:.0f} s")
                time.sleep(0.2)
        yield f"tcp://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
