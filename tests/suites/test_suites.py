"""Suites as data: the shipped grid, the file format's errors, and the run-control flags."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gptnt.errors import ConfigError, MissionError
from gptnt.suites import Selection, expand, load_suite, suite_names


def test_the_paper_grid_is_shipped() -> None:
    assert set(suite_names()) >= {
        "multi", "single", "cross-play", "solo", "solo-no-manual", "parametric-time",
    }  # fmt: skip
    multi, single = load_suite("multi"), load_suite("single")
    assert multi.missions == [str(i) for i in range(1, 11)]
    assert len(single.missions) == 110 == len(set(single.missions))
    assert multi.modes == ["sync", "async"] == single.modes
    # "@single" expands to the single suite's missions, in order.
    assert load_suite("cross-play").missions == single.missions
    eps = expand(load_suite("cross-play"), Selection(players=["a:x", "b:y", "c:z"]))
    assert len(eps) == 110 * 9 and {e.pairing for e in eps} == {
        f"{d}/{e}" for d in ("a:x", "b:y", "c:z") for e in ("a:x", "b:y", "c:z")
    }
    solo = expand(load_suite("solo-no-manual"))
    assert len(solo) == 110 and all(e.solo and e.no_manual for e in solo)
    timed = expand(load_suite("parametric-time"))
    assert len(timed) == 110 * 2 * 3
    assert sorted({e.time_factor for e in timed}) == [0.5, 1.0, 2.0]


def test_run_control_flags() -> None:
    cross = load_suite("cross-play")
    only = expand(cross, Selection(only=["Keypad", "Keypad-234", "Wires-234", "oracle/random"]))
    assert [(e.mission_id, e.pairing) for e in only] == [("Keypad-234", "oracle/random")]
    wires = expand(cross, Selection(only=["Wires", "random/random"]))
    assert len(wires) == 10 and all(e.mission_id.startswith("Wires-") for e in wires)
    assert len(expand(cross, Selection(limit=7))) == 7
    # Play order is mission by mission: a limit keeps the pairings compared on the same missions.
    first = expand(cross, Selection(limit=4))
    assert {e.mission_id for e in first} == {"Wires-234"}
    assert sorted(e.pairing for e in first) == [
        "oracle/oracle", "oracle/random", "random/oracle", "random/random",
    ]  # fmt: skip
    contrast = expand(load_suite("contamination"), Selection(limit=4))
    assert len({e.mission_id for e in contrast}) == 1
    assert sorted({e.rule_seed for e in contrast}) == [1, 1764]
    three = expand(cross, Selection(only=["Wires-234"], repeats=3))
    assert sorted({e.repeat for e in three}) == [0, 1, 2] and len(three) == 12
    alone = expand(cross, Selection(only=["Wires-234"], no_manual=True, rule_seeds=[2]))
    assert [(e.pairing, e.no_manual, e.rule_seed) for e in alone] == [
        ("solo:oracle", True, 2), ("solo:random", True, 2),
    ]  # fmt: skip
    with pytest.raises(ConfigError, match=r"--only 'Wirez': not a module kind, mission id"):
        expand(cross, Selection(only=["Wirez"]))
    single = load_suite("single")
    # The paper's names pick the same episodes as the wire names, and an error lists them.
    button = expand(single, Selection(only=["BigButton"]))
    assert button and expand(single, Selection(only=["The Button"])) == button
    assert expand(single, Selection(only=["button"])) == button
    venn = expand(single, Selection(only=["Complicated Wires"]))
    assert venn and all(e.mission_id.startswith("Venn-") for e in venn)
    with pytest.raises(ConfigError, match=r"module kinds: Wires, The Button, .*Complicated Wires"):
        expand(single, Selection(only=["Buton"]))
    with pytest.raises(ConfigError, match="--modes: async not among"):
        expand(cross, Selection(modes=["async"]))


def _write(folder: Path, name: str, body: dict) -> Path:
    path = folder / f"{name}.json"
    path.write_text(json.dumps({"name": name, **body}))
    return path


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"missions": ["3", "Wires-999"], "modes": ["sync"]},
         r"missions\.1: unknown mission 'Wires-999'"),
        ({"missions": ["3"], "modes": ["turbo"]}, r"modes\.0: Input should be 'sync'"),
        ({"missions": ["3"], "modes": ["sync"], "no_manual": True},
         "no_manual needs pairings 'solo'"),
        ({"missions": ["3"], "modes": ["sync"], "pairings": "all"}, "pairings: Input should be"),
        ({"missions": ["@mine"], "modes": ["sync"]}, r"missions\.0: '@mine' refers back"),
        ({"missions": ["3"], "modes": ["sync"], "time_factors": [0]}, "time_factors must lie"),
        ({"missions": ["3"], "modes": ["sync"], "colour": "red"}, "colour: Extra inputs"),
    ],
)  # fmt: skip
def test_a_bad_suite_file_names_the_field(tmp_path: Path, body: dict, message: str) -> None:
    path = _write(tmp_path, "mine", body)
    with pytest.raises(MissionError) as info:
        load_suite(str(path))
    text = str(info.value)
    assert text.startswith(str(path)) and "\n" not in text
    assert __import__("re").search(message, text), text


def test_unknown_suite_names_close_matches() -> None:
    with pytest.raises(
        MissionError, match=r"unknown suite 'singel'; did you mean single.*suite list"
    ):
        load_suite("singel")
    with pytest.raises(MissionError, match="suite file nowhere.yaml does not exist"):
        load_suite("nowhere.yaml")


def test_yaml_suite_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("name: mine\nmissions: ['@multi', Wires-234]\nmodes: [async]\n"
                    "pairings: solo\nplayers: [oracle, random]\n")  # fmt: skip
    eps = expand(load_suite(str(path)))
    assert len(eps) == 22 and eps[0].pairing == "solo:oracle" and eps[-1].mission_id == "Wires-234"
