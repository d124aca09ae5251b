"""The in-process game: lifecycle, time, camera, actions, frames and the mod's refusal texts."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gptnt.errors import SimulatorError
from gptnt.protocol import MODULE_KINDS, BombState, Lifecycle, MissionConfig
from gptnt.sim.game import RING_SIZE, Game

_KINDS = frozenset(MODULE_KINDS)


class ManualClock:
    """Wall time that only moves when the test says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _config(**kw: object) -> MissionConfig:
    fields: dict[str, object] = {
        "seed": 110,
        "time_limit": 300,
        "components": ["Keypad", "Wires", "Maze"],
    }
    fields.update(kw)
    return MissionConfig(**fields)  # type: ignore[arg-type]


def _game(clock: ManualClock | None = None, **kw: object) -> Game:
    kw.setdefault("transition_seconds", 0.0)
    return Game(clock=clock or ManualClock(), **kw)  # type: ignore[arg-type]


def _playing(config: MissionConfig | None = None, **kw: object) -> Game:
    """A game at LightsOn, paused (one /timestep after the start)."""
    game = _game(**kw)
    assert game.health() == "Setup"
    game.start_mission(config or _config())
    game.timestep()
    assert game.health() == "LightsOn"
    return game


def _centre_of(game: Game, target: object) -> tuple[float, float]:
    """Relative coordinates of the middle of a target's region in the current view."""
    mission = game._mission
    assert mission is not None
    picture = game._picture(mission)
    k = picture.targets.index(target) + 1
    ys, xs = np.nonzero(picture.ids == k)
    # the region's pixel nearest its median point (a thin wavy wire's median can miss it)
    i = int(np.argmin((xs - np.median(xs)) ** 2 + (ys - np.median(ys)) ** 2))
    width, height = game.size
    return (float(xs[i]) + 0.5) / width, (float(ys[i]) + 0.5) / height


# ---------------------------------------------------------------- lifecycle


def test_lifecycle_follows_the_mod() -> None:
    clock = ManualClock()
    game = Game(clock=clock, transition_seconds=0.2)
    assert game.health() == "Gameplay"
    clock.now += 0.2
    assert game.health() == "Setup"
    assert game.start_mission(_config()) == "110"
    assert game.health() == "Transitioning"
    clock.now += 0.2
    assert game.health() == "Gameplay"
    clock.now += 0.2
    assert game.health() == "LightsOff"
    with pytest.raises(SimulatorError, match="Cannot get bomb state in LightsOff state") as err:
        game.state()
    assert err.value.status == 400
    game.set_time_scale(1)
    clock.now += 0.5 + 1.0  # lights on after 0.5 s; LightsOn 1.5 s later
    assert game.health() == "LightsOff"
    clock.now += 0.6
    assert game.health() == "LightsOn"
    state = game.state()
    assert state.is_light_on and state.bomb_side == "front"
    # 1.6 s of lit time, but the timer only started at LightsOn (1.5 s after lights on)
    assert state.timer_module.seconds_remaining == pytest.approx(300 - 0.1)


def test_start_mission_only_from_setup() -> None:
    game = _playing()
    with pytest.raises(SimulatorError, match="^Cannot start a game from LightsOn state$"):
        game.start_mission(_config())
    assert game.reset() == "Nuh uh"
    assert game.health() == "Setup"
    with pytest.raises(SimulatorError, match="Cannot get bomb state in Setup state"):
        game.state()
    assert game.buffer().frames == []
    assert game.start_mission(_config(seed=7)) == "7"


def test_bad_components_get_the_mod_text() -> None:
    game = _game()
    game.health()
    with pytest.raises(SimulatorError, match="^Please enter a valid list of components"):
        game.start_mission(_config(components=["Wires"] * 6, is_front=True))
    assert game.health() == "Setup"


