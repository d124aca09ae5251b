"""A loaded machine never turns a live service into a crash: every service process of a real
episode is frozen (SIGSTOP) for longer than the old fixed 3 s heartbeat TTL, then thawed; the
episode ends with an outcome of the game, because a heartbeat's silence counts as hung only
past the longest wait the episode places on that service (``Budget.liveness``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path

from gptnt.config import GameConfig
from gptnt.services.manager import Episode, EpisodeSettings, EpisodeSpec, ProcessHandle

FROZEN_S = 6.0  # twice the old TTL; far inside every bound of the budget


async def test_services_frozen_past_the_old_ttl_still_play_to_a_game_outcome(
    offline: None, redis_admin_url: str, tmp_path: Path
) -> None:
    settings = EpisodeSettings(launch="process", game=GameConfig(width=320, height=240))  # type: ignore[arg-type]
    spec = EpisodeSpec.make("Wires-234", "sync", "random", "oracle")
    episode = Episode(spec, settings, admin_url=redis_admin_url, run_dir=tmp_path / "run")
    frozen: list[int] = []

    def freeze(_spec: EpisodeSpec, _event: object) -> None:
        if frozen:
            return
        for handle in episode._handles:
            assert isinstance(handle, ProcessHandle)
            frozen.append(handle.proc.pid)
            os.kill(handle.proc.pid, signal.SIGSTOP)
        asyncio.get_running_loop().call_later(FROZEN_S, thaw)

    def thaw() -> None:
        for pid in frozen:
            with contextlib.suppress(ProcessLookupError):  # ended since
                os.kill(pid, signal.SIGCONT)

    episode._on_turn = freeze
    try:
        summary = await episode.run()
    finally:
        thaw()
    assert len(frozen) == 3  # game, defuser, expert
    assert summary.outcome in ("solved", "strikeout", "timeout"), summary.reason
    assert episode.budget.silence_s("expert") > FROZEN_S
