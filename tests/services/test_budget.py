"""The episode's time budget (``gptnt.services.manager.Budget``): every deadline derived from
the players, the settings and the mission; a call never past its turn; a sync wall limit no
game that keeps its turns' deadlines can reach."""

from __future__ import annotations

import pytest

from gptnt.config import GameConfig
from gptnt.errors import ConfigError
from gptnt.missions import get_mission
from gptnt.players.config import PlayerConfig
from gptnt.players.seats import SeatChoice, resolve_seat
from gptnt.services.manager import Budget, EpisodeSettings, check_turns

SETTINGS = EpisodeSettings()


def _model(role: str, **extra: object) -> SeatChoice:
    config = PlayerConfig(model="openai:slow", base_url="http://127.0.0.1:9/v1", **extra)  # type: ignore[arg-type]
    return SeatChoice(role=role, ref="slow", kind="model", seat=role, config=config)  # type: ignore[arg-type]


def _budget(mode: str, *lineup: SeatChoice, mission: str = "Wires-234", **timing: object):
    settings = SETTINGS.model_copy(update=timing)
    return Budget.of(list(lineup), mode, get_mission(mission).config, settings,  # type: ignore[arg-type]
                     settings.game, settings.launch)  # fmt: skip


@pytest.mark.parametrize("turn", [45.0, 60.0, 180.0, 900.0])
def test_a_call_is_its_turn_less_the_turn_s_other_waits(turn: float) -> None:
    budget = _budget("sync", _model("defuser", turn_timeout_s=turn),
                     _model("expert", turn_timeout_s=turn))  # fmt: skip
    for t in budget.turns:
        assert t.call_s is not None and 0 < t.call_s < t.turn_s
        assert t.call_s + t.other_s == pytest.approx(t.turn_s)
    # The Defuser's turn also waits on two game calls; the Expert's on a message.
    assert budget.turn("defuser").call_s < budget.turn("expert").call_s  # type: ignore[operator]


def test_the_125_s_answer_fits_the_default_turn() -> None:
    """The old per-call timeout_s (120 s) cut it under the 180 s turn."""
    call = _budget("sync", _model("defuser"), _model("expert")).turn("defuser").call_s
    assert call is not None and call > 125


@pytest.mark.parametrize(("mission", "answer_s"), [("Wires-234", 7.5), ("3", 5.2)])
def test_the_sync_wall_limit_outlasts_every_legal_game(mission: str, answer_s: float) -> None:
    """The issue's cases: 7.5 s per turn on an 81 s mission (the old 3 × limit + 120 cut it
    after 41 of 53 turns), 5.2 s on a 300 s one, and turns at their full deadline."""
    limit = get_mission(mission).config.time_limit
    budget = _budget("sync", _model("defuser"), _model("expert"), mission=mission)
    rounds = budget.rounds
    assert rounds == limit // 3  # the clock moves 3 game seconds per /timestep
    assert budget.episode_s > rounds * 2 * answer_s > 3 * limit + 120
    worst = rounds * (2 * 180.0 + 2 * SETTINGS.game_call_s)  # every turn at its deadline
    assert budget.episode_s >= worst + budget.startup_s


def test_a_30_s_turn_on_a_9_s_mission_is_not_cut() -> None:
    """The old limit (147 s) was below one turn's deadline (180 s)."""
    budget = _budget("sync", _model("defuser"), _model("expert"), mission="Wires-234")
    assert budget.episode_s > budget.turn("defuser").turn_s + budget.turn("expert").turn_s


def test_async_waits_for_the_clock_and_its_detection() -> None:
    mission = get_mission("Wires-234").config
    game = GameConfig(poll_interval_s=0.5, backend_failures=4, call_deadline_s=2.0)
    settings = SETTINGS.model_copy(update={"game": game})
    budget = Budget.of([_model("defuser")], "async", mission, settings, game, "process")
    assert budget.game_over_s == pytest.approx(
        mission.time_limit / mission.time_scale + 4 * (0.5 + 2.0) + 5.0
    )
    assert budget.episode_s > budget.game_over_s + budget.startup_s