def test_setters_answer_like_the_mod() -> None:
    game = _game()
    assert game.set_time_scale(1.0) == "Set timeScale to 1"
    assert game.set_time_scale(0.5) == "Set timeScale to 0.5"
    assert game.set_step_unit(1500) == "Set timeStepSize to 1500"
    with pytest.raises(SimulatorError, match="Could not parse request"):
        game.set_time_scale(-1)
    assert game.debug() == "Current face is Front"
    ids = [m["id"] for m in game.modules()]
    assert sorted(ids) == sorted(MODULE_KINDS)


# ---------------------------------------------------------------- fast-forward (our extension)


def _lit_in_real_time(clock: ManualClock, overshoot: float = 0.0) -> Game:
    """The mod's startup in wall time: scene changes waited out, paused in the dark, time scale
    1 until ``LightsOn`` (0.5 s of dark + 1.5 s), seen ``overshoot`` s late by the poll, paused."""
    game = Game(clock=clock, transition_seconds=0.2, width=320, height=240)
    clock.now += 0.2
    assert game.health() == "Setup"
    game.start_mission(_config())
    clock.now += 0.4
    assert game.health() == "LightsOff"
    game.set_time_scale(0)
    game.set_time_scale(1)
    clock.now += 2.0 + overshoot
    assert game.health() == "LightsOn"
    game.set_time_scale(0)
    return game


def _lit_by_fast_forward(clock: ManualClock) -> Game:
    """The same startup through ``fast_forward``: the wall clock never moves."""
    game = Game(clock=clock, transition_seconds=0.2, width=320, height=240)
    assert game.health() == "Gameplay"
    assert game.fast_forward(Lifecycle.SETUP) == "Fast-forwarded to Setup"
    game.start_mission(_config())
    assert game.health() == "Transitioning"
    assert game.fast_forward(Lifecycle.LIGHTS_OFF) == "Fast-forwarded to LightsOff"
    game.set_time_scale(0)
    assert game.fast_forward(Lifecycle.LIGHTS_ON) == "Fast-forwarded to LightsOn"
    assert game.health() == "LightsOn"
    return game


def test_fast_forward_leaves_the_game_where_the_real_time_startup_does() -> None:
    exact, late = _lit_in_real_time(ManualClock()), _lit_in_real_time(ManualClock(), 0.3)
    clock = ManualClock()
    fast = _lit_by_fast_forward(clock)
    assert clock.now == 100.0  # no wall time was waited for
    assert fast.state() == exact.state()  # the full time limit, nothing of the bomb moved
    assert fast.state().timer_module.seconds_remaining == 300
    ours, theirs = fast.buffer(), exact.buffer()
    assert len(ours.frames) == len(theirs.frames) == 1  # the frame captured at LightsOn
    assert np.array_equal(ours.frames[0], theirs.frames[0])
    assert ours.mask is not None and np.array_equal(ours.mask, theirs.mask)
    # A poll that sees LightsOn late has lost that much bomb time, and framed it once more.
    assert late.state().timer_module.seconds_remaining == pytest.approx(300 - 0.3)
    assert np.array_equal(late.buffer().frames[0], ours.frames[0])
    assert len(late.buffer().frames) == 2
    # Paused: game time stands still as the wall clock runs, as after the real startup.
    clock.now += 5
    assert fast.state() == exact.state()
    fast.timestep()
    exact.timestep()
    assert fast.state() == exact.state()
    assert np.array_equal(fast.buffer().frames[-1], exact.buffer().frames[-1])


def test_fast_forward_goes_only_where_a_wait_would() -> None:
    clock = ManualClock()
    game = Game(clock=clock, transition_seconds=0.2)
    with pytest.raises(SimulatorError, match="^Cannot fast-forward to LightsOn from Gameplay"):
        game.fast_forward(Lifecycle.LIGHTS_ON)
    with pytest.raises(SimulatorError, match="^Cannot fast-forward to LightsOff from Gameplay"):
        game.fast_forward(Lifecycle.LIGHTS_OFF)
    with pytest.raises(SimulatorError, match="^Error: until=PostGame") as err:
        game.fast_forward(Lifecycle.POST_GAME)
    assert err.value.status == 400
    game.fast_forward(Lifecycle.SETUP)
    assert game.fast_forward(Lifecycle.SETUP) == "Fast-forwarded to Setup"  # already there
    game.start_mission(_config())
    game.fast_forward(Lifecycle.LIGHTS_OFF)
    game.fast_forward(Lifecycle.LIGHTS_ON)
    game.timestep()
    with pytest.raises(SimulatorError, match="^Cannot fast-forward to Setup from LightsOn"):
        game.fast_forward(Lifecycle.SETUP)  # a mission runs: reset first
    game.reset()
    assert game.fast_forward(Lifecycle.SETUP) == "Fast-forwarded to Setup"
    assert game.buffer().frames == []  # the mission is gone, as on entering Setup


