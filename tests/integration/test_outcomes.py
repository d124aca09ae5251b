"""Honest outcomes through the whole harness: a strike, then the clock running out, is a
timeout in both modes — never a crash that would be re-rolled — and is finished in the ledger.
(``tests/records/test_outcome.py`` covers every module type at the level of the bomb state.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from gptnt.config import GameConfig
from gptnt.missions import Mission
from gptnt.protocol import MissionConfig
from gptnt.records import Ledger
from gptnt.services.manager import EpisodeSettings, EpisodeSpec

SETTINGS = EpisodeSettings(
    launch="task",
    idle_sleep_s=0.02,
    game=GameConfig(width=320, height=240, startup_timeout_s=30),
)
STRIKES = 5  # the most a mission may allow: room for strikes that speed the clock up


def _mission(kind: str, *, time_limit: int, scale: float) -> Mission:
    config = MissionConfig(
        seed=7, time_limit=time_limit, num_strikes=STRIKES, needy_time=10, is_front=True,
        opt_widgets=1, components=[kind], time_scale=scale,
    )  # fmt: skip
    return Mission(id=f"{kind}-7", kind="single", title=f"{kind}, strikes test", config=config)


@pytest.mark.parametrize(
    ("mode", "kind", "time_limit", "scale"),
    [("sync", "Keypad", 30, 1.0), ("async", "Memory", 40, 10.0)],
)
async def test_strike_then_timeout_is_a_finished_timeout(
    mode: str, kind: str, time_limit: int, scale: float, redis_admin_url: str, tmp_path: Path
) -> None:
    """The random Defuser (idle Expert), seed after seed, until an episode has a strike and
    neither solves nor strikes out: that episode must be a timeout, finished, not retried."""
    from gptnt.services.manager import Episode

    mission = _mission(kind, time_limit=time_limit, scale=scale)
    for seed in range(6):
        spec = EpisodeSpec.make(mission.id, mode, "random", "idle", repeat=seed, seed=seed)
        episode = Episode(spec, SETTINGS, admin_url=redis_admin_url, run_dir=tmp_path,
                          mission=mission)  # fmt: skip
        summary = await episode.run()
        assert summary.outcome != "crashed", summary.reason
        if summary.strikes and summary.outcome not in ("solved", "strikeout"):
            break
    else:
        pytest.fail(f"no seed gave {mission.id} a strike without solving or striking out")
    assert summary.outcome == "timeout", summary.reason
    assert 0 < summary.strikes < STRIKES
    assert summary.game_time_used == pytest.approx(summary.time_limit, abs=0.05)
    assert Ledger(tmp_path).done() == set()  # Episode.run writes no ledger line by itself
