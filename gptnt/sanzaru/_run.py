"""Playing SANZARU episodes and suites, with records, and reading them back.

A run directory is a run of the main harness (``gptnt.records``, schema version 6):
``ledger.jsonl`` with one ``LedgerEntry`` per ended attempt, settled by ``Ledger.settle``, and
``episodes/<key>-a<attempt>/`` per attempt written by the one ``EpisodeWriter``: ``events.jsonl``
(SANZARU's own event kinds: ``SanzaruStarted`` naming the harness and the conditions, one
``SanzaruTurn`` per agent turn — view, deliveries, raw reply, calls, latency, cost — then
``SanzaruReferee`` with the log of every call, delivery and bounce) and ``summary.json``, the
shared ``Summary`` with its ``sanzaru`` part (``SanzaruResult``), written last, atomically.
The episode id is the directory's name, as for every episode. The episode key names the
variant, instance, repeat and the team's whole configuration (team, solo, hints, thinking, turn
order), so two teams share a run directory without sharing an episode. A suite skips keys the
ledger calls finished and plays a crashed or interrupted one again as its next attempt.

Rounds are turn-based with no clock, so an episode runs in-process: isolation is by
construction (an agent is given only its own view and what was delivered to it), not by Redis
ACLs as in real-time KTANE play.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from gptnt.bounded import Tally
from gptnt.errors import ConfigError
from gptnt.records import (
    EPISODES,
    LEDGER,
    RUN_FILE,
    SANZARU_OUTCOMES,
    SUMMARY,
    EpisodeWriter,
    FleetView,
    InFlight,
    Ledger,
    LedgerEntry,
    RunInfo,
    RunLock,
    SanzaruRecorded,
    SanzaruReferee,
    SanzaruResult,
    SanzaruStarted,
    SanzaruTurn,
    Summary,
    add_costs,
    episode_dir,
    harness,
    read_summary,
    write_fleet,
    write_run_info,
)
from gptnt.sanzaru._bomb import Variant, generate, variant, variants
from gptnt.sanzaru._coding import code_loss
from gptnt.sanzaru._game import TURN_ORDERS, Referee, SanzaruRole
from gptnt.sanzaru._teams import Agent, Hints, ModelAgent, Turn, oracle_team, random_team

RUN_KIND = "sanzaru"
"""``run.json``'s ``kind`` for a SANZARU run."""
TeamKind = Literal["oracle", "random", "model"]
_FLEET_EVERY_S = 1.0  # wall seconds between rewrites of fleet.json while a suite runs


class ProviderDown(Exception):
    """Model calls failed as only a provider fails (``gptnt.players.faults.ProviderWatch``)."""


@dataclass(frozen=True)
class Team:
    """Who plays: ``oracle``, ``random``, or a model config for every role."""

    kind: TeamKind
    name: str
    config: Any = None
    hints: Hints = "weak"
    solo: bool = False
    thinking: str | None = None
    order: tuple[SanzaruRole, ...] = TURN_ORDERS[0]

    @property
    def tag(self) -> str:
        """The team's configuration as a file-name-safe word, part of every episode key."""
        name = re.sub(r"[^A-Za-z0-9._-]+", "_", self.name).strip("_") or "team"
        parts = [name, "solo" if self.solo else self.hints]
        if self.thinking:
            parts.append(f"think-{self.thinking}")
        if not self.solo:
            parts.append("".join(r[0] for r in self.order))
        return ".".join(parts)

    def settings(self) -> dict[str, Any] | None:
        if self.kind != "model":
            return None
        from gptnt.players.backends import provider_settings

        return provider_settings(self.config)

    def agents(self, episode: Referee, seed: str) -> dict[SanzaruRole, Agent]:
        if self.kind == "oracle":
            return oracle_team(episode.bomb)
        if self.kind == "random":
            return random_team(episode.bomb, seed)
        window = episode.bomb.variant.history
        return {
            r: ModelAgent(r, self.config, self.hints, window, self.order) for r in episode.roles
        }


def episode_key(v: Variant, instance: int, repeat: int, team: Team) -> str:
    return f"{v.id}-i{instance}-r{repeat}-{team.tag}"


