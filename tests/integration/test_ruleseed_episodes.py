"""Rule seeds end to end: an oracle pair defuses a bomb of rule seed 1764 over a real Redis,
the seed reaches the records, and a game playing other rules refuses the mission."""

from __future__ import annotations

from pathlib import Path

import pytest

from gptnt.config import GameConfig
from gptnt.errors import SimulatorError
from gptnt.missions import get_mission
from gptnt.rules.ruleseed import ENV
from gptnt.rules.ruleset import V1
from gptnt.services.manager import EpisodeSettings, EpisodeSpec, play_episode
from gptnt.sim.game import Game

POOLS = (
    Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "ruleseed" / "pools.json"
)
FAST = EpisodeSettings(
    launch="task", idle_sleep_s=0.05, turn_timeout_s=30, game=GameConfig(startup_timeout_s=30)
)


@pytest.mark.fixtures
async def test_oracle_pair_defuses_a_rule_seed_1764_bomb(
    redis_admin_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not POOLS.is_file():
        pytest.skip(f"{POOLS} absent (needs ../shared/fixtures)")
    monkeypatch.setenv(ENV, str(POOLS))
    spec = EpisodeSpec.make("2", "sync", rule_seed=1764)  # Wires, The Button, Keypad, Memory
    assert spec.key == "2.sync.oracle-oracle.rs1764.r0"
    summary = await play_episode(spec, FAST, admin_url=redis_admin_url, run_dir=tmp_path)
    assert summary.outcome == "solved", summary.reason
    assert summary.rule_seed == 1764 and summary.strikes == 0


def test_a_game_of_other_rules_refuses_the_mission() -> None:
    config = get_mission("2").config.model_copy(update={"rule_seed": 1764})
    game = Game(width=64, height=48, ruleset=V1, transition_seconds=0.0, clock=lambda: 0.0)
    with pytest.raises(SimulatorError, match="ruleSeed=1764: this game plays rule seed 1"):
        game.start_mission(config)
    game.start_mission(config.model_copy(update={"rule_seed": 1}))  # its own seed: accepted


def test_missing_pools_refuse_a_morse_mission_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gptnt.rules.ruleset import ruleset

    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    game = Game(width=64, height=48, ruleset=ruleset(42), transition_seconds=0.0, clock=lambda: 0.0)
    with pytest.raises(SimulatorError) as err:
        game.start_mission(get_mission("Morse-234").config)
    line = str(err.value)
    assert "\n" not in line and "Morse needs the rule-seed word pools" in line
    assert "gptnt ruleseed pools import FILE" in line and "GPTNT_RULESEED_POOLS" in line
