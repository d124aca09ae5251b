"""Every seat × mode × interaction method assembles, and offers exactly its own commands."""

from __future__ import annotations

import itertools
import re

import pytest

from gptnt.errors import ConfigError
from gptnt.players.actions import Interaction
from gptnt.players.prompts import (
    ACTORS,
    COMPONENTS,
    PROMPTS_DIR,
    SEATS,
    TALKERS,
    PromptSpec,
    allowed_kinds,
    components,
    system_prompt,
)
from gptnt.protocol import MODES

INTERACTIONS = [
    Interaction("set-of-marks"),
    Interaction("coordinates", "absolute", (640, 480)),
    Interaction("coordinates", "scaled", (448, 448)),
    Interaction("coordinates", "relative", (504, 504)),
]
COMBOS = list(itertools.product(SEATS, MODES, INTERACTIONS))


@pytest.mark.parametrize(("seat", "mode", "interaction"), COMBOS)
def test_each_combination_assembles(seat, mode, interaction) -> None:
    text = system_prompt(PromptSpec(seat, mode, interaction))
    assert "$" not in text  # every placeholder filled
    kinds = allowed_kinds(seat)
    for kind in ("interact_game", "send_message", "do_nothing"):
        assert (kind in text) == (kind in kinds), (seat, kind)
    assert "<thoughts>" in text and "<action>" in text
    acting = seat in ACTORS
    assert ("click_release" in text) == acting
    assert ("location marker" in text) == (acting and interaction.method == "set-of-marks")
    assert ('"x":' in text) == (acting and interaction.method == "coordinates")
    assert ("<no-new-messages/>" in text) == (seat in TALKERS)
    assert ("first message of this conversation" in text) == (seat in ("expert", "solo"))
    if acting:
        assert ("3 seconds of game time" in text) == (mode == "sync")
        assert ("real time" in text) == (mode == "async")


def test_absolute_coordinates_name_the_image_size() -> None:
    text = system_prompt(
        PromptSpec("defuser", "sync", Interaction("coordinates", "absolute", (448, 448)))
    )
    assert "448 × 448" in text and "447" in text


def test_every_component_file_exists_and_is_used() -> None:
    files = {c.file for c in COMPONENTS}
    assert files == {p.name for p in PROMPTS_DIR.glob("*.md")}
    used = {
        f
        for seat, mode, i in COMBOS
        for output in ("react", "tool")
        for f in components(PromptSpec(seat, mode, i, output=output))  # type: ignore[arg-type]
    }
    assert used == files


@pytest.mark.parametrize("seat", SEATS)
def test_tool_output_prompts_ask_for_one_tool_call_and_never_for_tags(seat) -> None:
    """``output: tool``: the same commands, given as tool calls; no word of the text format's
    tags (which a tool player is never parsed for)."""
    text = system_prompt(PromptSpec(seat, "sync", output="tool"))
    assert "<thoughts>" not in text and "<action>" not in text
    assert "Exactly one tool call per response" in text
    for kind in allowed_kinds(seat):
        assert f"`{kind}`" in text


def test_prompts_do_not_repeat_the_format_sentence() -> None:
    """GPTNT's prompt said the format twice and contradicted itself."""
    text = system_prompt(PromptSpec("defuser"))
    assert len(re.findall(r"exactly one command", text)) == 1
    assert "entire response" not in text.lower()


def test_unknown_seat_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="seat"):
        system_prompt(PromptSpec("spectator"))  # type: ignore[arg-type]


def test_bad_placeholder_names_the_file(tmp_path) -> None:
    for c in COMPONENTS:
        (tmp_path / c.file).write_text("plain")
    (tmp_path / "reasoning.md").write_text("uses $nope")
    with pytest.raises(ConfigError, match="reasoning.md"):
        system_prompt(PromptSpec("expert"), tmp_path)