async def play(
    v: Variant,
    instance: int,
    team: Team,
    out: Path | None,
    *,
    repeat: int = 1,
    attempt: int | None = None,
) -> Summary:
    """Play one episode; records under ``out`` (a run directory) when given, as ``attempt``
    (``None``: the next of its key in ``out``'s ledger, reconciled first with the summaries).
    A cancelled episode (the run interrupted) is recorded as ``interrupted``, then the cancel
    goes on."""
    episode = Referee(generate(v, instance), solo=team.solo, order=team.order)
    key = episode_key(v, instance, repeat, team)
    if attempt is None:
        attempt = 1 if out is None else _next_attempt(Ledger(out), key)
    folder = episode_dir(out or Path(), key, attempt)
    seed = f"{v.id}-i{instance}-r{repeat}"  # the random team's draws do not depend on its name
    agents = team.agents(episode, seed)
    writer = None if out is None else _writer(out, folder)
    started = time.time()
    record = writer.append if writer else (lambda event: None)
    record(SanzaruStarted(
        episode_id=folder.name, attempt=attempt, variant=v.id, instance=instance, repeat=repeat,
        team=team.name, hints=team.hints, solo=team.solo, thinking=team.thinking,
        order=episode.roles, harness=harness(), settings=team.settings(), at=started))  # fmt: skip
    costs: list[float | None] = []
    turns: Counter[str] = Counter()
    error = None
    cancelled: asyncio.CancelledError | None = None
    from gptnt.players.faults import ProviderWatch

    providers = ProviderWatch()  # a provider that is down is the harness's failure, not the team's
    try:
        while episode.outcome is None:
            for role in episode.roles:
                turn = Turn(role, episode.round, v.rounds, episode.view(role),
                            tuple(episode.deliveries(role)))  # fmt: skip
                reply = await agents[role].turn(turn)
                costs.append(reply.meta.get("cost_usd"))
                turns[role] += 1
                record(SanzaruTurn(episode_id=folder.name, round=episode.round, role=role,
                                   view=turn.view, delivered=[d.line() for d in turn.deliveries],
                                   raw=reply.raw, calls=reply.calls, **reply.meta))  # fmt: skip
                down = providers.see(role, reply.failed)
                if down is not None:
                    raise ProviderDown(down)
                episode.play(role, reply.calls)
                if episode.outcome is not None:
                    break
            episode.next_round()
    except asyncio.CancelledError as err:  # the run was stopped: not a result, played again
        cancelled = err
    except ProviderDown as err:  # the main harness's words: ``crashed: provider …``
        error = f"provider: {err}"
    except Exception as err:  # a harness failure is recorded as crashed, not lost
        error = f"{type(err).__name__}: {err}"
    record(SanzaruReferee(episode_id=folder.name, log=episode.log, cuts=episode.cut_rounds))
    outcome: SanzaruRecorded = (
        "interrupted" if cancelled
        else "crashed" if error or episode.outcome is None else episode.outcome
    )  # fmt: skip
    coded = code_loss(episode) if outcome in ("timed_out", "wrong_action") else None
    result = SanzaruResult(
        variant=v.id, family=v.family, subset=v.subset, instance=instance, repeat=repeat,
        team=team.name, hints="none" if team.solo else team.hints, solo=team.solo,
        thinking=team.thinking, order=episode.roles, outcome=outcome,
        ending=outcome if outcome in ("crashed", "interrupted") else episode.ending,
        rounds_used=episode.round, rounds=v.rounds,
        bounces=sum(e["status"] == "bounced" for e in episode.log),
        failure_mode=coded.mode if coded else None, failure_stage=coded.stage if coded else None,
        failure_flags=coded.flags if coded else (), coded_by=coded.by if coded else None,
        candidates=coded.candidates if coded else (),
    )  # fmt: skip
    summary = Summary(
        episode_id=folder.name, mission_id=v.id, mode="sync", attempt=attempt,
        outcome=SANZARU_OUTCOMES[outcome],
        reason=error or ("interrupted by the user" if cancelled else result.ending or ""),
        turns=dict(turns), cost_usd=add_costs(costs) if team.kind == "model" else 0.0,
        sanzaru=result, started_at=started, ended_at=time.time(),
    )  # fmt: skip
    if out is not None and writer is not None:
        writer.finish(summary)
        Ledger(out).settle(key, summary)
    if cancelled is not None:
        raise cancelled
    return summary


def _next_attempt(ledger: Ledger, key: str) -> int:
    ledger.reconcile()  # a summary whose line a killed run never wrote is an attempt too
    return ledger.next_attempt(key)


def _writer(out: Path, folder: Path) -> EpisodeWriter:
    """The attempt's writer, in a run directory that says it is a SANZARU run; an attempt cut
    short by a killed run (a folder, no summary, no ledger line) is started afresh."""
    if not (out / RUN_FILE).exists():
        write_run_info(out, RunInfo(kind=RUN_KIND, suite=RUN_KIND))
    if folder.exists():
        shutil.rmtree(folder)
    return EpisodeWriter(folder)