def test_warm_launch_adds_its_forks_to_the_start_up() -> None:
    mission = get_mission("Wires-234").config
    lineup = [_model("defuser"), _model("expert")]
    warm = Budget.of(lineup, "sync", mission, SETTINGS, SETTINGS.game, "warm")
    process = Budget.of(lineup, "sync", mission, SETTINGS, SETTINGS.game, "process")
    assert warm.startup_s > process.startup_s


def test_a_turn_that_leaves_its_call_no_time_is_refused_up_front() -> None:
    with pytest.raises(ConfigError, match=r"turn_timeout_s 20 s leaves the defuser's model call"):
        check_turns([_model("defuser", turn_timeout_s=20.0)], SETTINGS.model_copy(
            update={"game_call_s": 10.0}))  # fmt: skip
    check_turns([_model("defuser", turn_timeout_s=20.0)], SETTINGS.model_copy(
        update={"game_call_s": 4.0}))  # 20 − (2 × 5 + 2 × 4) leaves 2 s  # fmt: skip


def test_scripted_turns_have_no_call() -> None:
    budget = _budget("sync", resolve_seat("defuser", "oracle"), resolve_seat("expert", "oracle"))
    assert all(t.call_s is None and t.turn_s == 180.0 for t in budget.turns)
    rows = {what: value for what, value, _ in budget.rows()}
    assert "sync episode wall limit" in rows and "defuser model call" not in rows


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_the_reflection_step_adds_the_longest_reflecting_turn(mode: str) -> None:
    """The reflecting players reflect at once, each within its turn: the wall limit grows by
    the longest of those turns, and a turn of a player that does not reflect adds nothing."""
    plain = _budget(mode, _model("defuser", turn_timeout_s=60.0),
                    _model("expert", turn_timeout_s=90.0))  # fmt: skip
    one = _budget(mode, _model("defuser", turn_timeout_s=60.0),
                  _model("expert", reflection=True, turn_timeout_s=90.0))  # fmt: skip
    both = _budget(mode, _model("defuser", turn_timeout_s=120.0, reflection=True),
                   _model("expert", reflection=True, turn_timeout_s=90.0))  # fmt: skip
    assert plain.reflection_s == 0
    assert one.reflection_s == 90.0 and one.episode_s == pytest.approx(plain.episode_s + 90.0)
    assert both.reflection_s == 120.0
    assert any(row[0] == "reflection step" for row in both.rows())
    assert not any(row[0] == "reflection step" for row in plain.rows())


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("turn", [45.0, 180.0, 900.0])
def test_no_heartbeat_silence_counts_as_hung_before_its_longest_wait_could_end(
    mode: str, turn: float
) -> None:
    """The liveness bound of each service is derived, never a fixed few seconds (a 3 s TTL
    crashed a live Expert on a loaded machine): it outlasts every single wait the episode
    places on that service, so a starved service that still keeps its deadlines is never
    called dead; and it is in the rows ``gptnt config show`` prints."""
    budget = _budget(mode, _model("defuser", turn_timeout_s=turn),
                     _model("expert", turn_timeout_s=turn))  # fmt: skip
    for t in budget.turns:
        assert budget.silence_s(t.role) > max(t.turn_s, SETTINGS.stop_timeout_s)
    game = budget.silence_s("game")
    assert game > SETTINGS.game_call_s and game > SETTINGS.game.startup_timeout_s
    shown = {name: value for name, value, _ in budget.rows()}
    assert shown["expert heartbeat silence"] == budget.silence_s("expert")
    assert shown["game heartbeat silence"] == game
    longer = _budget(mode, _model("defuser", turn_timeout_s=2 * turn),
                     _model("expert", turn_timeout_s=2 * turn))  # fmt: skip
    assert longer.silence_s("defuser") > budget.silence_s("defuser")  # follows the turn
