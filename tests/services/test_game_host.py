"""A worker that offers game slots but is no ``gptnt worker`` (a plain ``dask worker
--resources game=1`` joined the suite's scheduler) fails each attempt with one line saying
what to start instead, not an ``AttributeError`` on ``None``."""

from __future__ import annotations

import pytest

from gptnt.errors import ClusterError
from gptnt.services.manager import EpisodeSettings, EpisodeSpec
from gptnt.services.manager.host import play_on_host


def test_a_plain_dask_worker_is_told_to_be_a_gptnt_worker() -> None:
    spec = EpisodeSpec.make("Wires-234", "sync")
    with pytest.raises(ClusterError, match=r"is no `gptnt worker`.*start `gptnt worker"):
        play_on_host("run-1", spec, EpisodeSettings(), None)
