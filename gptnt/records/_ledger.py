"""The run ledger: which episodes of a run are finished, so a rerun skips them.

``<run>/ledger.jsonl`` gets one line per attempt that ended. Each line is written with a single
``write`` on a file opened ``O_APPEND``, so several workers on one host can share it. The
ledger is the index; the truth is each episode's ``summary.json``, and ``rebuild`` recreates
the ledger from the summaries if it is lost.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from gptnt.bounded import Tally, read_jsonl
from gptnt.records._cost import known_cost
from gptnt.records._episode import SUMMARY, read_summary
from gptnt.records._schema import SCHEMA_VERSION, EpisodeOutcome, Summary

LEDGER = "ledger.jsonl"
EPISODES = "episodes"

Status = Literal["finished", "crashed", "parked", "interrupted"]


class LedgerEntry(BaseModel):
    """One ended attempt. ``finished``: it has an outcome of the game; ``crashed``: it will be
    retried; ``parked``: it crashed too often and will not be retried; ``interrupted``: the user
    stopped it, and a rerun plays it again (it does not count towards parking)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["ledger_entry"] = "ledger_entry"
    schema_version: int = SCHEMA_VERSION
    episode_key: str  # the natural key: mission, mode, players, repeat
    attempt: int
    status: Status
    outcome: EpisodeOutcome
    reason: str = ""
    cost_usd: float | None = 0.0  # what the attempt's model calls cost; None: a model had no price
    episode_dir: str  # relative to the run directory
    at: float  # wall-clock unix seconds


_STATUS_OF: dict[str, Status] = {"crashed": "crashed", "interrupted": "interrupted"}


def episode_dir(run_dir: Path, episode_key: str, attempt: int) -> Path:
    return run_dir / EPISODES / f"{episode_key}-a{attempt}"


def episode_folders(run_dir: Path, tally: Tally) -> Iterator[tuple[Path, str, int]]:
    """``(folder, episode key, attempt)`` of every attempt's folder under ``episodes/``, in name
    order. A folder that cannot be one (its name not UTF-8, not ``KEY-aN``, not a directory: a
    file, a symlink loop) is skipped and counted in ``tally``, never fatal: the run's other
    episodes still count, and nothing unencodable reaches a ledger line or a table."""
    for folder in sorted((run_dir / EPISODES).glob("*-a*")):
        problem = _not_episode(folder)
        if problem is not None:
            tally.skip(folder.as_posix().encode(errors="replace").decode(), problem, what="file")
            continue
        key, _, attempt = folder.name.rpartition("-a")
        yield folder, key, int(attempt)


def _not_episode(folder: Path) -> str | None:
    """Why a folder found under ``episodes/`` is no attempt's records, or ``None``."""
    try:
        folder.name.encode()
    except UnicodeEncodeError:
        return "its name is not UTF-8; rename it"
    key, _, attempt = folder.name.rpartition("-a")
    if not key or not attempt.isascii() or not attempt.isdigit():
        return "its name is not KEY-aN (an attempt's folder); rename or remove it"
    if not folder.is_dir():  # also a symlink loop: is_dir() is False, never an error
        return "not a directory"
    return None


