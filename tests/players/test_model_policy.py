"""A model player's turns end to end (``play_turn`` on an in-memory table), against the
loopback OpenAI-compatible server."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from fake_openai import FakeServer, completion
from turn_table import Table, sight

from gptnt.players import SendMessage
from gptnt.players.config import PlayerConfig
from gptnt.players.model import REPHRASE_REQUEST, ModelPolicy
from gptnt.players.policy import TurnInput
from gptnt.players.turn import Player, Sight, play_turn


def _say(kind: str, data: str) -> str:
    return (
        f'<thoughts>t</thoughts><action>{{"result": {{"kind": "{kind}", "data": {data}}}}}</action>'
    )


def _observation(shade: int) -> Sight:
    """A frame with one element (mark A) in its mask."""
    mask = np.zeros((96, 128, 3), dtype=np.uint8)
    mask[10:40, 10:60] = (255, 0, 0)
    return sight(np.full((96, 128, 3), shade, dtype=np.uint8), mask)


def _codes(notes: list[str]) -> list[str]:
    return [note.split(":")[0] for note in notes]


def _texts(body: dict) -> str:
    return json.dumps(body["messages"])


def _images(message: dict) -> int:
    content = message["content"]
    return sum(p.get("type") == "image_url" for p in content) if isinstance(content, list) else 0


async def test_defuser_turns_feedback_and_previous_frame(
    server: FakeServer, tmp_path: Path
) -> None:
    server.replies = [
        (200, completion(_say("interact_game", '{"action": "click_release", "location": "Z"}'))),
        (200, completion(_say("interact_game", '{"action": "click_release", "location": "A"}'))),
    ]
    policy = ModelPolicy(
        PlayerConfig(model="vllm:m", base_url=server.url, image_size=(64, 48)), "defuser"
    )
    player, table = Player(policy, "defuser", "sync", tmp_path), Table(shown=_observation(40))
    first = await play_turn(player, 0, table.transport(defuser=True))
    assert first.action.kind == "do_nothing" and not table.acted
    assert _codes(first.errors) == ["unknown_label"]
    table.inbox, table.shown = ["cut the top one"], _observation(80)
    second = await play_turn(player, 1, table.transport(defuser=True))
    assert (second.action.kind, second.action.label) == ("interact_game", "A")
    assert len(table.acted) == 1
    body = server.received[1]
    assert "location marker" in body["messages"][0]["content"]  # the system prompt
    newest = body["messages"][-1]
    assert _images(newest) == 2  # the previous frame (unmarked) and the newest
    text = _texts(body)
    assert "execution-feedback" in text and '\\"Z\\"' in text
    assert '<message from=\\"Expert\\">cut the top one</message>' in text
    assert second.errors == []


async def test_expert_rephrase_on_content_filter_drops_the_turn(server: FakeServer) -> None:
    refused = {"error": {"message": "filtered", "code": "content_filter"}}
    server.replies = [
        (400, refused),
        (200, completion(_say("send_message", '{"message": "Which colour?"}'))),
    ]
    config = PlayerConfig(model="vllm:m", base_url=server.url, transport_retries=0)
    policy = ModelPolicy(config, "expert")
    first = await policy.decide(TurnInput("expert", 0, "sync", ["OFFENDING WORDS"]))
    assert first.action == SendMessage(message=REPHRASE_REQUEST)
    second = await policy.decide(TurnInput("expert", 1, "sync", ["Four wires."]))
    assert isinstance(second.action, SendMessage)
    assert "OFFENDING" not in _texts(server.received[1])
    assert "interact_game" not in server.received[1]["messages"][0]["content"]


async def test_solo_player_waits_instead_of_rephrasing_and_gets_feedback(
    server: FakeServer, tmp_path: Path
) -> None:
    refused = {"error": {"message": "filtered", "code": "content_filter"}}
    server.replies = [(400, refused), (200, completion("no action here")), (200, completion("x"))]
    config = PlayerConfig(model="vllm:m", base_url=server.url, transport_retries=0)
    player = Player(ModelPolicy(config, "solo-no-manual"), "defuser", "sync", tmp_path)
    table = Table(shown=_observation(9))
    first = await play_turn(player, 0, table.transport(defuser=True))
    assert first.action.kind == "do_nothing" and not table.said
    await play_turn(player, 1, table.transport(defuser=True))
    await play_turn(player, 2, table.transport(defuser=True))
    last = _texts(server.received[2])
    assert "execution-feedback" in last and "no-new-messages" not in last


async def test_provider_error_is_told_next_turn(server: FakeServer, tmp_path: Path) -> None:
    server.replies = [(500, {"error": {"message": "boom"}}), (200, completion("x"))]
    config = PlayerConfig(model="vllm:m", base_url=server.url, transport_retries=0)
    player = Player(ModelPolicy(config, "expert"), "expert", "sync", tmp_path)
    table = Table(inbox=["hi"])
    first = await play_turn(player, 0, table.transport(defuser=False))
    assert first.action.kind == "do_nothing"
    assert _codes(first.errors) == ["provider_error"]
    assert first.failed_call is not None and first.failed_call.status == 500
    await play_turn(player, 1, table.transport(defuser=False))
    assert "server error" in _texts(server.received[1])


async def test_the_turn_resolves_the_players_own_coordinates_and_records_the_call(
    server: FakeServer, tmp_path: Path
) -> None:
    server.replies = [
        (200, completion(_say("interact_game", '{"action": "click_release", "location": '
                              '{"x": 32, "y": 12}}'), prompt=321)),
        (200, completion(_say("interact_game", '{"action": "click_release", "location": "A"}'))),
    ]  # fmt: skip
    config = PlayerConfig(
        model="vllm:m", base_url=server.url, image_size=(64, 48), interaction="coordinates"
    )
    player, table = Player(ModelPolicy(config, "defuser"), "defuser", "sync", tmp_path), Table()
    table.shown = _observation(40)
    first = await play_turn(player, 0, table.transport(defuser=True))
    # Coordinates are the player's own: pixels of its 64×48 picture, not the game's frame.
    assert [(a.x_pos, a.y_pos) for a in table.acted] == [(0.5, 0.25)]
    assert (first.action.x_pos, first.action.y_pos) == (0.5, 0.25)
    assert first.tokens.input == 321
    assert first.errors == [] and first.latency_s >= 0
    second = await play_turn(player, 1, table.transport(defuser=True))
    assert second.action.kind == "do_nothing" and len(table.acted) == 1
    assert second.errors == ['wrong_location_type: not an {"x": …, "y": …} point']


async def test_without_execution_feedback_problems_are_recorded_but_never_told(
    server: FakeServer, tmp_path: Path
) -> None:
    server.replies = [
        (200, completion(_say("interact_game", '{"action": "click_release", "location": "Z"}'))),
        (200, completion(_say("do_nothing", "{}"))),
    ]
    config = PlayerConfig(
        model="vllm:m", base_url=server.url, image_size=(64, 48), execution_feedback=False
    )
    player = Player(ModelPolicy(config, "defuser"), "defuser", "sync", tmp_path)
    table = Table(shown=_observation(40))
    first = await play_turn(player, 0, table.transport(defuser=True))
    assert _codes(first.errors) == ["unknown_label"]  # recorded as ever
    await play_turn(player, 1, table.transport(defuser=True))
    content = server.received[1]["messages"][-1]["content"]  # the turn's own text parts
    newest = " ".join(p["text"] for p in content if p.get("type") == "text")
    assert newest and "execution-feedback" not in newest and '"Z"' not in newest  # NOBF off
