"""Model turns of any length up to their deadline: a stand-in provider that takes longer than
redis-py's 5 s default socket timeout (which used to cut the RPC waiting for the turn), in
both modes; and turns that overrun the player config's deadline end the episode as crashed."""

from __future__ import annotations

from pathlib import Path

import pytest
from standin_players import Hostile, Latency, Standin, hostile_yaml, player_yaml, start_standin

from gptnt.config import GameConfig
from gptnt.missions import Mission
from gptnt.protocol import MissionConfig
from gptnt.records import read_events
from gptnt.services.manager import Episode, EpisodeSettings, EpisodeSpec

SETTINGS = EpisodeSettings(launch="task", idle_sleep_s=0.05, game=GameConfig(width=320, height=240))


def _mission(time_limit: int) -> Mission:
    config = MissionConfig(seed=234, time_limit=time_limit, components=["Wires"], is_front=True,
                           needy_time=time_limit, opt_widgets=1)  # fmt: skip
    return Mission(id="Wires-234", kind="single", title="Wires, short clock", config=config)


@pytest.mark.parametrize(("mode", "time_limit"), [("sync", 6), ("async", 8)])
async def test_a_turn_slower_than_five_seconds_is_waited_for(
    mode: str, time_limit: int, offline: None, redis_admin_url: str, tmp_path: Path
) -> None:
    standin = Standin(Latency(script=[6.5]), seed=1)
    standin.latency.median_s = standin.latency.min_s = standin.latency.max_s = 0.05
    async for running in start_standin(standin):
        defuser = str(player_yaml(tmp_path / "slow.yaml", running, "idle"))
        spec = EpisodeSpec.make("Wires-234", mode, defuser, "idle")
        episode = Episode(spec, SETTINGS, admin_url=redis_admin_url, run_dir=tmp_path,
                          mission=_mission(time_limit))  # fmt: skip
        summary = await episode.run()
    assert summary.outcome == "timeout", summary.reason  # the stand-in only ever waits
    assert running.latencies[0] == 6.5
    turns = [e for e in read_events(episode.dir) if e.kind == "turn" and e.role == "defuser"]
    assert turns and turns[0].failed_call is None and not turns[0].errors


async def test_a_call_that_never_answers_is_cut_by_its_budget_inside_its_turn(
    offline: None, redis_admin_url: str, tmp_path: Path
) -> None:
    """The call's deadline is the turn's less its other waits: a hung provider is cut there
    (no answer, the provider's failure), and the turn itself never overruns."""
    settings = SETTINGS.model_copy(update={"game_call_s": 1.0})
    async for hostile in Hostile().serve():
        defuser = str(hostile_yaml(tmp_path / "hang.yaml", hostile, "hang", turn_timeout_s=13.5))
        spec = EpisodeSpec.make("Wires-234", "sync", defuser, "idle")
        episode = Episode(spec, settings, admin_url=redis_admin_url, run_dir=tmp_path,
                          mission=_mission(30))  # fmt: skip
        summary = await episode.run()
    assert episode.budget.turn("defuser").call_s == 1.5
    assert summary.outcome == "crashed" and "overran" not in summary.reason
    assert "failed 3 calls of the defuser in a row (no answer, no answer, no answer)" in (
        summary.reason
    )
    turns = [e for e in read_events(episode.dir) if e.kind == "turn" and e.role == "defuser"]
    assert [t.failed_call.fault for t in turns if t.failed_call] == ["unreachable"] * 3
