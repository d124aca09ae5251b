"""A submission bundle on disk: its directory name, writing it and reading it back checked.

``experiments.parquet`` has one row per experiment; the nested records (descriptor,
capabilities, final bomb state, usage) are JSON text columns, everything else plain columns,
as GPTNT's bundles store them.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from gptnt.errors import ConfigError
from gptnt.records import write_atomic
from gptnt.submission._build import slugify, submission_id
from gptnt.submission._schema import InteractiveSubmission, SubmissionExperiment, Submitter

MANIFEST = "submission.yaml"
PAYLOAD = "experiments.parquet"
JSON_COLUMNS = (
    "experiment_descriptor", "defuser_capabilities", "expert_capabilities", "final_bomb_state",
    "defuser_usage", "expert_usage",
)  # fmt: skip


def bundle_name(manifest: InteractiveSubmission) -> str:
    """``<YYYYMMDD>_<display name>_<fingerprint[:8]>_<suite>_<revision>`` (GPTNT's rule)."""
    suite = manifest.measured
    return "_".join([
        manifest.run_date.strftime("%Y%m%d"), slugify(manifest.defuser.identity.display_name),
        manifest.defuser.capabilities.fingerprint[:8], slugify(suite.suite_name),
        slugify(str(suite.suite_revision)),
    ])  # fmt: skip


def _rows(experiments: list[SubmissionExperiment]) -> bytes:
    import pyarrow as pa
    from pyarrow import parquet as pq

    rows = []
    for row in experiments:
        data = row.model_dump(mode="json")
        for column in JSON_COLUMNS:
            data[column] = None if data[column] is None else json.dumps(data[column])
        rows.append(data)
    out = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(rows), out)
    return out.getvalue()


def write_bundle(
    out: Path, manifest: InteractiveSubmission, experiments: list[SubmissionExperiment]
) -> Path:
    """Write the bundle under ``out`` (each file whole or not at all); a submitter block
    already filled in there is kept."""
    folder = out / bundle_name(manifest)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / MANIFEST
    if path.is_file() and manifest.submitter == Submitter():
        try:
            old = yaml.safe_load(path.read_text(encoding="utf-8"))
            kept = Submitter.model_validate(old.get("submitter") or {})
            manifest = manifest.model_copy(update={"submitter": kept})
        except (yaml.YAMLError, ValidationError, AttributeError, OSError):
            pass  # nothing usable to keep: written blank
    write_atomic(folder / PAYLOAD, _rows(experiments))
    text = yaml.safe_dump(manifest.model_dump(mode="json"), sort_keys=False, allow_unicode=True)
    write_atomic(path, text.encode())
    return folder


@dataclass(frozen=True)
class Bundle:
    manifest: InteractiveSubmission
    experiments: list[SubmissionExperiment]


def _parse_row(row: dict[str, Any]) -> SubmissionExperiment:
    for column in JSON_COLUMNS:
        if isinstance(row.get(column), str):
            row[column] = json.loads(row[column])
    return SubmissionExperiment.model_validate(row)


def read_bundle(folder: Path) -> Bundle:
    """Read a bundle and check it against the schema and itself; ``ConfigError`` naming the
    first problem: the files' shape, the directory and id derived from the manifest, the
    payload's players against the manifest's, every run ended cleanly."""
    from pyarrow import parquet as pq

    try:
        raw = yaml.safe_load((folder / MANIFEST).read_text(encoding="utf-8"))
        manifest = InteractiveSubmission.model_validate(raw)
        table = pq.read_table(folder / PAYLOAD)
        experiments = [_parse_row(r) for r in table.to_pylist()]
    except (OSError, yaml.YAMLError, ValidationError, ValueError) as err:
        first = str(err).strip().splitlines()
        raise ConfigError(f"{folder}: not a valid bundle: {' '.join(first[:3])}") from None
    problems = bundle_problems(folder, manifest, experiments)
    if problems:
        raise ConfigError(f"{folder}: {problems[0]}")
    return Bundle(manifest, experiments)


def bundle_problems(
    folder: Path, manifest: InteractiveSubmission, experiments: list[SubmissionExperiment]
) -> list[str]:
    """What is inconsistent in a parsed bundle (nothing: it is whole)."""
    problems = []
    if folder.name != bundle_name(manifest):
        problems.append(f"directory should be named {bundle_name(manifest)}")
    defuser = manifest.defuser.capabilities
    expected_id = submission_id(manifest.run_date, defuser, manifest.measured)
    if manifest.submission_id != expected_id:
        problems.append(f"submission_id should be {expected_id}")
    if not experiments:
        problems.append(f"{PAYLOAD} has no rows")
    if any(x.defuser_capability_fingerprint != defuser.fingerprint for x in experiments):
        problems.append("an experiment was played by another Defuser setup than the manifest's")
    experts = {p.capabilities.fingerprint for p in manifest.players[1:]}
    played = {x.expert_capability_fingerprint for x in experiments if x.expert_capabilities}
    if experts != played:
        problems.append("the manifest's Experts are not the payload's")
    played_twice = _played_twice(experiments)
    if played_twice:
        problems.append(f"played more than once (one run per mission and pairing): "
                        f"{', '.join(played_twice)}")  # fmt: skip
    if any(not x.is_valid for x in experiments):
        problems.append("an experiment did not end cleanly (crashed or unfinished)")
    measured = manifest.measured
    if any((x.suite_name, x.suite_revision) != (measured.suite_name, measured.suite_revision)
           for x in experiments):  # fmt: skip
        problems.append(f"an experiment is not from {measured.target}")
    return problems


def _played_twice(experiments: list[SubmissionExperiment]) -> list[str]:
    """Each (Defuser, Expert, mission) played more than once, as ``defuser + expert on key``."""
    counts = Counter((x.defuser_capability_fingerprint, x.expert_capability_fingerprint,
                      x.mission_key) for x in experiments)  # fmt: skip
    names = {(x.defuser_capability_fingerprint, x.expert_capability_fingerprint, x.mission_key):
             f"{x.defuser_name} + {x.expert_name or 'solo'} on {x.mission_key}"
             for x in experiments}  # fmt: skip
    return sorted(names[key] for key, n in counts.items() if n > 1)
