"""A provider that cannot be used ends the episode as ``crashed: provider …`` (so a suite
retries it and never counts it as the model's loss); every failed call keeps its status in the
record, and the key appears nowhere."""

from __future__ import annotations

from pathlib import Path

import pytest
from standin_players import STANDIN_KEY, Latency, Standin, player_yaml, start_standin

from gptnt.config import GameConfig
from gptnt.records import read_events
from gptnt.services.manager import EpisodeSettings, EpisodeSpec, play_episode

SETTINGS = EpisodeSettings(launch="task", game=GameConfig(width=320, height=240))


@pytest.mark.parametrize(
    ("status", "turns", "words"),
    [(401, 1, "refused the defuser's credentials (HTTP 401)"),
     (429, 3, "failed 3 calls of the defuser in a row (HTTP 429, HTTP 429, HTTP 429)")],
)  # fmt: skip
async def test_a_failing_provider_crashes_the_episode_with_its_status(
    status: int, turns: int, words: str, offline: None, redis_admin_url: str, tmp_path: Path
) -> None:
    standin = Standin(Latency(median_s=0.01, min_s=0.01, max_s=0.01), fail_from=0,
                      fail_status=status)  # fmt: skip
    async for running in start_standin(standin):
        defuser = str(player_yaml(tmp_path / "p.yaml", running, "idle"))
        spec = EpisodeSpec.make("Wires-234", "sync", defuser, "idle")
        summary = await play_episode(spec, SETTINGS, admin_url=redis_admin_url, run_dir=tmp_path)
    assert summary.outcome == "crashed"
    assert summary.reason.startswith("provider ") and words in summary.reason
    episode = tmp_path / "episodes" / f"{spec.key}-a1"
    failed = [
        e.failed_call for e in read_events(episode) if e.kind == "turn" and e.role == "defuser"
    ]
    assert len(failed) == turns
    assert all(f is not None and f.status == status for f in failed)
    for path in episode.rglob("*.json*"):
        assert STANDIN_KEY not in path.read_text()


async def test_a_provider_that_recovers_is_played_on(
    offline: None, redis_admin_url: str, tmp_path: Path
) -> None:
    """Two failures in a row, then answers: the episode goes on to its real outcome."""
    from gptnt.missions import Mission
    from gptnt.protocol import MissionConfig
    from gptnt.services.manager import Episode

    config = MissionConfig(seed=234, time_limit=12, components=["Wires"], is_front=True,
                           needy_time=12, opt_widgets=1)  # fmt: skip
    mission = Mission(id="Wires-234", kind="single", title="short clock", config=config)
    standin = Standin(Latency(median_s=0.01, min_s=0.01, max_s=0.01), faults={0: 503, 1: 500})
    async for running in start_standin(standin):
        defuser = str(player_yaml(tmp_path / "p.yaml", running, "idle"))
        spec = EpisodeSpec.make("Wires-234", "sync", defuser, "idle")
        episode = Episode(spec, SETTINGS, admin_url=redis_admin_url, run_dir=tmp_path,
                          mission=mission)  # fmt: skip
        summary = await episode.run()
    assert summary.outcome == "timeout", summary.reason
    turns = [e for e in read_events(episode.dir) if e.kind == "turn" and e.role == "defuser"]
    assert [t.failed_call.status if t.failed_call else None for t in turns[:3]] == [503, 500, None]
