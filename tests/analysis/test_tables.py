"""Analyses on hand-built episodes: the solo ablation's rows and a solo episode's place in the
other tables."""

from __future__ import annotations

from pathlib import Path

from gptnt.analysis import Rate
from gptnt.analysis._load import RecordedEpisode
from gptnt.analysis._tables import self_other, solo
from gptnt.records import Conditions, ModuleResult, PlayerInfo, Summary


def _episode(
    name: str, players: list[PlayerInfo], outcome: str, conditions: Conditions | None = None
) -> RecordedEpisode:
    summary = Summary(
        episode_id=name, mission_id="Wires-234", mode="sync", players=players, outcome=outcome,
        modules=[ModuleResult(name="Wires", solved=outcome == "solved")], time_limit=81,
        started_at=0.0, ended_at=1.0, conditions=conditions,
    )  # fmt: skip
    return RecordedEpisode("run", Path(name), name, 1, 1, "finished", None, summary, (), (), None)


MODEL: dict = {"policy": "m", "kind": "model", "label": "m (model)"}


def test_solo_rows_set_the_single_agent_apart_from_pairs() -> None:
    pair = [PlayerInfo(role="defuser", seat="defuser", **MODEL),
            PlayerInfo(role="expert", seat="expert", **MODEL)]  # fmt: skip
    alone = [PlayerInfo(role="defuser", seat="solo", **MODEL)]
    blind = [PlayerInfo(role="defuser", seat="solo-no-manual", **MODEL)]
    episodes = [_episode("a", pair, "solved"), _episode("b", pair, "timeout"),
                _episode("c", alone, "solved"), _episode("d", blind, "strikeout")]  # fmt: skip
    rows = {r[2]: r for r in solo(episodes).rows}
    assert rows["pair"][4] == Rate(1, 2)
    assert rows["solo"][4] == Rate(1, 1) and rows["solo-no-manual"][4] == Rate(0, 1)
    assert episodes[2].expert == "none (solo)"
    assert self_other(episodes).rows == ()  # no turns; and a solo player has no partner


def test_episodes_under_other_conditions_are_never_pooled() -> None:
    pair = [PlayerInfo(role="defuser", seat="defuser", **MODEL),
            PlayerInfo(role="expert", seat="expert", **MODEL)]  # fmt: skip
    paper = Conditions(time_limit=81, pairing="m/m")
    doubled = Conditions(time_limit=162, time_factor=2.0, pairing="m/m")
    episodes = [_episode("a", pair, "solved", paper), _episode("b", pair, "timeout", doubled),
                _episode("c", pair, "timeout")]  # fmt: skip
    assert episodes[0].pairing == episodes[2].pairing == "m (model) × m (model)"
    assert episodes[1].pairing == "m (model) × m (model) · time ×2"
    rows = {r[0]: r[4] for r in solo(episodes).rows}
    assert rows == {"m": Rate(1, 2), "m · time ×2": Rate(0, 1)}
