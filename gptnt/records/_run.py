"""The run's own record, ``<run>/run.json``: which suite, what it was estimated to cost, its
budget cap and whether the cap stopped it. Rewritten atomically as the run goes; the report
reads it to say that a run was capped (and so is missing episodes on purpose).
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

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
    spent_usd: float = 0.0  # recorded cost of every attempt so far
    capped: bool = False  # the cap stopped scheduling before every episode was played
    unscheduled: int = 0  # episodes left unplayed because of the cap


def write_run_info(run_dir: Path, info: RunInfo) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(run_dir / RUN_FILE, info.model_dump_json(indent=2).encode())


def read_run_info(run_dir: Path) -> RunInfo | None:
    path = run_dir / RUN_FILE
    try:
        return RunInfo.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, ValidationError):
        return None
