"""The random-Defuser baseline, in-process: the policy and the records of
``gptnt suite run --defuser random``, without Redis or services, on every core.

An episode here is an ``Episode``, played by the same sync loop, turn by turn with
``play_turn``, to the same records and ledger line as a served one; only its table is in this
process (``InProcessEpisode``): the simulator ``Game`` is called directly, and each seat's
turn reaches the game and its partner through an in-process ``Transport``. The simulator
captures no frames: the random Defuser reads no pixels, so its turns record the mask only
(``TurnEvent.frames`` stays empty) and its set of marks has letters and click points but no
colours.

Speed without changing the policy: one ``Game`` per rule seed is reused for a worker's
episodes, so its picture caches stay warm; the PNG of a mask is encoded once per distinct
mask (``_MaskPngs``); ``play_turn`` builds a set of marks once per distinct picture; records
are not synced (an episode is replayed in milliseconds).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import sys
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from gptnt.config import GameConfig
from gptnt.errors import ConfigError, EpisodeError, SimulatorError
from gptnt.missions import Mission, get_mission, load_missions
from gptnt.players.turn import Player, Sight, Transport, play_turn
from gptnt.protocol import (
    BombState,
    GameAction,
    Lifecycle,
    MissionConfig,
    Role,
    encode_png,
    kind_spec,
)
from gptnt.records import EpisodeOutcome, Summary
from gptnt.rules.ruleset import ruleset
from gptnt.services.game import api as game_api
from gptnt.services.manager._episode import Episode, settle
from gptnt.services.manager.api import EpisodeSettings, EpisodeSpec
from gptnt.services.player import PARTNER, seat_player
from gptnt.services.player import api as player_api
from gptnt.sim.game import Game

__all__ = [
    "BASELINE_SIZE",
    "BaselinePlayer",
    "InProcessEpisode",
    "baseline_spec",
    "play_baseline",
]

BASELINE_SIZE = (320, 240)
"""Frame size of the baseline's simulator. Every element of every module kind stays a region
of its own at this size (a test checks it), so the Defuser's choices are those at 640×480."""


_LIFECYCLES = {lifecycle.value: lifecycle for lifecycle in Lifecycle}  # the enum's call is slower


def baseline_spec(mission_id: str, repeat: int, rule_seed: int = 1) -> EpisodeSpec:
    """The episode of the baseline: as ``gptnt suite run --defuser random --expert idle`` makes
    it for repeat ``repeat`` (same key, same policy seed)."""
    return EpisodeSpec.make(
        mission_id, "sync", "random", "idle", repeat=repeat, seed=repeat, rule_seed=rule_seed
    )


