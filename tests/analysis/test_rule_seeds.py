"""The contamination contrast pairs episodes by (mission, repeat) across rule seeds and names a
non-vanilla seed in every table's pairing."""

from __future__ import annotations

from pathlib import Path

from gptnt.analysis._load import RecordedEpisode
from gptnt.analysis._tables import rule_seeds
from gptnt.records import ModuleResult, PlayerInfo, Summary

PLAYERS = [
    PlayerInfo(role="defuser", policy="a", label="model-a", kind="model"),
    PlayerInfo(role="expert", policy="b", label="model-b", kind="model"),
]


def _episode(mission: str, repeat: int, rule_seed: int, outcome: str) -> RecordedEpisode:
    rules = "" if rule_seed == 1 else f".rs{rule_seed}"
    key = f"{mission}.sync.a-b{rules}.r{repeat}"
    summary = Summary(
        episode_id=f"{key}-a1", mission_id=mission, mode="sync", rule_seed=rule_seed,
        players=PLAYERS, outcome=outcome, modules=[ModuleResult(name="Wires", solved=True)],
        time_limit=300, started_at=0, ended_at=1,
    )  # fmt: skip
    return RecordedEpisode(run="r", dir=Path("."), key=key, attempt=1, attempts=1, status="finished",
                   started=None, summary=summary, turns=(), steps=(), ended=None)  # fmt: skip


def test_the_drop_is_paired_by_mission_and_repeat() -> None:
    episodes = [
        _episode("1", 0, 1, "solved"), _episode("1", 0, 1764, "timeout"),
        _episode("2", 0, 1, "solved"), _episode("2", 0, 1764, "solved"),
        _episode("3", 0, 1, "strikeout"), _episode("3", 0, 1764, "solved"),
        _episode("4", 0, 1, "solved"),  # no partner under 1764: not a pair
        _episode("5", 1, 1764, "solved"),  # no partner under seed 1
    ]  # fmt: skip
    assert episodes[1].pairing == "model-a × model-b · rule seed 1764"
    assert episodes[0].pairing == "model-a × model-b"
    table = rule_seeds(episodes)
    (row,) = table.rows
    players, mode, seed, pairs, base, other, drop = row
    assert (players, mode, seed, pairs) == ("model-a × model-b", "sync", 1764, 3)
    assert (base.k, base.n, other.k, other.n) == (2, 3, 2, 3)
    assert drop.value == 0.0 and drop.n == 3  # +1, 0, -1


def test_one_rule_seed_gives_no_contrast() -> None:
    assert rule_seeds([_episode("1", 0, 1, "solved")]).rows == ()
