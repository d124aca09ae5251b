"""Playing SANZARU episodes and suites, with records, and reading them back.

A run directory has the main harness's layout and ledger (``gptnt.records``): ``ledger.jsonl``
with one ``LedgerEntry`` per ended attempt, and ``episodes/<key>-a<attempt>/`` per attempt
holding ``events.jsonl`` (SANZARU's own event kinds: ``sanzaru_started`` naming the harness and
the conditions, one ``sanzaru_turn`` per agent turn — view, deliveries, raw reply, calls,
latency, cost — then ``sanzaru_referee`` with the log of every call, delivery and bounce) and
``summary.json`` (``kind: sanzaru_summary``, written last, atomically). The episode key names
the variant, instance, repeat and the team's whole configuration (team, solo, hints, thinking,
turn order), so two teams share a run directory without sharing an episode. A suite skips keys
the ledger calls finished and plays a crashed one again as its next attempt.

Rounds are turn-based with no clock, so an episode runs in-process: isolation is by
construction (an agent is given only its own view and what was delivered to it), not by Redis
ACLs as in real-time KTANE play.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from gptnt.bounded import Tally, read_json, read_jsonl
from gptnt.errors import UnreadableError
from gptnt.records import (
    RUN_FILE,
    EpisodeOutcome,
    Harness,
    Ledger,
    LedgerEntry,
    RunInfo,
    RunLock,
    episode_dir,
    harness,
    write_atomic,
    write_run_info,
)
from gptnt.sanzaru._bomb import Variant, generate, variant, variants
from gptnt.sanzaru._coding import code_loss
from gptnt.sanzaru._game import TURN_ORDERS, Ending, Referee, SanzaruOutcome, SanzaruRole
from gptnt.sanzaru._teams import Agent, Hints, ModelAgent, Turn, oracle_team, random_team

SCHEMA_VERSION = 2
"""Version 2: the main harness's ledger and ``episodes/`` layout, keys that carry the team,
the turn order and the paper's ending (``never_acted``)."""
EVENTS = "events.jsonl"
SUMMARY = "summary.json"
RUN_KIND = "sanzaru"
"""``run.json``'s ``kind`` for a SANZARU run, so the KTANE report can tell one apart."""
TeamKind = Literal["oracle", "random", "model"]
SummaryOutcome = SanzaruOutcome | Literal["crashed"]

_LEDGER_OUTCOME: dict[str, EpisodeOutcome] = {
    "defused": "solved", "wrong_action": "strikeout", "timed_out": "timeout", "crashed": "crashed",
}  # fmt: skip
"""A SANZARU outcome in the ledger's vocabulary (``gptnt.records.EpisodeOutcome``): a wrong
action is the detonation a strike-out causes, a spent round budget the timeout."""


class Summary(BaseModel):
    """``summary.json`` of one episode attempt."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["sanzaru_summary"] = "sanzaru_summary"
    schema_version: int = SCHEMA_VERSION
    episode_id: str
    """The episode key (variant, instance, repeat, team configuration)."""
    attempt: int = 1
    variant: str
    family: str
    subset: str
    instance: int
    repeat: int
    team: str
    hints: str
    solo: bool
    thinking: str | None
    order: tuple[str, ...] = TURN_ORDERS[0]
    outcome: SummaryOutcome  # crashed: the harness failed, not the team
    ending: Ending | Literal["crashed"] | None = None
    """The paper's four endings (Figure 6): ``never_acted`` splits off the timeouts without a
    single action attempt."""
    rounds_used: int
    rounds: int
    bounces: int
    failure_mode: str | None = None
    failure_stage: str | None = None
    failure_flags: tuple[str, ...] = ()
    coded_by: str | None = None
    """Who decided ``failure_mode``: ``ground_truth``, ``heuristic`` or ``judge:<model>``."""
    candidates: tuple[str, ...] = ()
    """For a ``heuristic`` mode: the modes only the gestures' meaning can choose among (the
    judge's choices)."""
    heuristic_mode: str | None = None
    """The coder's guess, kept when a model judge (``gptnt sanzaru judge``) replaced it."""
    cost_usd: float | None = None
    error: str | None = None
    started_at: float = 0.0
    ended_at: float = 0.0


