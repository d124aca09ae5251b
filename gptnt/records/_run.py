"""The run's own record, ``<run>/run.json``: which suite, what it was estimated to cost, its
budget cap and whether the cap stopped it. Rewritten atomically as the run goes; the report
reads it to say that a run was capped (and so is missing episodes on purpose).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict

from gptnt.bounded import Tally, read_json
from gptnt.errors import UnreadableError
from gptnt.records._episode import write_atomic
from gptnt.records._schema import SCHEMA_VERSION

RUN_FILE = "run.json"

T = TypeVar("T")


class RunInfo(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str = "run"
    schema_version: int = SCHEMA_VERSION
    suite: str | None = None
    episodes: int = 0  # episodes the run asked for (after --only / --limit)
    estimated_cost_usd: float | None = None  # the plan's estimate without caching; None: unknown
    max_cost_usd: float | None = None  # the budget cap, if any
    spent_usd: float = 0.0  # recorded cost of every attempt so far (the priced calls)
    unpriced: bool = False  # some model call had no price: more than spent_usd was spent
    capped: bool = False  # the cap stopped scheduling before every episode was played
    unscheduled: int = 0  # episodes left unplayed because of the cap


def write_run_info(run_dir: Path, info: RunInfo) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(run_dir / RUN_FILE, info.model_dump_json(indent=2).encode())


def _read_optional(path: Path, parse: Callable[[bytes], T], tally: Tally | None) -> T | None:
    """The file parsed, or ``None`` when there is none or it cannot be read; an unreadable one
    (torn, not its type, not a regular file) is counted in ``tally``, so a reader can name it."""
    if not path.exists():
        return None
    try:
        return read_json(path, parse)
    except UnreadableError as err:
        if tally is not None:
            tally.skip(path, str(err).removeprefix(f"{path}: "), what="file")
        return None


def read_run_info(run_dir: Path, *, tally: Tally | None = None) -> RunInfo | None:
    """The run's record, or ``None`` when there is none or it cannot be read (it is rewritten
    as the run goes; an unreadable one is counted in ``tally``)."""
    return _read_optional(run_dir / RUN_FILE, RunInfo.model_validate_json, tally)


FLEET_FILE = "fleet.json"


class InFlight(BaseModel):
    """An attempt being played: where, since when (wall-clock unix seconds)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str
    attempt: int
    host: str
    worker: str
    started_at: float


class FleetView(BaseModel):
    """``<run>/fleet.json``: the suite's view of its cluster, rewritten by the suite about once
    a second while it runs (``active``) and once when it stops; ``gptnt suite status`` prints
    it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str = "fleet"
    schema_version: int = SCHEMA_VERSION
    updated_at: float
    active: bool
    scheduler: str  # the cluster's address ("local" for the suite's own)
    workers: int  # workers offering game slots
    slots: int  # game slots in all
    episodes: int  # episodes the run asked for
    queued: list[str] = []  # episode keys waiting for a game slot (submitted or not yet)
    in_flight: list[InFlight] = []
    done: int = 0  # finished episodes
    parked: int = 0


def write_fleet(run_dir: Path, view: FleetView) -> None:
    write_atomic(run_dir / FLEET_FILE, view.model_dump_json(indent=2).encode(), durable=False)


def read_fleet(run_dir: Path, *, tally: Tally | None = None) -> FleetView | None:
    """The suite's fleet view, or ``None`` when there is none or it cannot be read (counted in
    ``tally``)."""
    return _read_optional(run_dir / FLEET_FILE, FleetView.model_validate_json, tally)
