"""One random Defuser: ``gptnt baseline random`` (in-process) and a served episode with
``--defuser random`` play the same policy, from the same seed, to the same records."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from gptnt.config import GameConfig
from gptnt.records import Ledger, read_events, read_summary
from gptnt.services.manager import (
    BASELINE_SIZE,
    BaselinePlayer,
    EpisodeSettings,
    baseline_spec,
    play_episode,
)

SERVED = EpisodeSettings(
    launch="task", turn_timeout_s=30,
    game=GameConfig(width=BASELINE_SIZE[0], height=BASELINE_SIZE[1], startup_timeout_s=30),
)  # fmt: skip


def _actions(episode: Path) -> list[tuple[str | None, str | None]]:
    return [
        (e.action.name, e.action.label)
        for e in read_events(episode)
        if e.kind == "turn" and e.role == "defuser"
    ]


@pytest.mark.parametrize(("mission", "repeat"), [("Wires-234", 0)])
async def test_served_and_in_process_random_defusers_play_alike(
    mission: str, repeat: int, redis_admin_url: str, tmp_path: Path
) -> None:
    spec = baseline_spec(mission, repeat)
    served = await play_episode(spec, SERVED, admin_url=redis_admin_url, run_dir=tmp_path / "s")
    local = await BaselinePlayer().episode(spec, tmp_path / "b").run()
    Ledger(tmp_path / "b").settle(spec.key, local)
    (entry,) = Ledger(tmp_path / "b").entries()
    assert served.outcome != "crashed", served.reason
    assert (local.outcome, local.strikes, local.turns) == (
        served.outcome, served.strikes, served.turns,
    )  # fmt: skip
    (served_entry,) = Ledger(tmp_path / "s").entries()
    assert _actions(tmp_path / "b" / entry.episode_dir) == _actions(
        tmp_path / "s" / served_entry.episode_dir
    )
    assert read_summary(tmp_path / "b" / entry.episode_dir) == local


def test_each_mission_and_repeat_has_its_own_random_sequence(tmp_path: Path) -> None:
    player = BaselinePlayer()
    runs = {
        (m, r): _actions(
            tmp_path / "episodes" / player.play(baseline_spec(m, r), tmp_path).episode_id
        )
        for m in ("Wires-234", "Wires-286")
        for r in (0, 1)
    }
    firsts = {key: actions[:8] for key, actions in runs.items()}
    assert len({tuple(a) for a in firsts.values()}) == 4


_WALL_CLOCK = re.compile(
    rb'"(at|started_at|dispatched_at|ended_at|latency_s|game_s|wall_s)": ?[-+0-9.eE]+'
)


def _files(run_dir: Path) -> dict[str, bytes]:
    """Every file of a run, its wall-clock readings (the only fields that vary) zeroed."""
    return {
        str(path.relative_to(run_dir)): _WALL_CLOCK.sub(rb'"\1":0', path.read_bytes())
        for path in sorted(run_dir.rglob("*"))
        if path.is_file()
    }


def test_the_same_seed_writes_the_same_records_byte_for_byte(tmp_path: Path) -> None:
    """An episode's records do not depend on what the worker played before it: a player whose
    caches (mask PNGs, sets of marks, the reused simulator) are warm from other episodes of the
    same bomb writes the same bytes as a fresh one."""
    specs = [baseline_spec("Keypad-234", r) for r in (0, 1)]
    warm = BaselinePlayer()
    warm.play_all([baseline_spec("Keypad-234", 7), *specs], tmp_path / "warm")
    BaselinePlayer().play_all(specs, tmp_path / "fresh")
    warm_files = _files(tmp_path / "warm")
    fresh = _files(tmp_path / "fresh")
    assert any("/frames/" in name for name in fresh)  # the masks seen are stored
    assert fresh.keys() <= warm_files.keys()
    for name, data in fresh.items():
        if name != "ledger.jsonl":  # the warm run's has a line more
            assert warm_files[name] == data, name
    assert fresh["ledger.jsonl"] in warm_files["ledger.jsonl"]


def test_every_element_is_its_own_region_at_the_baseline_size() -> None:
    """So the baseline's choices (click/hold per label) are those at the served 640×480."""
    from gptnt.missions import load_missions
    from gptnt.protocol import Lifecycle
    from gptnt.sim.game import Game
    from gptnt.vision import find_regions

    width, height = BASELINE_SIZE
    one_per_kind = {
        m.config.components[0]: m for m in load_missions().values() if m.kind == "single"
    }
    for mission in one_per_kind.values():
        game = Game(width=width, height=height, transition_seconds=0.0, clock=lambda: 0.0,
                    capture_frames=False)  # fmt: skip
        game.health()
        game.start_mission(mission.config)
        while game.health() != Lifecycle.LIGHTS_ON.value:
            game.timestep()
        (face,) = find_regions(game.buffer(last=0).mask)
        game.action("click", (face.click[0] + 0.5) / width, (face.click[1] + 0.5) / height)
        game.timestep()
        engine = game._mission.bomb.modules[0]  # type: ignore[union-attr]
        regions = find_regions(game.buffer(last=0).mask)
        assert len(regions) == len(engine.elements()), mission.id


async def test_the_missions_time_step_reaches_the_sync_loop(
    redis_admin_url: str, tmp_path: Path
) -> None:
    """A mission with ``timeStepSize: 1000`` advances the clock 1 s per Defuser turn (3 s by
    default); the players' prompts are built with the same step."""
    from gptnt.missions import get_mission
    from gptnt.records import GameStep
    from gptnt.services.manager import Episode, EpisodeSpec

    base = get_mission("Wires-234")
    mission = base.model_copy(
        update={"config": base.config.model_copy(update={"time_step_size": 1000})}
    )
    spec = EpisodeSpec.make(mission.id, "sync")  # the oracle pair: a few quick turns
    episode = Episode(spec, SERVED, admin_url=redis_admin_url, run_dir=tmp_path, mission=mission)
    assert episode._step_seconds == 1.0
    summary = await episode.run()
    assert (summary.outcome, summary.strikes) == ("solved", 0), summary.reason
    clock = [
        e.seconds_remaining
        for e in read_events(episode.dir)
        if isinstance(e, GameStep) and e.seconds_remaining is not None
    ]
    steps = [a - b for a, b in itertools.pairwise(clock)]
    assert len(steps) >= 2 and steps == pytest.approx([1.0] * len(steps))


def test_a_model_players_prompt_states_the_missions_step(monkeypatch: pytest.MonkeyPatch) -> None:
    from gptnt.players.backends import OFFLINE_ENV
    from gptnt.players.seats import build_policy, resolve_seat

    # The policy is built, never called: a fake key, and the suite's loopback-only guard lifted
    # (it refuses the shipped config's real host as soon as a backend is built).
    monkeypatch.setenv("OPENAI_API_KEY", "not-used")
    monkeypatch.delenv(OFFLINE_ENV)
    choice = resolve_seat("defuser", "gpt-5-2")
    policy = build_policy(choice, mode="sync", seed=0, step_seconds=1.0)
    system = str(policy.conversation.system)  # type: ignore[attr-defined]
    assert "forward by 1 seconds of game time" in system
    assert "forward by 3 seconds" not in system
