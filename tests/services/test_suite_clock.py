"""The suite's fleet view reads every time from the suite's own clock: a game host whose clock
is an hour off does not show an episode in flight for an hour (or for minus one)."""

from __future__ import annotations

import time
from pathlib import Path

from gptnt.services.manager import EpisodeSettings
from gptnt.services.manager.suite import Progress, _Played


class _Client:
    """The one call ``_Played`` makes of its client when built: event subscriptions."""

    def subscribe_topic(self, _topic: str, _handler: object) -> None:
        return None


def test_an_attempt_in_flight_is_timed_by_the_suites_clock_not_the_hosts(tmp_path: Path) -> None:
    played = _Played(_Client(), tmp_path / "run", EpisodeSettings(), None, "local",  # type: ignore[arg-type]
                     Progress(total=1), park_after=3, episodes=1)  # fmt: skip
    before = time.time()
    for skew in (3600.0, -3600.0):  # the host's clock an hour ahead, then an hour behind
        played._on_start((0.0, {"run": played.name, "key": f"k{skew}", "attempt": 1, "host": "h",
                                "name": "h-1", "at": time.time() + skew}))  # fmt: skip
    flights = list(played.started.values())
    assert len(flights) == 2
    assert all(before <= f.started_at <= time.time() for f in flights), flights