# ---------------------------------------------------------------- time and frames


def test_timestep_is_virtual_and_pauses() -> None:
    clock = ManualClock()
    game = _playing(clock=clock)
    before = game.state().timer_module.seconds_remaining
    assert game.timestep() == "Paused after 3000 in-game milliseconds (and modules emerged)"
    assert game.state().timer_module.seconds_remaining == pytest.approx(before - 3.0)
    clock.now += 1000  # paused: wall time does not move the bomb
    assert game.state().timer_module.seconds_remaining == pytest.approx(before - 3.0)
    game.set_step_unit(500)
    game.timestep()
    assert game.state().timer_module.seconds_remaining == pytest.approx(before - 3.5)


def test_time_scale_follows_the_wall_clock() -> None:
    clock = ManualClock()
    game = _playing(clock=clock)
    before = game.state().timer_module.seconds_remaining
    game.set_time_scale(2.0)
    clock.now += 1.5
    assert game.state().timer_module.seconds_remaining == pytest.approx(before - 3.0)


def test_frame_ring_holds_sixteen_frames_of_game_time() -> None:
    game = _playing()
    frames = game.buffer()
    # Capture starts at LightsOn (t = 1.5 s bomb time); the first step ends at t = 2.5 s.
    assert len(frames.frames) == 5
    game.timestep()
    buffer = game.buffer()
    assert len(buffer.frames) == RING_SIZE
    assert all(f.shape == (480, 640, 3) and f.dtype == np.uint8 for f in buffer.frames)
    assert buffer.mask is not None and buffer.mask.shape == (480, 640, 3)
    assert len(game.buffer(last=2).frames) == 2
    assert np.array_equal(game.buffer(last=1).frames[0], buffer.frames[-1])


def test_frames_are_deterministic() -> None:
    one, two = _playing(), _playing()
    one.timestep(), two.timestep()
    assert all(
        np.array_equal(a, b) for a, b in zip(one.buffer().frames, two.buffer().frames, strict=True)
    )
    assert one.state() == two.state()


def test_other_frame_sizes() -> None:
    game = _playing(width=320, height=240)
    assert game.buffer().frames[-1].shape == (240, 320, 3)
    assert game.buffer().mask.shape == (240, 320, 3)  # type: ignore[union-attr]


def test_timeout_explodes_and_leads_to_post_game() -> None:
    clock = ManualClock()
    game = _game(clock, transition_seconds=0.01)
    clock.now += 0.01
    game.start_mission(_config(time_limit=5, needy_time=5))
    game.timestep()  # to 2.5 s, LightsOn (the timer started at 1.5 s)
    game.timestep()  # 2.5 s → 5.5 s: 1 s left
    assert game.state().timer_module.seconds_remaining == pytest.approx(1.0)
    game.timestep()  # 5.5 s → 8.5 s: the clock hits zero at 6.5 s
    state = game.state()
    assert state.is_detonated and state.timer_module.seconds_remaining == 0.0
    with pytest.raises(SimulatorError, match="Cannot send action to the game in LightsOn state"):
        game.action("left")
    clock.now += 0.01
    assert game.health() == "PostGame"
    assert game.state().is_detonated  # still readable in PostGame
    assert game.buffer().mask is None


def test_timeout_while_running_in_real_time() -> None:
    clock = ManualClock()
    game = _playing(_config(time_limit=5, needy_time=5), clock=clock)
    game.set_time_scale(1.0)
    clock.now += 10.0
    assert game.health() == "PostGame"
    assert game.state().is_detonated


