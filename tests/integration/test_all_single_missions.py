"""The oracle pair solves every one of the 110 single-module missions in sync mode (slow).

Proves, end to end over a real Redis, that the simulator, the Defuser's descriptions and
set-of-marks execution, and the Expert's ruleset agree on every module and seed.

The episodes run in-process (task launch) and are CPU-bound, so they are shared among one
process per CPU (at most 4), each playing two at a time.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from gptnt.missions import load_missions
from gptnt.services.manager import EpisodeSettings, EpisodeSpec, play_episode

SINGLE = [m.id for m in load_missions().values() if m.kind == "single"]
SETTINGS = EpisodeSettings(launch="task", turn_timeout_s=30)
LANES = 2  # episodes at once in each process: one's waits overlap the other's work
PROCESSES = max(1, min(os.cpu_count() or 1, 4))


def play_share(admin_url: str, run_dir: str, missions: list[str]) -> list[tuple[str, str, int]]:
    """Play ``missions`` (in a process of the pool); (mission, outcome: reason, strikes) each."""

    async def play() -> list[tuple[str, str, int]]:
        lanes = asyncio.Semaphore(LANES)

        async def one(mission_id: str) -> tuple[str, str, int]:
            async with lanes:
                s = await play_episode(EpisodeSpec.make(mission_id, "sync"), SETTINGS,
                                       admin_url=admin_url, run_dir=Path(run_dir))  # fmt: skip
            return s.mission_id, f"{s.outcome}: {s.reason}", s.strikes

        return list(await asyncio.gather(*(one(m) for m in missions)))

    return asyncio.run(play())


@pytest.mark.slow
def test_oracle_pair_solves_all_110_single_module_missions(
    redis_admin_url: str, tmp_path: Path
) -> None:
    assert len(SINGLE) == 110
    shares = [SINGLE[i::PROCESSES] for i in range(PROCESSES)]
    spawn = multiprocessing.get_context("spawn")  # a fresh interpreter: no forked threads
    with ProcessPoolExecutor(PROCESSES, mp_context=spawn) as pool:
        played = [row for share in pool.map(play_share, [redis_admin_url] * PROCESSES,
                                            [str(tmp_path)] * PROCESSES, shares)
                  for row in share]  # fmt: skip
    assert sorted(m for m, _, _ in played) == sorted(SINGLE)
    failed = {m: result for m, result, _ in played if not result.startswith("solved")}
    assert not failed
    assert all(strikes == 0 for _, _, strikes in played)
