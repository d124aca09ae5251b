"""The data folders are found through gptnt.resources only, and a user's own folder adds
missions and player configs without touching the package."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gptnt import resources
from gptnt.errors import MissionError
from gptnt.missions import get_mission, load_missions
from gptnt.players.config import load_player_config


def _user(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv(resources.HOME_ENV, str(tmp_path))
    return tmp_path


def _mission(folder: Path, mission_id: str, source: dict[str, object]) -> Path:
    path = folder / "missions" / "mine" / f"{mission_id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**source, "id": mission_id}))
    return path


def test_every_data_folder_is_found_and_holds_its_files() -> None:
    assert (resources.prompts_dir()).is_dir() and any(resources.prompts_dir().glob("*.md"))
    assert (resources.configs_dir() / "prices.yaml").is_file()
    assert (resources.missions_dir() / "suites").is_dir()
    assert (resources.manual_dir() / "manual.json").is_file()
    with pytest.raises(ValueError, match="unknown data folder"):
        resources.data_dir("secrets")


def test_a_users_mission_joins_the_catalogue(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    packaged = load_missions()
    source = json.loads((resources.missions_dir() / "single" / "Wires-234.json").read_text())
    source["config"]["seed"] = 999
    _mission(_user(monkeypatch, tmp_path), "Wires-999", source)
    assert set(load_missions()) == set(packaged) | {"Wires-999"}
    assert get_mission("Wires-999").config.seed == 999


def test_a_user_mission_may_not_shadow_a_packaged_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    source = json.loads((resources.missions_dir() / "multi" / "3.json").read_text())
    clash = _mission(_user(monkeypatch, tmp_path), "3", source)
    with pytest.raises(MissionError, match=f"{clash}: mission '3' is already defined by"):
        get_mission("3")


def test_a_user_mission_outside_a_group_folder_is_refused_not_ignored(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    source = json.loads((resources.missions_dir() / "single" / "Wires-234.json").read_text())
    loose = _user(monkeypatch, tmp_path) / "missions" / "Wires-998.json"
    loose.parent.mkdir(parents=True)
    loose.write_text(json.dumps({**source, "id": "Wires-998"}))
    with pytest.raises(MissionError, match=f"{loose}: a mission file must sit in a group folder"):
        load_missions()


def test_a_users_player_config_is_found_by_name_and_wins(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    players = _user(monkeypatch, tmp_path) / "configs" / "players"
    players.mkdir(parents=True)
    (players / "lab-model.yaml").write_text("model: openai:lab-model\nname: lab\n")
    (players / "gpt-5-2.yaml").write_text("model: openai:gpt-5.2\nname: pinned\n")
    assert load_player_config("lab-model").name == "lab"
    assert load_player_config("gpt-5-2").name == "pinned"
