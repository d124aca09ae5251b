"""Where the project's data folders are: the one place that knows.

Prompts, player configs, prices, missions, suites and the built manual are package data. An
installed wheel carries them under ``gptnt/_data/<folder>/`` (see setup.py); an editable install
or a checkout reads the repository's top-level folders of the same names.

A user adds missions and player configs of their own without touching the package: the user
folder (``$GPTNT_HOME``, default ``~/.config/gptnt``) may hold ``missions/<group>/<id>.json``
and ``configs/players/<name>.yaml``. User missions join the packaged ones (an id defined in both
is an error naming both files); a user player config of a packaged name is the one used, so a
lab can pin its own settings under a familiar name.
"""

from __future__ import annotations

import os
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


HOME_ENV = "GPTNT_HOME"


def user_dir() -> Path:
    """The user's own folder of missions and player configs (``$GPTNT_HOME``)."""
    home = os.environ.get(HOME_ENV)
    return Path(home).expanduser() if home else Path.home() / ".config" / "gptnt"


def player_config_dirs() -> list[Path]:
    """Where named player configs are looked up, first match wins: the user's, then ours."""
    return [user_dir() / "configs" / "players", configs_dir() / "players"]