class InProcessEpisode(Episode):
    """An ``Episode`` whose game and players are in this process: the loop, the turns, the
    records and the summary are ``Episode``'s; the table's calls (``Episode``'s served-table
    section) are answered here. Sync mode only: the game runs only when the loop steps it.

    ``masks``: the PNGs of the masks seen (shared by a worker's episodes)."""

    def __init__(
        self,
        spec: EpisodeSpec,
        settings: EpisodeSettings,
        *,
        game: Game,
        run_dir: Path,
        mission: Mission | None = None,
        masks: _MaskPngs | None = None,
    ) -> None:
        if spec.mode != "sync":
            raise ConfigError(f"mode {spec.mode!r}: an in-process episode plays sync only")
        super().__init__(spec, settings, admin_url="", run_dir=run_dir, mission=mission)
        self.durable = False
        self._sim = game
        self._masks = _MaskPngs() if masks is None else masks
        self._seats: dict[Role, tuple[Player, Transport]] = {}
        self._inboxes: dict[Role, list[str]] = {"defuser": [], "expert": []}
        self._still: BombState | None = None
        """The state last read; the game is paused, so it holds until the next action or
        step (the game service keeps its reading the same way)."""
        # The game's own draws are seeded with the session id (``Episode``): the episode's
        # key, so a rerun of the baseline draws alike.
        self._session = self.dir.name

    async def _connect(self) -> None:
        pass  # no bus

    async def _disconnect(self) -> None:
        pass

    async def _open(self) -> None:
        for choice in self._lineup:
            player = seat_player(self._player_config(choice))
            self._seats[choice.role] = (player, self._transport(choice.role))

    async def _watch(self) -> None:
        await asyncio.Event().wait()  # nothing can die in the background: no service runs

    async def _wind_down(
        self, outcome: EpisodeOutcome, final: BombState | None
    ) -> BombState | None:
        if final is None and outcome in ("crashed", "interrupted"):
            try:
                return self._sim.state()
            except SimulatorError:  # no mission, or not lit yet: the summary has no modules
                return None
        return final

    # ------------------------------------------------------------------ the game

    async def _start(self, config: MissionConfig) -> game_api.Status:
        """As the game service starts a fast-forwarding backend: to the setup room, the
        mission started, the lights off, paused, the lights on."""
        game = self._sim
        if game.health() != Lifecycle.SETUP.value:
            game.reset()
            game.fast_forward(Lifecycle.SETUP)
        game.start_mission(config)
        game.fast_forward(Lifecycle.LIGHTS_OFF)
        game.set_time_scale(0)
        game.fast_forward(Lifecycle.LIGHTS_ON)
        return self._status(changed=True)

    async def _game(
        self, method: str, params: BaseModel | None = None, *, timeout_s: float | None = None
    ) -> game_api.Status:
        if method == game_api.TIMESTEP:
            self._sim.timestep()
        elif method != game_api.STATUS:
            raise EpisodeError(f"game call {method!r}: an in-process game answers sync calls only")
        return self._status(changed=method == game_api.TIMESTEP)

    async def _final_state(self) -> BombState:
        return self._state()

    def _state(self, *, changed: bool = False) -> BombState:
        """The game's state, read again if a call may have changed it (``changed``)."""
        if changed or self._still is None:
            self._still = self._sim.state()
        return self._still

    def _status(self, *, changed: bool = False) -> game_api.Status:
        state = self._state(changed=changed)
        return game_api.Status.of(_LIFECYCLES[self._sim.health()], state, started=True)

    # ------------------------------------------------------------------ the players

    async def _call_turn(
        self, role: Role, request: player_api.TurnRequest, timeout_s: float
    ) -> player_api.TurnReply:
        player, transport = self._seats[role]
        event = await play_turn(player, request.turn, transport, at=request.at)
        status = self._status(changed=True) if role == "defuser" else None
        return player_api.TurnReply(event=event, status=status)

    def _transport(self, role: Role) -> Transport:
        """``role``'s way to its partner's inbox and (the Defuser only) to the game."""
        inboxes = self._inboxes

        async def drain(until: float | None) -> list[str]:
            messages, inboxes[role] = inboxes[role], []
            return messages

        async def say(text: str, at: float | None) -> None:
            inboxes[PARTNER[role]].append(text)

        if role != "defuser":
            return Transport(drain, say)
        return Transport(drain, say, self._observe, self._act)

    async def _observe(self, sequence_frames: int) -> Sight:
        """The newest frames (a whole blink cycle's on a blinking module, as the game service
        sends them) and mask, as PNGs, and the state."""
        state = self._state()
        focused = state.focused
        wanted = 1
        if sequence_frames > 1 and focused is not None and kind_spec(focused.name).blinks:
            wanted = sequence_frames
        shown = self._sim.buffer(last=wanted)
        return Sight(
            frames=[encode_png(frame) for frame in shown.frames],
            mask=None if shown.mask is None else self._masks.png(shown.mask),
            state=state,
            seconds_remaining=state.timer_module.seconds_remaining,
            strikes=len(state.strikes),
        )

    async def _act(self, action: GameAction, at: float | None) -> str:
        self._still = None
        try:
            return self._sim.action(action.action.value, action.x_pos, action.y_pos)
        except SimulatorError as err:  # the game refused: a fact of the turn, not a crash
            return f"refused: {err}"


class _MaskPngs:
    """The PNG of each mask seen, encoded once per distinct mask, for the ``kept`` masks seen
    last. A mask is looked up by a sparse grid of its pixels and confirmed byte for byte:
    hashing all of its 230 KB (at 320×240) was the costliest step of a turn outside the
    simulator. The views of a bomb repeat: 1,100 baseline episodes showed 207 distinct masks,
    about 2 an episode, and 64 kept masks missed 210 times where 256 missed 207."""

    STRIDE = 8  # every 8th pixel of every 8th row: 3.6 KB of a 320×240 mask

    def __init__(self, kept: int = 64) -> None:
        self.kept = kept
        self._seen: OrderedDict[bytes, tuple[bytes, bytes]] = OrderedDict()

    def png(self, mask: np.ndarray) -> bytes:
        key = mask[:: self.STRIDE, :: self.STRIDE].tobytes()
        pixels = mask.tobytes()
        hit = self._seen.get(key)
        if hit is not None and hit[0] == pixels:
            self._seen.move_to_end(key)
            return hit[1]
        png = encode_png(mask)
        self._seen[key] = (pixels, png)  # replaces a different mask of the same grid, if any
        self._seen.move_to_end(key)
        if len(self._seen) > self.kept:
            self._seen.popitem(last=False)
        return png


