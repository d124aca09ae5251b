"""Analyses on hand-built episodes: the solo ablation's rows and a solo episode's place in the
other tables."""

from __future__ import annotations

from pathlib import Path

from gptnt.analysis import Rate
from gptnt.analysis._load import RecordedEpisode
from gptnt.analysis._tables import branches, outcomes, self_other, solo
from gptnt.records import Conditions, ModuleResult, Parent, PlayerInfo, Summary


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


def _async(name: str, outcome: str, conditions: Conditions, parent: Parent | None = None):  # type: ignore[no-untyped-def]
    summary = Summary(
        episode_id=name, mission_id="Wires-234", mode="async", players=ORACLES, outcome=outcome,
        modules=[ModuleResult(name="Wires", solved=outcome == "solved")], time_limit=81,
        started_at=0.0, ended_at=1.0, conditions=conditions, parent=parent,
    )  # fmt: skip
    return RecordedEpisode("run", Path("run/episodes") / name, name, 1, 1, "finished", None,
                           summary, (), (), None)  # fmt: skip


ORACLES = [PlayerInfo(role="defuser", policy="oracle", kind="scripted", label="oracle"),
           PlayerInfo(role="expert", policy="oracle", kind="scripted", label="oracle")]  # fmt: skip


def test_virtual_clock_and_wall_clock_async_are_never_pooled() -> None:
    wall = Conditions(time_limit=81, pairing="oracle/oracle")
    virtual = Conditions(time_limit=81, pairing="oracle/oracle", clock="virtual", latency="fixed:5")
    episodes = [_async("a", "solved", wall), _async("b", "timeout", virtual),
                _async("c", "timeout", virtual)]  # fmt: skip
    rows = {(r[1], r[2]): r[5] for r in outcomes(episodes).rows}
    assert rows == {
        ("oracle × oracle", "async"): Rate(1, 1),
        ("oracle × oracle", "async, virtual clock (fixed:5)"): Rate(0, 2),
    }


def test_a_branch_is_set_apart_and_compared_with_its_parent() -> None:
    paper = Conditions(time_limit=81, pairing="oracle/oracle", clock="virtual", latency="fixed:5")
    link = Parent(episode_id="p", path="episodes/p", fork_turn=4, replaced_role="expert",
                  message="cut it")  # fmt: skip
    parent, branch = _async("p", "solved", paper), _async("b", "timeout", paper, link)
    assert (
        branch.pairing == parent.pairing + " · replay of p from turn 4 (expert's message replaced)"
    )
    assert len(outcomes([parent, branch]).rows) == 2  # never one pooled row
    (row,) = branches([parent, branch]).rows
    assert row[:7] == ("run", "p", "b", 4, "expert: cut it", "solved", "timeout")
    assert row[-1] is None  # no turns recorded in either: nothing differs
    (lost,) = branches([branch]).rows
    assert lost[5] == "not loaded"