# ---------------------------------------------------------------- camera and actions


def test_actions_are_refused_before_lights_on() -> None:
    game = _game()
    game.health()
    with pytest.raises(SimulatorError, match="^Cannot send action to the game in Setup state$"):
        game.action("left")


def test_click_on_a_module_zooms_in_when_time_runs() -> None:
    game = _playing()
    bomb = game._mission.bomb  # type: ignore[union-attr]
    keypad = bomb.modules[0]
    assert keypad.slot.on_front
    x, y = _centre_of(game, keypad)
    assert game.action("click", x, y).startswith("clicked on: Keypad")
    assert game.state().focused is None  # deferred until time runs
    assert game.action("out") == "No module zoomed into"
    game.timestep()
    focused = game.state().focused
    assert focused is not None and focused.name == "Keypad"
    mask = game.buffer().mask
    assert mask is not None and len({tuple(c) for c in mask.reshape(-1, 3)}) == 5  # 4 keys + black
    assert game.action("out") == "Zooming out from: Keypad"
    assert game.state().focused is not None
    game.timestep()
    assert game.state().focused is None


def test_clicks_outside_anything_and_bad_coordinates() -> None:
    game = _playing()
    assert game.action("click", 0.0, 0.0) == "No interactable hitNo last used selectable."
    assert game.action("hold", 0.01, 0.01) == "No interactable hit"
    assert game.action("release") == "No last used selectable."
    with pytest.raises(SimulatorError, match="^Could not parse x and y coordinates") as err:
        game.action("click", 1.5, 0.5)
    assert err.value.status == 400
    with pytest.raises(SimulatorError, match="^invalid direction. Valid directions") as err:
        game.action("spin")
    assert err.value.status == 400


def test_clicking_an_element_acts_at_once_even_paused() -> None:
    game = _playing()
    bomb = game._mission.bomb  # type: ignore[union-attr]
    wires = bomb.modules[1]
    if not wires.slot.on_front:
        game.action("flip")
    game.action("click", *_centre_of(game, wires))
    game.timestep()
    assert game.state().focused.name == "Wires"  # type: ignore[union-attr]
    element = wires.elements()[0]
    text = game.action("click", *_centre_of(game, element))
    assert text == f"clicked on: Wires/{element}Released: Wires/{element}"
    state = game.state()
    wire = next(w for w in state.modules[1].wires if w is not None)  # type: ignore[union-attr]
    assert wire.is_cut
    assert state.strikes in ([], ["Wires"])


def test_rotations_and_bomb_side() -> None:
    game = _playing()
    expected = [
        ("left", "flipped bomb left by 90 degrees", "left"),
        ("flip", "flipped bomb 180 degrees", "right"),
        ("right", "flipped bomb right by 90 degrees", "back"),
        ("up", "flipped bomb up by 90 degrees", "top"),
        ("up", "flipped bomb up by 90 degrees", "top"),  # clamped
        ("flip", "flipped bomb 180 degrees", "bottom"),
        ("down", "flipped bomb down by 90 degrees", "bottom"),
        ("up", "flipped bomb up by 90 degrees", "back"),
    ]
    for action, text, side in expected:
        assert game.action(action) == text
        assert game.state().bomb_side == side
    assert game.debug() == "Current face is Rear"
    game.action("up")
    assert game.buffer().mask is None  # nothing selectable when tilted


def test_rotating_while_zoomed_in_zooms_out_first() -> None:
    game = _playing()
    keypad = game._mission.bomb.modules[0]  # type: ignore[union-attr]
    game.action("click", *_centre_of(game, keypad))
    game.timestep()
    assert game.action("left") == "flipped bomb left by 90 degrees"
    state = game.state()
    assert state.focused is not None and state.bomb_side == "front"  # waits for time
    game.timestep()
    state = game.state()
    assert state.focused is None and state.bomb_side == "left"