@dataclass
class BaselinePlayer:
    """Plays baseline episodes one after another on one reused simulator per rule seed."""

    width: int = BASELINE_SIZE[0]
    height: int = BASELINE_SIZE[1]
    _games: dict[int, Game] = field(default_factory=dict, init=False)
    _masks: _MaskPngs = field(default_factory=_MaskPngs, init=False)
    _missions: dict[str, Mission] = field(default_factory=load_missions, init=False)

    def add_missions(self, missions: Sequence[Mission]) -> None:
        """Missions that are in no mission file (``gptnt baseline random --fresh-bombs``)."""
        self._missions.update({m.id: m for m in missions})

    @property
    def settings(self) -> EpisodeSettings:
        return EpisodeSettings(game=GameConfig(width=self.width, height=self.height))

    def _game(self, rule_seed: int) -> Game:
        """The reused simulator of a rule seed."""
        if rule_seed not in self._games:
            # A frozen wall clock: game time moves only through /timestep (virtual, instant).
            self._games[rule_seed] = Game(
                width=self.width, height=self.height, transition_seconds=0.0,
                clock=lambda: 0.0, capture_frames=False, ruleset=ruleset(rule_seed),
            )  # fmt: skip
        return self._games[rule_seed]

    def episode(self, spec: EpisodeSpec, run_dir: Path) -> InProcessEpisode:
        mission = self._missions.get(spec.mission_id) or get_mission(spec.mission_id)
        return InProcessEpisode(
            spec, self.settings, game=self._game(spec.rule_seed), run_dir=run_dir,
            mission=mission, masks=self._masks,
        )  # fmt: skip

    def play(self, spec: EpisodeSpec, run_dir: Path) -> Summary:
        """One episode, recorded under ``run_dir`` with its ledger line."""
        return self.play_all([spec], run_dir)[0]

    def play_all(self, specs: Sequence[EpisodeSpec], run_dir: Path) -> list[Summary]:
        """Episodes one after another (in one event loop), each with its ledger line."""

        async def play() -> list[Summary]:
            return [await settle(self.episode(spec, run_dir), run_dir) for spec in specs]

        return asyncio.run(play())


# ---------------------------------------------------------------------------- many, in parallel

_PLAYER: BaselinePlayer | None = None  # one per worker process


def _init_worker(width: int, height: int, missions: Sequence[Mission] = ()) -> None:
    global _PLAYER
    _PLAYER = BaselinePlayer(width=width, height=height)
    _PLAYER.add_missions(missions)


def _play_batch(batch: tuple[Path, list[EpisodeSpec]]) -> list[Summary]:
    run_dir, specs = batch
    assert _PLAYER is not None
    return _PLAYER.play_all(specs, run_dir)


def play_baseline(
    specs: Sequence[EpisodeSpec],
    run_dir: Path,
    *,
    workers: int,
    size: tuple[int, int] = BASELINE_SIZE,
    on_done: Callable[[Summary], None] | None = None,
    batch_size: int = 20,
    missions: Sequence[Mission] = (),
) -> list[Summary]:
    """Play ``specs`` on ``workers`` processes (1: in this process), writing every episode's
    records and its line of the ledger of ``run_dir`` (one ``O_APPEND`` write each, so the
    workers share it); ``on_done`` hears of each finished batch's episodes. ``missions``:
    those the specs name that are in no mission file.

    Episodes of one mission go to a worker in batches, so its caches serve the whole batch.
    """
    batches = [(run_dir, list(specs[i : i + batch_size])) for i in range(0, len(specs), batch_size)]
    summaries: list[Summary] = []

    def take(results: list[Summary]) -> None:
        for summary in results:
            summaries.append(summary)
            if on_done is not None:
                on_done(summary)

    if workers <= 1:
        _init_worker(*size, missions)
        for batch in batches:
            take(_play_batch(batch))
        return summaries
    context = multiprocessing.get_context("spawn" if sys.platform == "darwin" else "fork")
    with context.Pool(workers, initializer=_init_worker, initargs=(*size, missions)) as pool:
        for results in pool.imap_unordered(_play_batch, batches):
            take(results)
    return summaries
