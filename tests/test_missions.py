"""The mission catalogue: the paper's 120 missions as data, and the loader's errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gptnt.errors import MissionError
from gptnt.missions import (
    DEFAULT_MISSIONS_DIR,
    get_mission,
    load_mission_file,
    load_missions,
)
from gptnt.protocol import MODULE_KINDS

SEEDS = [234, 286, 337, 561, 563, 798, 813, 845, 849, 960]

# Paper Table B.14 (numbering) with the GPTNT spec files it maps to (docs/protocol.md §5.3).
MULTI = {
    "1": (110, 300, {"Keypad", "Wires", "Maze"}),
    "2": (798, 300, {"Wires", "BigButton", "Keypad", "Memory"}),
    "3": (851, 300, {"Wires", "Keypad", "Simon", "WhosOnFirst"}),
    "4": (412, 180, {"Keypad", "Simon", "WhosOnFirst"}),
    "5": (526, 180, {"Wires", "Maze", "Memory"}),
    "6": (619, 180, {"BigButton", "Memory", "WhosOnFirst"}),
    "7": (286, 300, {"WhosOnFirst", "Memory", "Password"}),
    "8": (337, 300, {"BigButton", "Simon", "Venn"}),
    "9": (990, 300, {"Morse", "Venn", "WhosOnFirst", "Wires"}),
    "10": (1028, 300, {"Keypad", "Maze", "Password", "WireSequence"}),
}

# Per-module factors of the paper's Table B.15 formula, as docs/protocol.md §5.2 lists them:
# (max actions, stages, side info).
FACTORS = {
    "Wires": (1, 1, 1),
    "BigButton": (11, 2, 2),
    "Keypad": (4, 1, 0),
    "Simon": (15, 5, 1),
    "WhosOnFirst": (3, 3, 0),
    "Memory": (5, 5, 0),
    "Morse": (22, 1, 0),
    "Venn": (6, 1, 2),
    "WireSequence": (16, 4, 0),
    "Maze": (35, 1, 0),
    "Password": (51, 1, 0),
}


def _b15_time_limit(module: str, *, back_placement: bool) -> int:
    """Seconds = 3 × turns (paper Table B.15), one module."""
    actions, stages, side = FACTORS[module]
    rotations = min(max(side, 1), 4)
    turns = actions + stages + 8 * rotations + (8 if back_placement else 0)
    turns += 2 * (1 + rotations) + 3 + 10
    return 3 * turns


def test_catalogue_has_120_missions_in_order() -> None:
    missions = load_missions()
    assert len(missions) == 120
    assert list(missions)[:10] == [str(i) for i in range(1, 11)]
    single = [m for m in missions.values() if m.kind == "single"]
    assert [m.id for m in single] == [f"{k}-{s}" for k in MODULE_KINDS for s in SEEDS]


@pytest.mark.parametrize("mission_id", list(MULTI))
def test_multi_module_missions_follow_table_b14(mission_id: str) -> None:
    seed, limit, modules = MULTI[mission_id]
    config = get_mission(mission_id).config
    assert (config.seed, config.time_limit, set(config.components)) == (seed, limit, modules)
    assert (config.num_strikes, config.opt_widgets, config.needy_time) == (3, 5, 60)
    assert not config.is_front and config.time_step_size == 3000


def test_mission_3() -> None:
    mission = get_mission("3")
    assert mission.module_titles == ["Wires", "Keypad", "Simon Says", "Who's on First"]
    assert mission.config.time_limit == 300 and mission.level == "2.3"


def test_single_module_time_limits_follow_table_b15() -> None:
    for mission in load_missions().values():
        if mission.kind == "single":
            (module,) = mission.config.components
            assert mission.config.is_front
            assert mission.config.time_limit == _b15_time_limit(module, back_placement=False)


def test_single_module_widgets_table() -> None:
    widgets = [get_mission(f"Maze-{seed}").config.opt_widgets for seed in SEEDS]
    assert widgets == [2, 2, 2, 1, 1, 2, 5, 1, 4, 5]
    assert get_mission("Wires-286").config.opt_widgets == 5
    assert get_mission("BigButton-849").config.opt_widgets == 5


def test_unknown_ids_list_close_matches() -> None:
    with pytest.raises(MissionError, match=r"unknown mission 'wires-23'; did you mean Wires-234"):
        get_mission("wires-23")
    with pytest.raises(MissionError, match=r"^unknown mission 'zzz' \(see"):
        get_mission("zzz")


@pytest.fixture
def catalogue(tmp_path: Path) -> Path:
    """A writable copy of a few real mission files."""
    for sub, name in [("multi", "3.json"), ("single", "Wires-234.json")]:
        (tmp_path / sub).mkdir(exist_ok=True)
        shutil.copy(DEFAULT_MISSIONS_DIR / sub / name, tmp_path / sub / name)
    return tmp_path


def _edit(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_copy_loads(catalogue: Path) -> None:
    assert list(load_missions(catalogue)) == ["3", "Wires-234"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["config"].pop("timeLimit"), "config.timeLimit: Field required"),
        (lambda d: d["config"].update(numStrikes=0), "config.numStrikes: Input should be greater"),
        (lambda d: d["config"].update(components=["Wire"]), "config.components.0: Input should be"),
        (lambda d: d.update(kind="double"), "kind: Input should be 'multi' or 'single'"),
        (lambda d: d.update(colour="red"), "colour: Extra inputs are not permitted"),
        (lambda d: d.update(id="4"), "id: '4' must equal the file name '3'"),
        (lambda d: d.update(id="three"), "multi-module mission's id is a number"),
    ],
)
def test_malformed_file_names_file_field_and_reason(catalogue: Path, change, message: str) -> None:
    path = catalogue / "multi" / "3.json"
    _edit(path, change)
    with pytest.raises(MissionError) as info:
        load_missions(catalogue)
    text = str(info.value)
    assert text.startswith(f"{path}: ") and message in text and "\n" not in text


def test_single_mission_id_must_match_module_and_seed(catalogue: Path) -> None:
    path = catalogue / "single" / "Wires-234.json"
    _edit(path, lambda d: d["config"].update(seed=235))
    with pytest.raises(MissionError, match="id must be 'Wires-235'"):
        load_mission_file(path)


def test_invalid_json(catalogue: Path) -> None:
    path = catalogue / "multi" / "3.json"
    path.write_text('{"id": "3",\n  "kind": }')
    with pytest.raises(MissionError, match=r"3\.json: not valid JSON \(line 2, column 11"):
        load_missions(catalogue)


def test_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(MissionError, match="does not exist"):
        load_missions(tmp_path / "nowhere")
