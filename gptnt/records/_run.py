"""The run's own record, ``<run>/run.json``: which suite, what it was estimated to cost, its
budget cap and whether the cap stopped it. Rewritten atomically as the run goes; the report
reads it to say that a run was capped (and so is missing episodes on purpose).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict

from gptnt.bounded import read_json
from gptnt.errors import UnreadableError
from gptnt.records._episode import write_atomic
from gptnt.records._schema import SCHEMA_VERSION

RUN_FILE = "run.json"


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


def read_run_info(run_dir: Path) -> RunInfo | None:
    """The run's record, or ``None`` when there is none or it cannot be read (it is rewritten
    as the run goes)."""
    path = run_dir / RUN_FILE
    if not path.exists():
        return None
    try:
        return read_json(path, RunInfo.model_validate_json)
    except UnreadableError:
        return None