async def suite(
    team: Team,
    out: Path,
    *,
    variant_ids: list[str] | None = None,
    instances: int = 3,
    repeats: int = 3,
    concurrency: int = 4,
    on_done: Callable[[Summary], None] | None = None,
) -> list[Summary]:
    """Every (variant, instance, repeat); keys the ledger of ``out`` calls finished are kept, a
    crashed or interrupted one is played again as its next attempt. Holds ``out``'s writer lock
    (``gptnt.records.RunLock``): a second writer gets one line naming the holder."""
    chosen = [variant(i) for i in variant_ids] if variant_ids else list(variants().values())
    ledger = Ledger(out)
    latest: dict[str, LedgerEntry] = {}
    gate = asyncio.Semaphore(concurrency)
    keys = [(v, i, r, episode_key(v, i, r, team)) for v in chosen
            for i in range(1, instances + 1) for r in range(1, repeats + 1)]  # fmt: skip
    fleet = _Fleet(out, concurrency, [k for *_, k in keys])

    async def one(v: Variant, i: int, r: int, key: str) -> Summary:
        entry = latest.get(key)
        if entry is not None and entry.status == "finished":
            kept = read_summary(out / entry.episode_dir)
            if kept is not None and kept.sanzaru is not None:
                fleet.ended(key)
                return kept  # else its record is torn or gone: played again as a new attempt
        async with gate:
            attempt = ledger.next_attempt(key)
            fleet.started(key, attempt)
            try:
                summary = await play(v, i, team, out, repeat=r, attempt=attempt)
            finally:
                fleet.ended(key)
        if on_done:
            on_done(summary)
        return summary

    with RunLock(out):  # one writer per run directory (made here), as the main harness's runs
        ledger.reconcile()  # a summary whose ledger line a killed run never wrote
        latest.update(ledger.latest())  # read under the lock: no other writer adds to it
        beat = asyncio.create_task(fleet.beat())
        try:
            return list(await asyncio.gather(*(one(*k) for k in keys)))
        finally:
            beat.cancel()
            fleet.write(active=False)


class _Fleet:
    """The suite's ``fleet.json`` (``gptnt.records.FleetView``) for ``gptnt suite status``:
    one in-process worker with ``slots`` episodes at once, rewritten every ``_FLEET_EVERY_S``
    while the suite runs and once when it stops."""

    def __init__(self, out: Path, slots: int, keys: list[str]) -> None:
        self.out = out
        self.slots = slots
        self.episodes = len(keys)
        self.queued = dict.fromkeys(keys)
        self.flying: dict[str, InFlight] = {}

    def started(self, key: str, attempt: int) -> None:
        self.queued.pop(key, None)
        self.flying[key] = InFlight(key=key, attempt=attempt, host=socket.gethostname(),
                                    worker=f"sanzaru-{os.getpid()}", started_at=time.time())  # fmt: skip

    def ended(self, key: str) -> None:
        self.queued.pop(key, None)
        self.flying.pop(key, None)

    async def beat(self) -> None:
        while True:
            self.write(active=True)
            await asyncio.sleep(_FLEET_EVERY_S)

    def write(self, *, active: bool) -> None:
        latest = Ledger(self.out).latest()
        write_fleet(self.out, FleetView(
            updated_at=time.time(), active=active, scheduler="local", workers=1,
            slots=self.slots, episodes=self.episodes, queued=list(self.queued) if active else [],
            in_flight=list(self.flying.values()) if active else [],
            done=sum(e.status == "finished" for e in latest.values()),
            parked=sum(e.status == "parked" for e in latest.values()),
        ))  # fmt: skip


def summaries_under(
    run: Path, *, tally: Tally | None = None
) -> Iterator[tuple[Path, Summary, SanzaruResult]]:
    """``(episode folder, summary, its SANZARU part)`` of the latest attempt of every episode in
    a run's ledger, in key order; a run directory may also hold run directories (each read the
    same way). An interrupted attempt is left out (it is played again); a finished one whose
    summary is missing, unreadable or not a SANZARU episode's is left out and counted in
    ``tally``. A run of SANZARU's first format (no ledger) is refused, naming a summary."""
    _refuse_version_1(run)
    for root in sorted(p.parent for p in run.rglob(LEDGER)):
        latest = Ledger(root).latest(tally=tally)
        for key in sorted(latest):
            entry = latest[key]
            folder = root / entry.episode_dir
            if entry.status == "interrupted":
                continue
            summary = read_summary(folder, tally=tally)
            if summary is None:
                if entry.status == "finished" and tally is not None:
                    tally.skip(folder / SUMMARY, "missing", what="file")
                continue
            if summary.sanzaru is None:
                if tally is not None:
                    tally.skip(folder / SUMMARY, "a KTANE episode, not a SANZARU one", what="file")
                continue
            yield folder, summary, summary.sanzaru


def _refuse_version_1(run: Path) -> None:
    """SANZARU's first format kept ``<run>/<variant>-i<n>-r<k>/summary.json`` and no ledger; a
    run of it anywhere under ``run`` (beside runs of today's format too) is refused, never left
    out in silence. Every other summary is ``<run>/episodes/<attempt>/summary.json``."""
    for old in sorted(run.rglob(SUMMARY)):
        root = old.parent.parent
        if root.name != EPISODES and not (root / LEDGER).exists():
            raise ConfigError(
                f"{old}: a SANZARU record of its first format (one folder per episode, no "
                f"{LEDGER}), which this harness no longer reads; play the suite again into a "
                "new run directory (`gptnt sanzaru suite --out NEW`)"
            )


def read_summaries(folders: list[Path], *, tally: Tally | None = None) -> list[Summary]:
    """The latest summary of every SANZARU episode under ``folders``; what could not be read is
    counted in ``tally`` (the report says so, one line per source)."""
    return [s for folder in folders for _, s, _ in summaries_under(folder, tally=tally)]