def test_magic_solves_the_bomb() -> None:
    clock = ManualClock()
    game = _playing(
        _config(components=["Keypad", "Wires", "Maze", "Memory", "WhosOnFirst"]), clock=clock
    )
    texts = set()
    for _ in range(200):
        texts.add(game.action("magic"))
        game.timestep()
        state = game.state()
        if state.is_solved:
            break
    assert state.is_solved and state.strikes == []
    assert {"Solved one step", "Zoomed into Keypad"} <= texts
    clock.now += 0.01
    assert game.health() == "PostGame"


def test_lottery_is_seeded() -> None:
    one, two = _playing(), _playing()
    texts = [one.action("lottery") for _ in range(10)]
    assert texts == [two.action("lottery") for _ in range(10)]
    assert all(t.startswith("Did: ") for t in texts)


def test_lottery_differs_between_episodes_of_one_mission() -> None:
    """Each episode has its own session id; the bomb stays the same, the lottery's draws do not
    (the paper's random baseline repeats each mission 100 times through the lottery)."""
    games = [_playing(_config(session_id=f"episode-{i}")) for i in range(3)]
    states = [g.state() for g in games]
    assert all(s.modules == states[0].modules for s in states)
    draws = [tuple(g.action("lottery") for _ in range(12)) for g in games]
    assert len(set(draws)) == 3
    again = _playing(_config(session_id="episode-0"))
    assert tuple(again.action("lottery") for _ in range(12)) == draws[0]


def test_detonate_solve_and_random() -> None:
    game = _playing()
    assert game.random_solve(1).strip() in ("Keypad", "Wires", "Maze")
    assert sum(m.is_solved for m in game.state().modules) == 1
    assert game.solve() == "Solved bomb successfully"
    assert game.state().is_solved
    other = _playing()
    assert other.detonate() == "Detonated bomb successfully"
    assert other.state().is_detonated
    fresh = _game()
    fresh.health()
    with pytest.raises(SimulatorError, match="^Cannot detonate bomb in Setup state$"):
        fresh.detonate()
    with pytest.raises(SimulatorError, match="^Cannot solve bomb in Setup state$"):
        fresh.solve()


def test_state_validates_against_the_protocol() -> None:
    game = _playing(_config(components=list(MODULE_KINDS)))
    state = game.state()
    assert BombState.model_validate(state.to_wire()) == state
    assert len(state.modules) == 11


# ---------------------------------------------------------------- properties over seeds

_ACTION = st.one_of(
    st.tuples(st.sampled_from(["click", "hold"]), st.floats(0, 1), st.floats(0, 1)),
    st.tuples(
        st.sampled_from(
            ["release", "out", "left", "right", "up", "down", "flip", "magic", "lottery", "step"]
        ),
        st.none(),
        st.none(),
    ),
)


def _play(
    seed: int, kinds: list[str], actions: list[tuple[str, float | None, float | None]]
) -> Game:
    game = _playing(_config(seed=seed, components=kinds))
    for name, x, y in actions:
        if game.health() != "LightsOn" or game.state().is_detonated or game.state().is_solved:
            break
        if name == "step":
            game.timestep()
        else:
            game.action(name, x, y)
    return game


@given(
    seed=st.integers(0, 10**6),
    kinds=st.lists(st.sampled_from(sorted(_KINDS)), min_size=1, max_size=4),
    actions=st.lists(_ACTION, max_size=12),
)
@settings(max_examples=25, deadline=None)
def test_any_play_exports_valid_state_and_replays_identically(
    seed: int, kinds: list[str], actions: list[tuple[str, float | None, float | None]]
) -> None:
    one, two = _play(seed, kinds, actions), _play(seed, kinds, actions)
    state = one.state()
    assert BombState.model_validate(state.to_wire()) == state
    assert state == two.state()
    last_one, last_two = one.buffer(last=1), two.buffer(last=1)
    assert np.array_equal(last_one.frames[0], last_two.frames[0])
    if last_one.mask is not None:
        assert last_two.mask is not None and np.array_equal(last_one.mask, last_two.mask)


