"""Saving, loading and selecting manuals."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gptnt.errors import ConfigError
from gptnt.manual import PLAYER_PAGE_HEIGHTS, Manual, load_manual, save
from gptnt.manual._generate import outline_text
from gptnt.rules.ruleset import ruleset


def test_generated_identity_names_seed_and_hash(v1_manual: Manual) -> None:
    assert re.fullmatch(r"generated:rule-seed-1:[0-9a-f]{16}", v1_manual.identity)
    assert load_manual("generated", rule_seed=1) is v1_manual  # typeset once per process
    assert v1_manual.kind == "generated" and v1_manual.rule_seed == 1


def test_without_word_pools_a_seeded_manual_has_no_rules_for_morse_and_passwords(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("GPTNT_RULESEED_POOLS", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # no imported pools either
    rules = ruleset(999)
    assert rules.missing == ("Morse", "Password")
    text = outline_text(rules)
    assert "Module: Wires" in text and "blinks a word in Morse code" not in text
    # the pages stay (the structure is the official one), each saying the rule set has none
    for title in ("Morse Code", "Passwords"):
        assert f"Bombs of this rule set carry no {title} module, so this page holds no" in text
    assert "Bombs of this rule set carry no Morse Code or Passwords module" in text


def test_round_trip_through_a_directory(v1_manual: Manual, tmp_path: Path) -> None:
    index = save(v1_manual, tmp_path / "m", heights=(640,))
    data = json.loads(index.read_text())
    assert data["identity"] == v1_manual.identity and len(data["pages"]) == len(v1_manual.pages)
    loaded = load_manual(tmp_path / "m", rule_seed=1)
    assert loaded.identity == v1_manual.identity
    assert [p.text for p in loaded.pages] == [p.text for p in v1_manual.pages]
    page = loaded.pages[0]
    assert page.png() == v1_manual.pages[0].png()
    assert set(page.images) == {1754, 640}
    for h in PLAYER_PAGE_HEIGHTS:  # stored or resized on demand
        assert page.image(h).size == (round(1240 * h / 1754), h)


def test_a_generated_directory_must_match_the_game_rule_seed(
    v1_manual: Manual, tmp_path: Path
) -> None:
    save(v1_manual, tmp_path / "m", heights=())
    with pytest.raises(ConfigError, match="rule seed 1 but the game uses rule seed 2"):
        load_manual(tmp_path / "m", rule_seed=2)


def test_missing_or_broken_directories_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="manual.json"):
        load_manual(tmp_path / "nowhere")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "manual.json").write_text("{}")
    with pytest.raises(ConfigError, match="not a valid manual index"):
        load_manual(tmp_path / "bad")


def test_saving_over_an_existing_manual_replaces_it(v1_manual: Manual, tmp_path: Path) -> None:
    out = tmp_path / "m"
    save(v1_manual, out, heights=())
    (out / "stale.txt").write_text("old")
    save(v1_manual, out, heights=())
    assert not (out / "stale.txt").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp left


def test_a_foreign_directory_is_not_overwritten(v1_manual: Manual, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match="not a manual directory"):
        save(v1_manual, tmp_path, heights=())
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_the_committed_manual_is_up_to_date(v1_manual: Manual) -> None:
    committed = Path(__file__).resolve().parents[2] / "manual"
    assert load_manual(committed, rule_seed=1).identity == v1_manual.identity, (
        "manual/ is stale: run `gptnt manual build` and commit it"
    )
