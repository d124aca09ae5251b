"""Who's on First rules: Appendix C vector, table completeness, solve/mistakes, emerging state."""

from __future__ import annotations

import pytest

from gptnt.errors import ConfigError
from gptnt.protocol import WhosOnFirstModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._steps import Press
from gptnt.rules.modules.whos_on_first import V1, button_to_press, elements, mistakes, solve

EDGE = Edgework(serial="AB1CD2")


def test_appendix_c_ur_reads_top_left() -> None:
    buttons = ["DONE", "UH HUH", "U", "NEXT", "LIKE", "HOLD"]  # no SURE
    assert button_to_press("UR", buttons, V1) == 1  # DONE's list: SURE (absent), UH HUH
    m = WhosOnFirstModule(on_front=True, index=0, display_word="UR", button_words=buttons, stage=1)
    assert solve(m, EDGE, V1, strikes=0) == [Press("button-1")]
    assert len(mistakes(m, EDGE, V1, strikes=0)) == 5
    assert elements(m) == [f"button-{i}" for i in range(6)]


def test_empty_display_is_not_blank() -> None:
    buttons = ["READY", "FIRST", "NO", "BLANK", "NOTHING", "YES"]
    assert V1.display_position[""] == 4 and V1.display_position["BLANK"] == 3
    # "" reads BL = NOTHING → UHHH (absent), RIGHT (absent), OKAY (absent), MIDDLE (absent), YES
    assert button_to_press("", buttons, V1) == 5


def test_tables_are_complete() -> None:
    assert len(V1.display_words) == 28
    groups = V1.button_groups
    assert len(groups) == 2 and all(len(g) == 14 for g in groups)
    for label, words in V1.priority.items():
        group = next(g for g in groups if label in g)
        assert sorted(words) == sorted(group), label


def test_emerging_state_has_no_step_and_bad_display_is_refused() -> None:
    m = WhosOnFirstModule(on_front=True, index=0, stage=2, is_emerged=False)
    assert solve(m, EDGE, V1, strikes=0) == [] and mistakes(m, EDGE, V1, strikes=0) == []
    with pytest.raises(ConfigError, match="display_word"):
        button_to_press("BANANA", ["YES"] * 6, V1)
