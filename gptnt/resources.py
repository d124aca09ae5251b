"""Where the project's data folders are: the one place that knows.

Prompts, player configs, prices, missions, suites and the built manual are package data. An
installed wheel carries them under ``gptnt/_data/<folder>/`` (see setup.py); an editable install
or a checkout reads the repository's top-level folders of the same names.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

FOLDERS = ("prompts", "configs", "missions", "manual")


def data_dir(folder: str) -> Path:
    """The packaged data folder ``folder`` (one of FOLDERS), wheel or checkout."""
    if folder not in FOLDERS:
        raise ValueError(f"unknown data folder {folder!r}; one of {', '.join(FOLDERS)}")
    packaged = Path(str(files("gptnt"))) / "_data" / folder
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / folder


def prompts_dir() -> Path:
    return data_dir("prompts")


def configs_dir() -> Path:
    return data_dir("configs")


def missions_dir() -> Path:
    return data_dir("missions")


def manual_dir() -> Path:
    """The built manual of the default ruleset (text and page images)."""
    return data_dir("manual")
