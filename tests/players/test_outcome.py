"""From text to a game action, through one turn (``play_turn``): labels not on screen and
points off screen are errors told back next turn; a turn's issues are recorded once."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from turn_table import Table, sight

from gptnt.players import (
    InteractGame,
    Interaction,
    PointLocation,
    Seat,
    allowed_kinds,
    feedback_text,
    parse_output,
    to_game_action,
)
from gptnt.players.policy import Decision, TurnInput
from gptnt.players.turn import Player, play_turn
from gptnt.protocol import ActionKind
from gptnt.records import TurnEvent

_MARKS = Interaction()  # set-of-marks


def _mask() -> np.ndarray:
    mask = np.zeros((100, 200, 3), dtype=np.uint8)
    mask[10:30, 10:50] = (255, 0, 0)  # A
    mask[60:90, 120:190] = (0, 0, 255)  # B
    return mask


def _say(kind: str, data: str) -> str:
    return (
        f'<thoughts>t</thoughts><action>{{"result": {{"kind": "{kind}", "data": {data}}}}}</action>'
    )


@dataclass
class _Reader:
    """Answers every turn with one fixed text, parsed as a model player's answer is."""

    text: str
    seat: Seat
    interaction: Interaction = _MARKS
    name: str = "reader"
    privileged: bool = False
    sequence_frames: int = 1
    told: list[str | None] | None = None

    async def decide(self, turn: TurnInput) -> Decision:
        if self.told is not None:
            self.told.append(feedback_text(turn.feedback))
        parsed = parse_output(
            self.text, allowed=allowed_kinds(self.seat), method=self.interaction.method
        )
        return Decision(parsed.action, self.text, parsed.issues)


async def _turn(
    tmp_path: Path,
    text: str,
    *,
    seat: Seat = "defuser",
    mask: np.ndarray | None = None,
    interaction: Interaction = _MARKS,
) -> tuple[TurnEvent, Table, str | None]:
    """One turn of ``text`` on a frame with ``mask``; and the feedback of the turn after."""
    told: list[str | None] = []
    reader = _Reader(text, seat, interaction, told=told)
    role = "expert" if seat == "expert" else "defuser"
    player = Player(reader, role, "sync", tmp_path)
    table = Table(shown=sight(np.zeros((100, 200, 3), dtype=np.uint8), mask))
    event = await play_turn(player, 0, table.transport(defuser=role == "defuser"))
    await play_turn(player, 1, table.transport(defuser=role == "defuser"))
    return event, table, told[1]


async def test_mark_becomes_a_point_inside_the_element(tmp_path: Path) -> None:
    text = _say("interact_game", '{"action": "click_release", "location": "B"}')
    event, table, feedback = await _turn(tmp_path, text, mask=_mask())
    [wire] = table.acted[:1]
    assert wire.action == ActionKind.CLICK
    x, y = wire.x_pos * 200, wire.y_pos * 100
    assert 120 <= x < 190 and 60 <= y < 90
    assert (event.action.x_pos, event.action.y_pos) == (wire.x_pos, wire.y_pos)
    assert feedback is None and not event.errors


async def test_label_not_on_screen_is_an_error_with_feedback(tmp_path: Path) -> None:
    text = _say("interact_game", '{"action": "hold", "location": "Q"}')
    event, table, feedback = await _turn(tmp_path, text, mask=_mask())
    assert event.action.kind == "do_nothing" and not table.acted
    assert event.errors == ['unknown_label: "Q"']
    assert '"Q"' in feedback and "skipped" in feedback


async def test_no_marks_at_all_is_an_error_too(tmp_path: Path) -> None:
    text = _say("interact_game", '{"action": "click_release", "location": "A"}')
    event, table, _ = await _turn(tmp_path, text, mask=None)
    assert not table.acted and [e.split(":")[0] for e in event.errors] == ["unknown_label"]


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
async def test_off_screen_points_are_errors(system, point, tmp_path: Path) -> None:
    interaction = Interaction("coordinates", system, (640, 480))
    text = _say(
        "interact_game",
        f'{{"action": "click_release", "location": {{"x": {point[0]}, "y": {point[1]}}}}}',
    )
    event, table, feedback = await _turn(
        tmp_path, text, seat="solo-no-manual", interaction=interaction
    )
    assert not table.acted and event.errors[-1].startswith("off_screen")
    assert "outside the image" in feedback


async def test_navigation_needs_no_marks(tmp_path: Path) -> None:
    event, table, _ = await _turn(
        tmp_path, _say("interact_game", '{"action": "flip"}'), seat="solo"
    )
    assert table.acted[0].action == ActionKind.FLIP and event.action.name == "flip"


async def test_soft_warnings_survive_a_successful_game_action(tmp_path: Path) -> None:
    """GPTNT dropped parser warnings on game actions."""
    text = '{"result": {"kind": "interact_game", "data": {"action": "click_release", "location": "A"}}}'
    event, table, feedback = await _turn(tmp_path, text, mask=_mask())
    assert table.acted and event.action.kind == "interact_game"
    assert {"bare_json", "thoughts_missing"} <= {w.split(":")[0] for w in event.warnings}
    assert feedback and not event.errors


async def test_the_expert_cannot_act_on_the_bomb(tmp_path: Path) -> None:
    event, table, _ = await _turn(
        tmp_path, _say("interact_game", '{"action": "flip"}'), seat="expert"
    )
    assert event.action.kind == "do_nothing" and event.errors and not table.acted


async def test_mark_location_is_kept_for_records(tmp_path: Path) -> None:
    text = _say("interact_game", '{"action": "click_release", "location": "a"}')
    event, _, _ = await _turn(tmp_path, text, mask=_mask())
    assert event.action.label == "A"
