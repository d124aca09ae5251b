"""The random-Defuser baseline, in-process: the policy and the records of
``gptnt suite run --defuser random``, without Redis or services, on every core.

An episode here is the sync loop of ``Episode`` with the simulator called directly: the
Defuser's turn (one ``RandomDefuser`` draw over the labels of the current segmentation mask),
the action, one ``/timestep`` of the mission's ``timeStepSize``, the Expert's turn (``idle``:
it has nothing to say). Records are those of a served episode (``events.jsonl``,
``summary.json``, one ledger line), minus the frames: this Defuser reads no pixels, so none
are captured or stored (``TurnEvent.frames`` stays empty; the mask hash is kept).

Speed without changing the policy: the labels and click points of a mask depend only on the
mask, so they are computed once per distinct mask (the views of one bomb repeat constantly);
one ``Game`` is reused for a worker's episodes, so its picture caches stay warm.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from gptnt.missions import Mission, get_mission, load_missions
from gptnt.players.actions import InteractGame, MarkLocation
from gptnt.players.policy import Decision, TurnInput
from gptnt.players.scripted import IdleExpert, RandomDefuser
from gptnt.protocol import MODEL_ACTIONS, BombState, Lifecycle, ModuleKind
from gptnt.records import (
    EpisodeEnded,
    EpisodeStarted,
    EpisodeWriter,
    GameStep,
    Ledger,
    LedgerEntry,
    ModuleResult,
    PlayerInfo,
    RecordedAction,
    Summary,
    TurnEvent,
    classify,
    episode_dir,
    harness,
)
from gptnt.rules.ruleset import ruleset
from gptnt.services.manager._episode import player_infos
from gptnt.services.manager.api import EpisodeSpec
from gptnt.sim.game import Game
from gptnt.vision import lettered_regions, relative_click

__all__ = ["BASELINE_SIZE", "BaselinePlayer", "baseline_spec", "play_baseline"]

BASELINE_SIZE = (320, 240)
"""Frame size of the baseline's simulator. Every element of every module kind stays a region
of its own at this size (a test checks it), so the Defuser's choices are those at 640×480."""

_MARKS_CACHE = 256
_MAX_TURNS = 10_000  # a bound on the loop; a mission's clock ends it long before


def baseline_spec(mission_id: str, repeat: int, rule_seed: int = 1) -> EpisodeSpec:
    """The episode of the baseline: as ``gptnt suite run --defuser random --expert idle`` makes
    it for repeat ``repeat`` (same key, same policy seed)."""
    return EpisodeSpec.make(
        mission_id, "sync", "random", "idle", repeat=repeat, seed=repeat, rule_seed=rule_seed
    )


@dataclass(frozen=True)
class _Marks:
    labels: tuple[str, ...]
    clicks: tuple[tuple[float, float], ...]  # relative click point of each label
    digest: str  # content hash of the mask


