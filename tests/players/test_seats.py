"""Who sits in each seat: scripted names, config names, YAML paths, model strings, solo."""

from __future__ import annotations

from pathlib import Path

import pytest

from gptnt.errors import ConfigError, PlayerConfigError
from gptnt.manual import PAPER_PAGES
from gptnt.players.model import ModelPolicy
from gptnt.players.scripted import SCRIPTED, OracleExpert
from gptnt.players.seats import SCRIPTED_NAMES, build_policy, resolve_lineup, resolve_seat


def test_scripted_names_match_the_scripted_table() -> None:
    assert {r: set(n) for r, n in SCRIPTED_NAMES.items()} == {
        r: set(k) for r, k in SCRIPTED.items()
    }


def test_every_kind_of_reference(tmp_path: Path) -> None:
    assert resolve_seat("expert", "idle").kind == "scripted"
    named = resolve_seat("defuser", "gpt-5-2")
    assert (named.kind, named.seat, named.name, named.manual) == (
        "model",
        "defuser",
        "gpt-5-2",
        None,
    )
    path = tmp_path / "p.yaml"
    path.write_text("model: vllm:m\nbase_url: http://127.0.0.1:9/v1\n")
    assert resolve_seat("defuser", str(path)).config.model == "vllm:m"
    assert resolve_seat("defuser", "openai:gpt-4o").config.model_name == "gpt-4o"


def test_unknown_reference_is_one_line_naming_the_choices() -> None:
    with pytest.raises(PlayerConfigError) as err:
        resolve_seat("expert", "chaos")
    text = str(err.value)
    assert "\n" not in text and "--expert 'chaos'" in text
    assert (
        "oracle, idle, random" in text and "claude-sonnet-4-6" in text and "provider:model" in text
    )


def test_expert_gets_the_manual_identity() -> None:
    expert = resolve_seat("expert", "openai:gpt-4o")
    assert expert.manual == "generated"
    assert expert.manual_identity and expert.manual_identity.startswith("generated:rule-seed-1:")


def test_bad_manual_path(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="manual="):
        resolve_seat("expert", "openai:gpt-4o", manual=str(tmp_path / "none"))


def test_solo_lineups() -> None:
    solo, expert = resolve_lineup(None, None, solo="gpt-5-2")
    assert expert is None and solo.seat == "solo" and solo.manual_identity
    assert "solo" in solo.label
    bare, _ = resolve_lineup(None, None, solo="gpt-5-2", no_manual=True)
    assert bare.seat == "solo-no-manual" and bare.manual is None
    with pytest.raises(PlayerConfigError, match="--solo"):
        resolve_lineup("oracle", None, solo="gpt-5-2")
    with pytest.raises(PlayerConfigError, match="--no-manual"):
        resolve_lineup("gpt-5-2", "gpt-5-2", no_manual=True)
    with pytest.raises(PlayerConfigError, match="--solo 'idle'"):
        resolve_lineup(None, None, solo="idle")  # an Expert-only policy cannot sit alone
    alone, _ = resolve_lineup(None, None, solo="oracle", no_manual=True)
    assert (alone.kind, alone.seat) == ("scripted", "solo-no-manual")
    assert type(build_policy(alone)).__name__ == "OracleSolo"


def test_choices_survive_json_and_build_policies(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text("model: vllm:m\nbase_url: http://127.0.0.1:8/v1\n")
    defuser, expert = resolve_lineup(None, str(path), manual="generated")
    assert type(build_policy(defuser)).__name__ == "OracleDefuser"
    assert isinstance(build_policy(resolve_seat("expert", "oracle")), OracleExpert)
    again = type(expert).model_validate_json(expert.model_dump_json())
    assert again == expert
    config = again.config.model_copy(update={"base_url": "http://127.0.0.1:9/v1"})
    policy = build_policy(again.model_copy(update={"config": config}))
    assert isinstance(policy, ModelPolicy) and policy.seat == "expert"
    first = policy.conversation.request("hi")
    assert f"Manual page {PAPER_PAGES[0]}:" in first.messages[0].parts[1].text
