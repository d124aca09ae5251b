"""The mission catalogue: typed views of the JSON files under ``missions/``.

A mission is one bomb to defuse: the ``/startmission`` parameters plus a stable id and a title.
Ids ``1``–``10`` are the paper's multi-module missions (numbered as in its Table B.14);
``<Module>-<seed>`` ids (e.g. ``Wires-234``) are its 110 single-module missions. Suites
(``missions/suites/``) are read by ``gptnt.suites``. Files are loaded as they are, never
regenerated at run time, so a benchmark run is reproducible from the repository alone.

Layout::

    missions/multi/<id>.json      missions/single/<id>.json      missions/suites/<name>.json
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from gptnt import resources
from gptnt.bounded import MAX_JSON_BYTES, read_json, strict_json
from gptnt.errors import MissionError, UnreadableError, first_problem
from gptnt.protocol import MODULE_KINDS, MissionConfig, kind_or_none, kind_title

__all__ = [
    "DEFAULT_MISSIONS_DIR",
    "MISSIONS_DIR_ENV",
    "Mission",
    "MissionKind",
    "get_mission",
    "load_mission_file",
    "load_missions",
    "mission_paths",
    "missions_dir",
    "unknown_name",
]

DEFAULT_MISSIONS_DIR = resources.missions_dir()
MISSIONS_DIR_ENV = "GPTNT_MISSIONS_DIR"
"""Set it to play missions (and suites) from another directory with the same layout."""

MissionKind = Literal["multi", "single"]


class Mission(BaseModel):
    """One mission file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$", description="Stable id; file stem.")
    kind: MissionKind = Field(description="multi: the paper's Table B.14; single: one module.")
    title: str = Field(min_length=1)
    level: str | None = Field(
        default=None, description="The KTANE campaign level a multi-module mission follows."
    )
    source: str = Field(default="", description="Where the numbers come from (provenance).")
    config: MissionConfig

    @model_validator(mode="after")
    def _id_matches_kind(self) -> Mission:
        components = self.config.components
        if self.kind == "single":
            if len(components) != 1:
                raise ValueError(f"a single-module mission has 1 component, not {len(components)}")
            expected = f"{components[0]}-{self.config.seed}"
            if self.id != expected:
                raise ValueError(f"a single-module mission's id must be {expected!r}")
        elif not self.id.isdigit():
            raise ValueError(f"a multi-module mission's id is a number, not {self.id!r}")
        return self

    @property
    def module_titles(self) -> list[str]:
        """The modules by their manual names, in component order."""
        return [kind_title(name) for name in self.config.components]


def missions_dir() -> Path:
    """``$GPTNT_MISSIONS_DIR`` if set, else the repository's ``missions/``."""
    return Path(os.environ.get(MISSIONS_DIR_ENV) or DEFAULT_MISSIONS_DIR)


def _describe(err: ValidationError) -> str:
    """The first problem as ``field: reason``, the field path dotted (``config.timeLimit``)."""
    return first_problem(err, whole="file")


def _read_json(path: Path) -> object:
    try:
        return read_json(path, strict_json, limit=MAX_JSON_BYTES)
    except UnreadableError as err:
        raise MissionError(f"{err}; fix or remove it") from None


# Folders of missions/ that hold something else: suites, and SANZARU's puzzle instances.
_NOT_MISSIONS = frozenset({"suites", "sanzaru"})


def _mission_files(directory: Path | None) -> list[Path]:
    """The mission files of ``directory``; with none given, of the missions directory and the
    user's own (``gptnt.resources.user_dir() / "missions"``, when it exists)."""
    roots = [Path(directory)] if directory is not None else [missions_dir()]
    if directory is None and (resources.user_dir() / "missions").is_dir():
        roots.append(resources.user_dir() / "missions")
    if not roots[0].is_dir():
        raise MissionError(f"missions directory {roots[0]} does not exist")
    for root in roots:
        # A mission lives in a group folder; one at a root's top would be silently ignored.
        loose = sorted(root.glob("*.json"))
        if loose:
            raise MissionError(
                f"{loose[0]}: a mission file must sit in a group folder; move it to "
                f"{root / 'mine' / loose[0].name}"
            )
    return [
        path
        for root in roots
        for path in sorted(root.glob("*/*.json"))
        if path.parent.name not in _NOT_MISSIONS
    ]