class SanzaruStarted(BaseModel):
    """The first line of ``events.jsonl``: who wrote it and under which conditions."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["sanzaru_started"] = "sanzaru_started"
    schema_version: int = SCHEMA_VERSION
    episode_id: str
    attempt: int
    variant: str
    instance: int
    repeat: int
    team: str
    hints: str
    solo: bool
    thinking: str | None
    order: tuple[str, ...]
    harness: Harness
    settings: dict[str, Any] | None = None
    """A model team's provider settings as sent (``thinking``, a thinking budget where the
    provider takes one, the token cap); ``None`` for scripted teams."""
    at: float


class SanzaruTurn(BaseModel):
    """One agent's turn: what it was shown and told, what it replied, the calls parsed."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["sanzaru_turn"] = "sanzaru_turn"
    episode_id: str
    round: int
    role: str
    view: str
    delivered: list[str]
    raw: str | None
    calls: list[dict[str, Any]]
    latency_s: float | None = None
    cost_usd: float | None = None
    usage: dict[str, Any] | None = None
    failure: str | None = None


class SanzaruReferee(BaseModel):
    """The referee's log of every call (status delivered / bounced with its reason / acted)."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["sanzaru_referee"] = "sanzaru_referee"
    episode_id: str
    log: list[dict[str, Any]]
    cuts: list[tuple[int, int, str]] = Field(default_factory=list)


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
    v: Variant, instance: int, team: Team, out: Path | None, *, repeat: int = 1, attempt: int = 1
) -> Summary:
    """Play one episode; records under ``out`` (a run directory) when given."""
    episode = Referee(generate(v, instance), solo=team.solo, order=team.order)
    key = episode_key(v, instance, repeat, team)
    seed = f"{v.id}-i{instance}-r{repeat}"  # the random team's draws do not depend on its name
    agents = team.agents(episode, seed)
    started = time.time()
    events: list[BaseModel] = [SanzaruStarted(
        episode_id=key, attempt=attempt, variant=v.id, instance=instance, repeat=repeat,
        team=team.name, hints=team.hints, solo=team.solo, thinking=team.thinking,
        order=episode.roles, harness=harness(), settings=team.settings(), at=started)]  # fmt: skip
    cost = 0.0
    error = None
    from gptnt.players.faults import ProviderWatch

    providers = ProviderWatch()  # a provider that is down is the harness's failure, not the team's
    try:
        while episode.outcome is None:
            for role in episode.roles:
                turn = Turn(role, episode.round, v.rounds, episode.view(role),
                            tuple(episode.deliveries(role)))  # fmt: skip
                reply = await agents[role].turn(turn)
                cost += reply.meta.get("cost_usd") or 0.0
                events.append(SanzaruTurn(episode_id=key, round=episode.round, role=role,
                                          view=turn.view,
                                          delivered=[d.line() for d in turn.deliveries],
                                          raw=reply.raw, calls=reply.calls, **reply.meta))  # fmt: skip
                down = providers.see(role, reply.failed)
                if down is not None:
                    raise ProviderDown(down)
                episode.play(role, reply.calls)
                if episode.outcome is not None:
                    break
            episode.next_round()
    except ProviderDown as err:  # the main harness's words: ``crashed: provider …``
        error = f"provider: {err}"
    except Exception as err:  # a harness failure is recorded as crashed, not lost
        error = f"{type(err).__name__}: {err}"
    events.append(SanzaruReferee(episode_id=key, log=episode.log, cuts=episode.cut_rounds))
    outcome: SummaryOutcome = "crashed" if error or episode.outcome is None else episode.outcome
    coded = code_loss(episode) if outcome in ("timed_out", "wrong_action") else None
    summary = Summary(
        episode_id=key, attempt=attempt, variant=v.id, family=v.family, subset=v.subset,
        instance=instance, repeat=repeat, team=team.name,
        hints="none" if team.solo else team.hints, solo=team.solo, thinking=team.thinking,
        order=episode.roles, outcome=outcome,
        ending="crashed" if outcome == "crashed" else episode.ending,
        rounds_used=episode.round, rounds=v.rounds,
        bounces=sum(e["status"] == "bounced" for e in episode.log),
        failure_mode=coded.mode if coded else None, failure_stage=coded.stage if coded else None,
        failure_flags=coded.flags if coded else (), coded_by=coded.by if coded else None,
        candidates=coded.candidates if coded else (),
        cost_usd=cost if team.kind == "model" else None, error=error,
        started_at=started, ended_at=time.time(),
    )  # fmt: skip
    if out is not None:
        if not (out / RUN_FILE).exists():
            write_run_info(out, RunInfo(kind=RUN_KIND, suite=RUN_KIND))
        _write(episode_dir(out, key, attempt), events, summary)
        Ledger(out).close(
            key, attempt, _LEDGER_OUTCOME[outcome], reason=error or (summary.ending or ""),
            cost_usd=cost,
        )  # fmt: skip
    return summary


def _write(folder: Path, events: list[BaseModel], summary: Summary) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / EVENTS).open("w", encoding="utf-8") as f:
        for e in events:
            f.write(e.model_dump_json() + "\n")
    write_summary(folder, summary)


def write_summary(folder: Path, summary: Summary) -> None:
    """``summary.json``, written atomically (last, so a summary means the episode is over)."""
    write_atomic(folder / SUMMARY, summary.model_dump_json(indent=2).encode())


def read_episode_events(folder: Path, *, tally: Tally | None = None) -> list[dict[str, Any]]:
    """An episode folder's ``events.jsonl``, one dict per line (bounded; a line that cannot be
    read is skipped and counted in ``tally``, a torn last line skipped silently)."""
    return list(read_jsonl(folder / EVENTS, json.loads, tally=Tally() if tally is None else tally))


def read_summary(folder: Path, *, tally: Tally | None = None) -> Summary | None:
    """An attempt's ``summary.json``, or ``None`` when it is missing or cannot be read (torn,
    empty, not a SANZARU summary: counted in ``tally``); a suite then plays the key again."""
    path = folder / SUMMARY
    if not path.is_file():
        if tally is not None:
            tally.skip(path, "missing", what="file")
        return None
    try:
        return read_json(path, Summary.model_validate_json)
    except UnreadableError as err:
        if tally is not None:
            tally.skip(path, str(err).removeprefix(f"{path}: "), what="file")
        return None


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
    crashed one is played again as its next attempt. Holds ``out``'s writer lock
    (``gptnt.records.RunLock``): a second writer gets one line naming the holder."""
    chosen = [variant(i) for i in variant_ids] if variant_ids else list(variants().values())
    ledger = Ledger(out)
    latest: dict[str, LedgerEntry] = {}
    gate = asyncio.Semaphore(concurrency)

    async def one(v: Variant, i: int, r: int) -> Summary:
        key = episode_key(v, i, r, team)
        entry = latest.get(key)
        if entry is not None and entry.status == "finished":
            kept = read_summary(out / entry.episode_dir)
            if kept is not None:
                return kept  # else its record is torn or gone: played again as a new attempt
        async with gate:
            summary = await play(v, i, team, out, repeat=r, attempt=ledger.next_attempt(key))
        if on_done:
            on_done(summary)
        return summary

    with RunLock(out):  # one writer per run directory (made here), as the main harness's runs
        latest.update(ledger.latest())  # read under the lock: no other writer adds to it
        jobs = [one(v, i, r) for v in chosen for i in range(1, instances + 1)
                for r in range(1, repeats + 1)]  # fmt: skip
        return list(await asyncio.gather(*jobs))


