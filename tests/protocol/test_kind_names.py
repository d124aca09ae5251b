"""A kind by every name a researcher reads for it (review of issue 29): the paper's, the wire
name, and the official manual's section titles, which are plural ("On the Subject of Mazes",
"Wire Sequences", "Keypads"); and a single-module mission id written with any of them."""

from __future__ import annotations

import pytest

from gptnt.errors import ConfigError
from gptnt.missions import get_mission
from gptnt.protocol import KINDS, module_kind


@pytest.mark.parametrize(
    ("name", "kind"),
    [("Mazes", "Maze"), ("Wire Sequences", "WireSequence"), ("Keypads", "Keypad"),
     ("Passwords", "Password"), ("Password", "Password"), ("Wire", "Wires"),
     ("Morse Code", "Morse"), ("The Buttons", "BigButton")],
)  # fmt: skip
def test_plural_and_singular_names_are_one_kind(name: str, kind: str) -> None:
    assert module_kind(name) == kind


def test_no_two_kinds_share_a_folded_name() -> None:
    names = [n for s in KINDS for n in (s.name, s.title, s.mod_title, s.stem)]
    kinds = {module_kind(n) for n in names}
    assert len(kinds) == len(KINDS)
    with pytest.raises(ConfigError, match="The Button \\(BigButton\\)"):
        module_kind("Needy Knob")


@pytest.mark.parametrize("written", ["The Button-234", "button-234", "BigButton-234"])
def test_a_single_module_mission_id_takes_any_name_of_its_kind(written: str) -> None:
    assert get_mission(written).id == "BigButton-234"


def test_only_takes_a_mission_id_written_with_the_papers_name() -> None:
    from gptnt.suites import Selection, expand, load_suite

    episodes = expand(load_suite("single"), Selection(only=["The Button-234"], players=["oracle"]))
    assert {e.mission_id for e in episodes} == {"BigButton-234"}
