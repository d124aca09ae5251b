"""A suite whose Dask scheduler dies mid-suite stops with one line (``ClusterError``: exit 1,
rerun to resume), not a ``FuturesCancelledError`` traceback; nothing is recorded of the
attempts in flight, so a rerun plays them again."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

import pytest
from dask_scheduler import dask_scheduler
from distributed import Client

from gptnt.errors import ClusterError
from gptnt.records import Ledger
from gptnt.services.manager import EpisodeSettings, EpisodeSpec
from gptnt.services.manager.host import GAME
from gptnt.services.manager.suite import Progress, _Issued, _Played


def test_a_scheduler_that_dies_mid_suite_is_a_cluster_error(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    with dask_scheduler() as address:
        client = Client(address, timeout=10)
        try:
            played = _Played(client, run_dir, EpisodeSettings(), None, address,
                             Progress(total=1), park_after=3, episodes=1)  # fmt: skip
            spec = EpisodeSpec.make("Wires-234", "sync")
            # No game host joined: the attempt waits for a slot, in flight as far as the suite
            # knows, when the scheduler is killed.
            future = client.submit(time.sleep, 60, resources={GAME: 1}, pure=False)
            played.live[future] = _Issued(spec=spec, at=time.time())
            os.kill(client.run_on_scheduler(os.getpid), signal.SIGKILL)
            end = time.monotonic() + 30
            with pytest.raises(ClusterError, match="scheduler went away; rerun") as caught:
                while time.monotonic() < end:
                    assert played._wait() == []
            assert "scheduler-connection-lost" in str(caught.value)
        finally:
            with contextlib.suppress(Exception):
                client.close(timeout=5)
    assert not Ledger(run_dir).path.exists()  # nothing recorded: a rerun plays it again