def summaries_under(run: Path, *, tally: Tally | None = None) -> Iterator[tuple[Path, Summary]]:
    """``(episode folder, summary)`` of the latest attempt of every episode in a run's ledger,
    in key order; a run directory may also hold run directories (each read the same way). A
    version 1 run (no ledger) is read folder by folder. A finished attempt whose summary is
    missing or unreadable is left out and counted in ``tally``."""
    ledgers = sorted(p.parent for p in run.rglob(Ledger(run).path.name))
    if not ledgers:  # a version 1 run: one folder per episode, no ledger
        for path in sorted(run.rglob(SUMMARY)):
            if (summary := read_summary(path.parent, tally=tally)) is not None:
                yield path.parent, summary
        return
    for root in ledgers:
        latest = Ledger(root).latest()
        for key in sorted(latest):
            folder = root / latest[key].episode_dir
            if latest[key].status != "finished" and not (folder / SUMMARY).is_file():
                continue
            if (summary := read_summary(folder, tally=tally)) is not None:
                yield folder, summary


def read_summaries(folders: list[Path], *, tally: Tally | None = None) -> list[Summary]:
    """The latest summary of every episode under ``folders``; what could not be read is
    counted in ``tally`` (the report says so, one line per source)."""
    return [s for folder in folders for _, s in summaries_under(folder, tally=tally)]