@dataclass
class BaselinePlayer:
    """Plays baseline episodes one after another on one reused simulator."""

    width: int = BASELINE_SIZE[0]
    height: int = BASELINE_SIZE[1]
    _games: dict[int, Game] = field(default_factory=dict, init=False)  # one per rule seed
    _marks: OrderedDict[str, _Marks] = field(default_factory=OrderedDict, init=False)
    _missions: dict[str, Mission] = field(default_factory=load_missions, init=False)
    _players: list[PlayerInfo] | None = field(default=None, init=False)

    def add_missions(self, missions: Sequence[Mission]) -> None:
        """Missions that are in no mission file (``gptnt baseline random --fresh-bombs``)."""
        self._missions.update({m.id: m for m in missions})

    def _game(self, rule_seed: int) -> Game:
        """The reused simulator of a rule seed."""
        if rule_seed not in self._games:
            # A frozen wall clock: game time moves only through /timestep (virtual, instant).
            self._games[rule_seed] = Game(
                width=self.width,
                height=self.height,
                transition_seconds=0.0,
                clock=lambda: 0.0,
                capture_frames=False,
                ruleset=ruleset(rule_seed),
            )
        return self._games[rule_seed]

    def play(self, spec: EpisodeSpec, run_dir: Path) -> tuple[Summary, LedgerEntry]:
        """One episode, recorded under ``run_dir``; the ledger line is the caller's to write
        (one writer per run keeps the ledger simple when workers are processes)."""
        mission = self._missions.get(spec.mission_id) or get_mission(spec.mission_id)
        directory = episode_dir(run_dir, spec.key, spec.attempt)
        writer = EpisodeWriter(directory, durable=False)  # replayable in milliseconds
        if self._players is None:  # the same two scripted players in every baseline episode
            self._players = player_infos(spec)
        players = self._players
        started = time.time()
        writer.append(
            EpisodeStarted(
                episode_id=directory.name, mission_id=mission.id, mode="sync", players=players,
                mission=mission.config.model_dump_json(by_alias=True),
                rule_seed=spec.rule_seed, at=started,
                harness=harness(),
            )
        )  # fmt: skip
        final, turns = self._play(mission, spec, writer)
        outcome, reason = classify(final)
        ended = time.time()
        writer.append(EpisodeEnded(outcome=outcome, reason=reason, at=ended))
        limit = float(mission.config.time_limit)
        summary = Summary(
            episode_id=directory.name, mission_id=mission.id, mode="sync",
            rule_seed=spec.rule_seed, attempt=spec.attempt,
            players=players, outcome=outcome, reason=reason,
            modules=[ModuleResult(name=m.name, solved=m.is_solved) for m in final.modules],
            strikes=len(final.strikes), time_limit=limit,
            game_time_used=limit - final.timer_module.seconds_remaining,
            turns={"defuser": turns[0], "expert": turns[1]},
            messages={"defuser": 0, "expert": 0}, started_at=started, ended_at=ended,
        )  # fmt: skip
        writer.finish(summary)
        entry = LedgerEntry(
            episode_key=spec.key, attempt=spec.attempt, status="finished", outcome=outcome,
            reason=reason, episode_dir=str(directory.relative_to(run_dir)), at=ended,
        )  # fmt: skip
        return summary, entry

    def _play(
        self, mission: Mission, spec: EpisodeSpec, writer: EpisodeWriter
    ) -> tuple[BombState, tuple[int, int]]:
        """Play to the end; the final state and the (Defuser, Expert) turn counts."""
        game = self._game(spec.rule_seed)
        if game.health() != Lifecycle.SETUP.value:
            game.reset()
            game.health()
        game.start_mission(mission.config)
        while game.health() != Lifecycle.LIGHTS_ON.value:
            game.timestep()
        defuser = RandomDefuser(seed=spec.policy_seed)
        expert = IdleExpert()
        state = game.state()
        writer.append(GameStep(what="start", at=time.time(),
                               seconds_remaining=state.timer_module.seconds_remaining))  # fmt: skip
        for turn in range(_MAX_TURNS):
            seconds = state.timer_module.seconds_remaining
            focused = state.focused
            marks = self._marks_of(game.buffer(last=0).mask, focused.name if focused else None)
            began = time.time()
            decision = defuser.decide_on(marks.labels if marks else ())
            action = decision.action
            assert isinstance(action, InteractGame)  # the random Defuser only acts on the bomb
            label = action.location.label if isinstance(action.location, MarkLocation) else None
            wire = MODEL_ACTIONS[action.action]
            x_pos = y_pos = None
            if label is not None:
                assert marks is not None
                x_pos, y_pos = marks.clicks[marks.labels.index(label)]
            result = game.action(wire.value, x_pos, y_pos)
            writer.append(
                TurnEvent(
                    role="defuser", turn=turn, started_at=began, dispatched_at=time.time(),
                    seconds_remaining=seconds, strikes=len(state.strikes),
                    raw_output=decision.text,
                    action=RecordedAction(kind="interact_game", name=action.action,
                                          label=label, x_pos=x_pos, y_pos=y_pos),
                    result=result, mask=marks.digest if marks else None,
                    focused=focused.name if focused else None,
                )
            )  # fmt: skip
            state = game.state()
            if state.all_solved or state.is_detonated:
                return state, (turn + 1, turn)
            game.timestep()
            state = game.state()
            writer.append(GameStep(what="timestep", at=time.time(),
                                   seconds_remaining=state.timer_module.seconds_remaining))  # fmt: skip
            if state.all_solved or state.is_detonated:
                return state, (turn + 1, turn)
            began = time.time()
            said = _at_once(expert.decide(TurnInput(role="expert", turn=turn, mode="sync",
                                                    messages=[])))  # fmt: skip
            writer.append(
                TurnEvent(role="expert", turn=turn, started_at=began, dispatched_at=time.time(),
                          raw_output=said.text, action=RecordedAction(kind="do_nothing"))
            )  # fmt: skip
        return state, (_MAX_TURNS, _MAX_TURNS)

    def _marks_of(self, mask: np.ndarray | None, kind: ModuleKind | None) -> _Marks | None:
        """The labels and click points of ``mask`` seen zoomed into ``kind``, as
        ``build_marks`` letters them."""
        if mask is None:
            return None
        digest = hashlib.sha256(mask.tobytes()).hexdigest()
        key = f"{kind}:{digest}"
        hit = self._marks.get(key)
        if hit is not None:
            self._marks.move_to_end(key)
            return hit
        labels, regions = lettered_regions(mask, kind)
        marks = _Marks(
            labels=tuple(labels),
            clicks=tuple(relative_click(r.click, (self.width, self.height)) for r in regions),
            digest=digest,
        )
        self._marks[key] = marks
        if len(self._marks) > _MARKS_CACHE:
            self._marks.popitem(last=False)
        return marks


def _at_once(coroutine: Coroutine[object, None, Decision]) -> Decision:
    """The result of a policy coroutine that never waits (a scripted policy's ``decide``)."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError("a baseline policy waited for I/O; only scripted policies can play here")


# ---------------------------------------------------------------------------- many, in parallel

_PLAYER: BaselinePlayer | None = None  # one per worker process


def _init_worker(width: int, height: int, missions: Sequence[Mission] = ()) -> None:
    global _PLAYER
    _PLAYER = BaselinePlayer(width=width, height=height)
    _PLAYER.add_missions(missions)


def _play_batch(batch: tuple[Path, list[EpisodeSpec]]) -> list[tuple[Summary, LedgerEntry]]:
    run_dir, specs = batch
    assert _PLAYER is not None
    return [_PLAYER.play(spec, run_dir) for spec in specs]


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
    records and the ledger of ``run_dir``; ``on_done`` hears of each finished episode.
    ``missions``: those the specs name that are in no mission file.

    Episodes of one mission go to a worker in batches, so its caches serve the whole batch.
    """
    ledger = Ledger(run_dir)
    batches = [(run_dir, list(specs[i : i + batch_size])) for i in range(0, len(specs), batch_size)]
    summaries: list[Summary] = []

    def take(results: list[tuple[Summary, LedgerEntry]]) -> None:
        for summary, entry in results:
            ledger.append(entry)
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