def test_zooming_into_simon_restarts_its_flashes() -> None:
    game = _playing(_config(components=["Simon"], is_front=True))
    simon = game._mission.bomb.modules[0]  # type: ignore[union-attr]
    game.timestep()
    game.action("click", *_centre_of(game, simon))
    game.timestep()  # zoom applied at the start of this step (t = 5.5 s)
    assert simon.play_from == pytest.approx(5.5 + 1.0)  # type: ignore[attr-defined]


@pytest.mark.parametrize("change", ["press", "solve", "detonate", "random", "flip"])
def test_a_frame_is_the_same_however_late_it_is_asked_for(change: str) -> None:
    """Frames are captured as scenes of the live bomb and rendered late: whatever changes the
    bomb (an input, /solve, /detonate, /random, a turn) renders the waiting ones first. A
    game whose buffer is read only after the change serves the very bytes of one read at
    every step."""

    def press(game: Game) -> object:
        keypad = game._mission.bomb.modules[0]  # type: ignore[union-attr]
        return game.action("click", *_centre_of(game, keypad.elements()[0]))

    changes: dict[str, Callable[[Game], object]] = {
        "press": press,
        "solve": lambda game: game.solve(),
        "detonate": lambda game: game.detonate(),
        "random": lambda game: game.random_solve(2),
        "flip": lambda game: game.action("flip"),
    }
    eager, late = _playing(), _playing()
    for game in (eager, late):
        keypad = game._mission.bomb.modules[0]  # type: ignore[union-attr]
        game.action("click", *_centre_of(game, keypad))
        game.timestep()  # zoomed in on the keypad
        game.buffer()
        game.timestep()  # a ring of captured scenes, none of them asked for (in ``late``)
        if game is eager:
            game.buffer()
        changes[change](game)
    first, second = eager.buffer(), late.buffer()
    assert len(first.frames) == len(second.frames) > 0
    for a, b in zip(first.frames, second.frames, strict=True):
        assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_the_state_kept_between_changes_is_what_the_modules_export_now(seed: int) -> None:
    """``/state`` keeps each module's entry until something changes the bomb, or until the
    entry's own time is up (a red LED goes out, a display emerges): over random play in short
    and long steps, every module in every state equals the engine's export made afresh, and
    entries are kept (the same object) where nothing changed."""
    import random

    game = _playing(_config(seed=seed, components=list(MODULE_KINDS)))
    mission = game._mission
    assert mission is not None
    rng = random.Random(seed)
    kept = 0
    previous = game.state().modules
    for _ in range(150):
        if rng.random() < 0.5:
            game.action("lottery")
        else:
            game.set_step_unit(rng.choice([100, 250, 700, 3000]))
            game.timestep()
        if game.health() != "LightsOn":
            break
        state = game.state()
        bomb, focused = mission.bomb, mission.camera.focused
        fresh = [m.export(bomb.now, in_focus=m is focused) for m in bomb.modules]
        assert state.modules == fresh
        kept += sum(now is before for now, before in zip(state.modules, previous))
        previous = state.modules
    assert kept > 0


def test_the_bombs_clock_ends_a_run_at_the_games_time() -> None:
    """A run whose end falls a rounding error short of a frame point captures that point
    (ten 0.1 s steps end at 0.9999…): the bomb is stepped there too, so the /state timer
    reads the time the frames show (e.g. 10.0 s left, not 10.000…014)."""
    clock = ManualClock()
    game = _game(clock)
    game.start_mission(_config(time_limit=60, components=["BigButton", "Maze"]))
    game.set_step_unit(100)
    game.timestep()
    game.fast_forward(Lifecycle.LIGHTS_ON)
    for i in range(120):
        if i % 2:
            game.timestep()
        else:
            game.set_time_scale(1.0)
            clock.now += 0.1
        mission = game._mission
        assert mission is not None
        state = game.state()
        assert mission.bomb.now == mission.t, i
        played = max(0.0, mission.t - 1.5)  # the clock starts at the first lights-on
        assert state.timer_module.seconds_remaining == pytest.approx(60 - played, abs=1e-9)
