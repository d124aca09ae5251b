"""The oracle pair solves every one of the 110 single-module missions in sync mode (slow).

Proves, end to end over a real Redis, that the simulator, the Defuser's descriptions and
set-of-marks execution, and the Expert's ruleset agree on every module and seed.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from gptnt.missions import load_missions
from gptnt.services.manager import EpisodeSettings, EpisodeSpec, play_episode

SINGLE = [m.id for m in load_missions().values() if m.kind == "single"]
SETTINGS = EpisodeSettings(launch="task", turn_timeout_s=30)


@pytest.mark.slow
async def test_oracle_pair_solves_all_110_single_module_missions(
    redis_admin_url: str, tmp_path: Path
) -> None:
    assert len(SINGLE) == 110
    lanes = asyncio.Semaphore(2)

    async def one(mission_id: str):  # type: ignore[no-untyped-def]
        async with lanes:
            return await play_episode(
                EpisodeSpec.make(mission_id, "sync"),
                SETTINGS,
                admin_url=redis_admin_url,
                run_dir=tmp_path,
            )

    summaries = await asyncio.gather(*(one(m) for m in SINGLE))
    failed = {s.mission_id: f"{s.outcome}: {s.reason}" for s in summaries if s.outcome != "solved"}
    assert not failed
    assert all(s.strikes == 0 for s in summaries)