def mission_paths(directory: Path | None = None) -> dict[str, Path]:
    """Mission files by id (the file stem), without reading them: one broken file then breaks
    only the commands that need it. An id found twice is an error naming both files."""
    paths: dict[str, Path] = {}
    for path in _mission_files(directory):
        if path.stem in paths:
            raise MissionError(
                f"{path}: mission {path.stem!r} is already defined by {paths[path.stem]}; "
                "rename one of them"
            )
        paths[path.stem] = path
    return paths


def load_mission_file(path: Path) -> Mission:
    """Read and validate one mission file; its id must equal the file name."""
    data = _read_json(path)
    try:
        mission = Mission.model_validate(data)
    except ValidationError as err:
        raise MissionError(f"{path}: {_describe(err)}") from None
    if mission.id != path.stem:
        raise MissionError(f"{path}: id: {mission.id!r} must equal the file name {path.stem!r}")
    return mission


def load_missions(directory: Path | None = None) -> dict[str, Mission]:
    """Every mission under ``directory`` (default: the packaged missions and the user's) by id.

    Order: multi-module missions 1–10, then single-module ones grouped by module (in the
    protocol's module order) and seed.
    """
    missions = {key: load_mission_file(path) for key, path in mission_paths(directory).items()}
    return {m.id: m for m in sorted(missions.values(), key=_catalogue_key)}


def _catalogue_key(mission: Mission) -> tuple[int, int, int]:
    if mission.kind == "multi":
        return (0, int(mission.id), 0)
    module = mission.config.components[0]
    rank = MODULE_KINDS.index(module) if module in MODULE_KINDS else len(MODULE_KINDS)
    return (1, rank, mission.config.seed)


def unknown_name(
    what: str, name: str, known: Iterable[str], *, listing: str = "gptnt missions list"
) -> MissionError:
    """An unknown-name error listing close matches (case-insensitive) and where to look."""
    by_lower = {k.lower(): k for k in known}
    close = difflib.get_close_matches(name.lower(), list(by_lower), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(by_lower[c] for c in close)}?" if close else ""
    return MissionError(f"unknown {what} {name!r}{hint} (see `{listing}`)")


def canonical_id(mission_id: str) -> str:
    """A single-module mission id as the catalogue spells it: its kind may be written by any of
    its names (``The Button-234``, ``button-234`` → ``BigButton-234``); other ids unchanged."""
    kind, dash, rest = mission_id.partition("-")
    named = kind_or_none(kind) if dash else None
    return f"{named}-{rest}" if named is not None else mission_id


def get_mission(mission_id: str, directory: Path | None = None) -> Mission:
    """One mission by id (see ``canonical_id``), reading only its file; an unknown id names
    close matches."""
    paths = mission_paths(directory)
    path = paths.get(mission_id) or paths.get(canonical_id(mission_id))
    if path is None:
        raise unknown_name("mission", mission_id, paths)
    return load_mission_file(path)


FRESH_SEED_BASE = 100_000
"""Seeds of fresh bombs start here: far from the missions' own (234…960)."""


def fresh_missions(missions: Iterable[Mission], bombs: int) -> list[Mission]:
    """Per module type of ``missions``, ``bombs`` copies of its first mission with fresh seeds
    (ids ``<Kind>-fresh-<seed>``): other draws of the same generation, same settings."""
    first: dict[str, Mission] = {}
    for m in missions:
        first.setdefault(m.config.components[0], m)
    return [
        m.model_copy(update={"id": f"{kind}-fresh-{seed}",
                             "config": m.config.model_copy(update={"seed": seed})})
        for kind, m in first.items()
        for seed in range(FRESH_SEED_BASE, FRESH_SEED_BASE + bombs)
    ]  # fmt: skip
