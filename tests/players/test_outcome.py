"""From text to a game action: labels not on screen and points off screen are errors."""

from __future__ import annotations

import numpy as np
import pytest

from gptnt.players import (
    DoNothing,
    InteractGame,
    Interaction,
    MarkLocation,
    PointLocation,
    interpret,
    to_game_action,
)
from gptnt.protocol import ActionKind
from gptnt.vision import build_marks


def _marks():
    mask = np.zeros((100, 200, 3), dtype=np.uint8)
    mask[10:30, 10:50] = (255, 0, 0)  # A
    mask[60:90, 120:190] = (0, 0, 255)  # B
    return build_marks(mask, np.zeros_like(mask), None)


def _say(kind: str, data: str) -> str:
    return (
        f'<thoughts>t</thoughts><action>{{"result": {{"kind": "{kind}", "data": {data}}}}}</action>'
    )


def test_mark_becomes_a_point_inside_the_element() -> None:
    marks = _marks()
    out = interpret(_say("interact_game", '{"action": "click_release", "location": "B"}'),
                    seat="defuser", marks=marks)  # fmt: skip
    assert out.game_action is not None and out.game_action.action == ActionKind.CLICK
    x, y = out.game_action.x_pos * 200, out.game_action.y_pos * 100
    assert 120 <= x < 190 and 60 <= y < 90
    assert out.feedback is None and not out.skipped


def test_label_not_on_screen_is_an_error_with_feedback() -> None:
    out = interpret(_say("interact_game", '{"action": "hold", "location": "Q"}'),
                    seat="defuser", marks=_marks())  # fmt: skip
    assert isinstance(out.chosen, InteractGame) and isinstance(out.action, DoNothing)
    assert out.skipped and out.game_action is None
    assert '"Q"' in out.feedback and "skipped" in out.feedback


def test_no_marks_at_all_is_an_error_too() -> None:
    out = interpret(_say("interact_game", '{"action": "click_release", "location": "A"}'),
                    seat="defuser", marks=None)  # fmt: skip
    assert out.skipped and [i.code for i in out.issues] == ["unknown_label"]


@pytest.mark.parametrize(
    ("system", "size", "point", "expected"),
    [
        ("absolute", (640, 480), (320, 240), (0.5, 0.5)),
        ("scaled", (448, 448), (250, 750), (0.25, 0.75)),
        ("relative", (504, 504), (0.1, 0.9), (0.1, 0.9)),
    ],
)
def test_coordinate_systems(system, size, point, expected) -> None:
    interaction = Interaction("coordinates", system, size)
    action = InteractGame(action="click_release", location=PointLocation(x=point[0], y=point[1]))
    wire = to_game_action(action, interaction, None)
    assert (wire.x_pos, wire.y_pos) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("system", "point"),
    [("absolute", (641, 10)), ("scaled", (1001, 3)), ("relative", (0.5, -0.1))],
)
def test_off_screen_points_are_errors(system, point) -> None:
    interaction = Interaction("coordinates", system, (640, 480))
    text = _say(
        "interact_game",
        f'{{"action": "click_release", "location": {{"x": {point[0]}, "y": {point[1]}}}}}',
    )
    out = interpret(text, seat="solo-no-manual", interaction=interaction)
    assert out.skipped and out.issues[-1].code == "off_screen"
    assert "outside the image" in out.feedback


def test_navigation_needs_no_marks() -> None:
    out = interpret(_say("interact_game", '{"action": "flip"}'), seat="solo")
    assert out.game_action is not None and out.game_action.action == ActionKind.FLIP


def test_soft_warnings_survive_a_successful_game_action() -> None:
    """GPTNT dropped parser warnings on game actions."""
    text = '{"result": {"kind": "interact_game", "data": {"action": "click_release", "location": "A"}}}'
    out = interpret(text, seat="defuser", marks=_marks())
    assert out.game_action is not None
    assert {"bare_json", "thoughts_missing"} <= {i.code for i in out.issues}
    assert out.feedback and not out.skipped


def test_the_expert_cannot_act_on_the_bomb() -> None:
    out = interpret(_say("interact_game", '{"action": "flip"}'), seat="expert")
    assert out.game_action is None and out.skipped


def test_mark_location_is_kept_for_records() -> None:
    out = interpret(_say("interact_game", '{"action": "click_release", "location": "a"}'),
                    seat="defuser", marks=_marks())  # fmt: skip
    assert out.chosen.location == MarkLocation(label="A")
