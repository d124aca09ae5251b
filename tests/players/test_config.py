"""Player configs: the paper's five models, model strings, and clear errors."""

from __future__ import annotations

import pytest

from gptnt.errors import PlayerConfigError
from gptnt.players.config import CONFIGS_DIR, load_player_config


@pytest.mark.parametrize(
    ("name", "size"),
    [("claude-sonnet-4-6", (640, 480)), ("gpt-5-2", (640, 480)), ("gemini-3-flash", (640, 480)),
     ("qwen3-5-27b", (448, 448)), ("internvl3-5-38b", (504, 504))],
)  # fmt: skip
def test_paper_models(name: str, size: tuple[int, int]) -> None:
    config = load_player_config(name)
    assert config.name == name and config.image_size == size
    # GPT-5.2 is a reasoning model: OpenAI accepts no temperature for it, so none is sent.
    temperature = None if name == "gpt-5-2" else 0.6
    assert (config.temperature, config.max_tokens, config.interaction) == (
        temperature,
        1000,
        "set-of-marks",
    )
    assert config.input_limit and config.tokens_per_image


def test_by_path_and_by_model_string(tmp_path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("model: openai:gpt-4o-mini\ninteraction: coordinates\ncoordinates: scaled\n")
    config = load_player_config(str(path))
    assert config.name == "mine" and config.interaction_spec.coordinates == "scaled"
    assert load_player_config("anthropic:claude-haiku-4-5").model_name == "claude-haiku-4-5"


def test_errors_name_the_field(tmp_path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("model: openai:gpt\ntemperature: 9\n")
    with pytest.raises(PlayerConfigError, match="temperature"):
        load_player_config(str(path))
    with pytest.raises(PlayerConfigError, match="provider"):
        load_player_config(str(tmp_path / "x.yaml").replace("x.yaml", "nope"), tmp_path)
    path.write_text("model: nowhere:gpt\n")
    with pytest.raises(PlayerConfigError, match="model"):
        load_player_config(str(path))


def test_configs_dir_holds_the_five() -> None:
    assert len(list(CONFIGS_DIR.glob("*.yaml"))) >= 5
