"""A suite file: which missions, in which modes, how often, by whom, under which ablation.

``missions/suites/<name>.json`` (or ``.yaml``), or any file passed by path::

    {
      "name": "cross-play",
      "description": "...",
      "missions": ["@single"],          # ids, or "@<suite>" for another suite's missions
      "modes": ["sync"],
      "repeats": 1,                     # episodes per mission, mode and pairing
      "pairings": "cross",              # self | cross | solo
      "players": ["oracle", "random"],  # the default players (``--players`` overrides)
      "no_manual": false,               # solo only: play without the manual
      "manual": "paper",                # official if imported, else generated
      "time_factors": [1.0],            # the missions' time limits scaled by each factor
      "rule_seeds": [1]
    }

``self``: each player is both Defuser and Expert (the paper's self-play); ``cross``: every
Defuser × Expert ordered pairing over the players, self-pairings included (its Section 7.1
grid); ``solo``: each player alone with the bomb, and the manual unless ``no_manual`` (its
Table 11 ablations).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from gptnt.bounded import MAX_REPEATS, RuleSeed, read_json_or_yaml
from gptnt.errors import MissionError, UnreadableError, first_problem
from gptnt.missions import load_mission_file, mission_paths, missions_dir, unknown_name
from gptnt.protocol import Mode

Pairings = Literal["self", "cross", "solo"]
SUFFIXES = (".json", ".yaml", ".yml")


class Suite(BaseModel):
    """One suite, as written in its file (``missions`` may still name other suites)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    description: str = ""
    missions: list[str] = Field(min_length=1, description="Mission ids or '@suite', in order.")
    modes: list[Mode] = Field(min_length=1)
    repeats: int = Field(1, ge=1, le=MAX_REPEATS)
    pairings: Pairings = "self"
    players: list[str] = Field(default_factory=lambda: ["oracle"], min_length=1)
    no_manual: bool = False
    manual: str = "paper"
    """The manual an Expert or solo model reads: ``paper`` (the imported official manual when
    there is one, else the generated one, said in one line), ``official``, ``generated`` or
    a manual directory (``gptnt.manual.resolve_source``)."""
    time_factors: list[float] = Field(default_factory=lambda: [1.0], min_length=1)
    rule_seeds: list[RuleSeed] = Field(default_factory=lambda: [1], min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> Suite:
        if self.no_manual and self.pairings != "solo":
            raise ValueError("no_manual needs pairings 'solo' (an Expert must read the manual)")
        if any(not 0.05 <= f <= 20 for f in self.time_factors):
            raise ValueError("time_factors must lie between 0.05 and 20")
        return self


def suites_dir(directory: Path | None = None) -> Path:
    return Path(directory or missions_dir()) / "suites"


def suite_names(directory: Path | None = None) -> list[str]:
    return sorted(p.stem for p in suites_dir(directory).iterdir() if p.suffix in SUFFIXES)


def _read(path: Path) -> object:
    try:
        return read_json_or_yaml(path)
    except UnreadableError as err:
        raise MissionError(str(err)) from None


def suite_path(ref: str, directory: Path | None = None) -> Path:
    """The file of a suite named ``ref``, or ``ref`` itself when it is a suite file's path."""
    path = Path(ref)
    if path.suffix in SUFFIXES:
        if not path.is_file():
            raise MissionError(f"suite file {ref} does not exist")
        return path
    for suffix in SUFFIXES:
        candidate = suites_dir(directory) / f"{ref}{suffix}"
        if candidate.is_file():
            return candidate
    raise unknown_name("suite", ref, suite_names(directory), listing="gptnt suite list")


def load_suite(ref: str, directory: Path | None = None) -> Suite:
    """A suite by name or path, its ``@suite`` references expanded; every mission must exist."""
    return _load(ref, directory, seen=())


def _load(ref: str, directory: Path | None, seen: tuple[str, ...]) -> Suite:
    path = suite_path(ref, directory)
    try:
        suite = Suite.model_validate(_read(path))
    except ValidationError as err:
        raise MissionError(f"{path}: {first_problem(err, whole='file')}") from None
    if path.parent == suites_dir(directory) and suite.name != path.stem:
        raise MissionError(f"{path}: name: {suite.name!r} must equal the file name {path.stem!r}")
    catalogue = mission_paths(directory)
    missions: list[str] = []
    for i, item in enumerate(suite.missions):
        if item.startswith("@"):
            other = item[1:]
            if other in (*seen, suite.name):
                raise MissionError(f"{path}: missions.{i}: {item!r} refers back to itself")
            try:
                missions += _load(other, directory, (*seen, suite.name)).missions
            except MissionError as err:
                raise MissionError(f"{path}: missions.{i}: {err}") from None
        elif item in catalogue:
            load_mission_file(catalogue[item])  # each mission it plays, and only those, must load
            missions.append(item)
        else:
            raise MissionError(f"{path}: missions.{i}: {unknown_name('mission', item, catalogue)}")
    return suite.model_copy(update={"missions": list(dict.fromkeys(missions))})