class Ledger:
    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.path = run_dir / LEDGER

    def append(self, entry: LedgerEntry) -> None:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        line = (entry.model_dump_json() + "\n").encode()
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                line = b"\n" + line  # end a torn last line (a killed writer's): ours stays whole
            os.write(fd, line)
        finally:
            os.close(fd)

    def entries(self, *, tally: Tally | None = None) -> Iterator[LedgerEntry]:
        """Every readable line; one that is not (a torn line from a killed writer, bad bytes) is
        skipped and counted in ``tally``: the summaries still hold the truth."""
        yield from read_jsonl(
            self.path, LedgerEntry.model_validate_json, tally=Tally() if tally is None else tally
        )

    def latest(self, *, tally: Tally | None = None) -> dict[str, LedgerEntry]:
        """The last entry per episode key (unreadable lines counted in ``tally``)."""
        latest: dict[str, LedgerEntry] = {}
        for entry in self.entries(tally=tally):
            latest[entry.episode_key] = entry
        return latest

    def done(self) -> set[str]:
        """Keys that need no more work: parked, or finished with a summary that reads (one that
        is truncated or empty is played again)."""
        return {
            k for k, e in self.latest().items()
            if e.status == "parked"
            or (e.status == "finished" and read_summary(self.run_dir / e.episode_dir) is not None)
        }  # fmt: skip

    def missing(self) -> list[LedgerEntry]:
        """Latest entries whose episode has no summary in this run directory (records made on
        another host that never arrived, or were deleted): the report warns of each. A summary
        that is there but unreadable is named by the reader's tally instead."""
        return [
            e for e in self.latest().values()
            if e.status != "interrupted" and not (self.run_dir / e.episode_dir / SUMMARY).exists()
        ]  # fmt: skip

    def spent(self) -> tuple[float, bool]:
        """The recorded cost of every attempt so far, crashed ones included, and whether some
        of it is unknown (a model without a price)."""
        return known_cost(e.cost_usd for e in self.entries())

    def attempts(self, episode_key: str) -> int:
        return sum(1 for e in self.entries() if e.episode_key == episode_key)

    def next_attempt(self, episode_key: str) -> int:
        """The attempt number the next try of ``episode_key`` gets (1 for a new episode)."""
        return 1 + max((e.attempt for e in self.entries() if e.episode_key == episode_key),
                       default=0)  # fmt: skip

    def has(self, episode_key: str, attempt: int) -> bool:
        """Whether this attempt is already accounted for (a duplicate result is ignored)."""
        return any((e.episode_key, e.attempt) == (episode_key, attempt) for e in self.entries())

    def settle(
        self, episode_key: str, summary: Summary, *, park_after: int | None = None
    ) -> LedgerEntry:
        """Add the line of an ended attempt (``close``, from its summary)."""
        return self.close(
            episode_key, summary.attempt, summary.outcome, reason=summary.reason,
            cost_usd=summary.cost_usd, park_after=park_after,
        )  # fmt: skip

    def close(
        self,
        episode_key: str,
        attempt: int,
        outcome: EpisodeOutcome,
        *,
        reason: str = "",
        cost_usd: float | None = 0.0,
        park_after: int | None = None,
    ) -> LedgerEntry:
        """Add the line of an ended attempt of any game (a KTANE episode, a SANZARU one), its
        status decided from this ledger alone: ``interrupted`` does not count towards parking;
        the ``park_after``-th crash of an episode parks it (no more retries)."""
        status: Status = "finished"
        if outcome == "interrupted":
            status = "interrupted"
        elif outcome == "crashed":
            crashes = 1 + sum(e.status in ("crashed", "parked") for e in self.entries()
                              if e.episode_key == episode_key)  # fmt: skip
            status = "parked" if park_after is not None and crashes >= park_after else "crashed"
        entry = LedgerEntry(
            episode_key=episode_key, attempt=attempt, status=status, outcome=outcome,
            reason=reason, cost_usd=cost_usd,
            episode_dir=str(episode_dir(self.run_dir, episode_key, attempt)
                            .relative_to(self.run_dir)),
            at=time.time(),
        )  # fmt: skip
        self.append(entry)
        return entry

    def reconcile(self, *, tally: Tally | None = None) -> int:
        """Add entries for finished episodes whose ledger line was lost (a run killed between
        writing the summary and the ledger); returns how many were added. Folders that are no
        attempt's are skipped and counted in ``tally``."""
        known = {(e.episode_key, e.attempt) for e in self.entries()}
        added = 0
        for entry in self._from_summaries(Tally() if tally is None else tally):
            if (entry.episode_key, entry.attempt) not in known:
                self.append(entry)
                added += 1
        return added

    def _from_summaries(self, tally: Tally) -> list[LedgerEntry]:
        entries = []
        for summary_dir, key, attempt in episode_folders(self.run_dir, tally):
            summary = read_summary(summary_dir, tally=tally)
            if summary is None:
                continue
            entries.append(
                LedgerEntry(
                    episode_key=key,
                    attempt=attempt,
                    status=_STATUS_OF.get(summary.outcome, "finished"),
                    outcome=summary.outcome,
                    reason=summary.reason,
                    cost_usd=summary.cost_usd,
                    episode_dir=str(summary_dir.relative_to(self.run_dir)),
                    at=summary.ended_at or time.time(),
                )
            )
        return entries

    def rebuild(self, *, tally: Tally | None = None) -> int:
        """Recreate the ledger from the episodes' summaries; returns the number of entries."""
        entries = self._from_summaries(Tally() if tally is None else tally)
        self.path.unlink(missing_ok=True)
        for entry in entries:
            self.append(entry)
        return len(entries)
