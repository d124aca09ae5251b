"""Playing SANZARU episodes and suites, with records, and reading them back.

An episode directory holds ``events.jsonl`` (one line per agent turn: view, deliveries, raw
reply, calls; then one line per round with the referee's log of every call, delivery and
bounce) and ``summary.json`` (written last, atomically). A suite skips episodes whose summary
exists, so it resumes after a crash. Rounds are turn-based with no clock, so an episode runs
in-process: isolation is by construction (an agent is given only its own view and what was
delivered to it), not by Redis ACLs as in real-time KTANE play.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from gptnt.records import write_atomic
from gptnt.sanzaru._bomb import Variant, generate, variant, variants
from gptnt.sanzaru._coding import code_loss
from gptnt.sanzaru._game import Referee, SanzaruOutcome, SanzaruRole
from gptnt.sanzaru._teams import Agent, Hints, ModelAgent, Turn, oracle_team, random_team

SCHEMA_VERSION = 1
EVENTS = "events.jsonl"
SUMMARY = "summary.json"
TeamKind = Literal["oracle", "random", "model"]


class Summary(BaseModel):
    """``summary.json`` of one episode."""

    model_config = ConfigDict(frozen=True)

    schema_version: int = SCHEMA_VERSION
    episode_id: str
    variant: str
    family: str
    subset: str
    instance: int
    repeat: int
    team: str
    hints: str
    solo: bool
    thinking: str | None
    outcome: SanzaruOutcome | Literal["crashed"]  # crashed: the harness failed, not the team
    rounds_used: int
    rounds: int
    bounces: int
    failure_mode: str | None = None
    failure_flags: tuple[str, ...] = ()
    coded_by: str | None = None
    """Who decided ``failure_mode``: ``ground_truth``, ``heuristic`` or ``judge:<model>``."""
    heuristic_mode: str | None = None
    """The coder's guess, kept when a model judge (``gptnt sanzaru judge``) replaced it."""
    cost_usd: float | None = None
    error: str | None = None


@dataclass(frozen=True)
class Team:
    """Who plays: ``oracle``, ``random``, or a model config for every role."""

    kind: TeamKind
    name: str
    config: Any = None
    hints: Hints = "weak"
    solo: bool = False
    thinking: str | None = None

    def agents(self, episode: Referee, seed: str) -> dict[SanzaruRole, Agent]:
        if self.kind == "oracle":
            return oracle_team(episode.bomb)  # type: ignore[return-value]
        if self.kind == "random":
            return random_team(episode.bomb, seed)  # type: ignore[return-value]
        window = episode.bomb.variant.history
        return {r: ModelAgent(r, self.config, self.hints, window) for r in episode.roles}


async def play(
    v: Variant, instance: int, team: Team, out: Path | None, *, repeat: int = 1
) -> Summary:
    """Play one episode; records under ``out`` when given."""
    episode = Referee(generate(v, instance), solo=team.solo)
    episode_id = f"{v.id}-i{instance}-r{repeat}"
    agents = team.agents(episode, episode_id)
    events: list[dict[str, Any]] = []
    cost = 0.0
    error = None
    try:
        while episode.outcome is None:
            for role in episode.roles:
                turn = Turn(role, episode.round, v.rounds, episode.view(role),
                            tuple(episode.deliveries(role)))  # fmt: skip
                reply = await agents[role].turn(turn)
                cost += reply.meta.get("cost_usd") or 0.0
                events.append({"kind": "turn", "episode_id": episode_id, "round": episode.round,
                               "role": role, "view": turn.view,
                               "delivered": [d.line() for d in turn.deliveries],
                               "raw": reply.raw, "calls": reply.calls, **reply.meta})  # fmt: skip
                episode.play(role, reply.calls)
                if episode.outcome is not None:
                    break
            episode.next_round()
    except Exception as err:  # noqa: BLE001 - a harness failure is recorded as crashed, not lost
        error = f"{type(err).__name__}: {err}"
    events.append({"kind": "referee", "episode_id": episode_id, "log": episode.log,
                   "cuts": episode.cut_rounds})  # fmt: skip
    outcome = "crashed" if error else episode.outcome
    coded = code_loss(episode, events) if outcome in ("timed_out", "wrong_action") else None
    summary = Summary(
        episode_id=episode_id, variant=v.id, family=v.family, subset=v.subset, instance=instance,
        repeat=repeat, team=team.name, hints="none" if team.solo else team.hints, solo=team.solo,
        thinking=team.thinking, outcome=outcome, rounds_used=episode.round, rounds=v.rounds,
        bounces=sum(e["status"] == "bounced" for e in episode.log),
        failure_mode=coded.mode if coded else None,
        failure_flags=coded.flags if coded else (), coded_by=coded.by if coded else None,
        cost_usd=cost if team.kind == "model" else None, error=error,
    )  # fmt: skip
    if out is not None:
        _write(out / episode_id, events, summary)
    return summary


def _write(folder: Path, events: list[dict[str, Any]], summary: Summary) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / EVENTS).open("w", encoding="utf-8") as f:
        for e in events:
            f.write(json.dumps(e, ensure_ascii=False, default=str) + "\n")
    write_summary(folder, summary)


def write_summary(folder: Path, summary: Summary) -> None:
    """``summary.json``, written atomically (last, so a summary means the episode is over)."""
    write_atomic(folder / SUMMARY, summary.model_dump_json(indent=2).encode())


def read_episode_events(folder: Path) -> list[dict[str, Any]]:
    """An episode folder's ``events.jsonl``, one dict per line."""
    lines = (folder / EVENTS).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


async def suite(
    team: Team,
    out: Path,
    *,
    variant_ids: list[str] | None = None,
    instances: int = 3,
    repeats: int = 3,
    concurrency: int = 4,
    on_done=None,  # type: ignore[no-untyped-def]
) -> list[Summary]:
    """Every (variant, instance, repeat); episodes already summarised under ``out`` are kept."""
    chosen = [variant(i) for i in variant_ids] if variant_ids else list(variants().values())
    out.mkdir(parents=True, exist_ok=True)
    gate = asyncio.Semaphore(concurrency)

    async def one(v: Variant, i: int, r: int) -> Summary:
        done = out / f"{v.id}-i{i}-r{r}" / SUMMARY
        if done.is_file():
            summary = Summary.model_validate_json(done.read_text())
            if summary.outcome != "crashed":
                return summary
        async with gate:
            summary = await play(v, i, team, out, repeat=r)
        if on_done:
            on_done(summary)
        return summary

    jobs = [one(v, i, r) for v in chosen for i in range(1, instances + 1)
            for r in range(1, repeats + 1)]  # fmt: skip
    return list(await asyncio.gather(*jobs))


def summaries_under(folder: Path) -> Iterator[tuple[Path, Summary]]:
    """``(episode folder, summary)`` of every finished episode under ``folder``, in path order."""
    for path in sorted(folder.rglob(SUMMARY)):
        yield path.parent, Summary.model_validate_json(path.read_text())


def read_summaries(folders: list[Path]) -> list[Summary]:
    return [summary for folder in folders for _, summary in summaries_under(folder)]
