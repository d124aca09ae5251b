"""A model player's turns end to end, against the loopback OpenAI-compatible server."""

from __future__ import annotations

import json

import numpy as np
from fake_openai import FakeServer, completion

from gptnt.players import DoNothing, InteractGame, SendMessage
from gptnt.players.config import PlayerConfig
from gptnt.players.model import REPHRASE_REQUEST, ModelPolicy
from gptnt.players.policy import Observation, TurnInput
from gptnt.vision import build_marks


def _say(kind: str, data: str) -> str:
    return (
        f'<thoughts>t</thoughts><action>{{"result": {{"kind": "{kind}", "data": {data}}}}}</action>'
    )


def _observation(shade: int) -> Observation:
    mask = np.zeros((96, 128, 3), dtype=np.uint8)
    mask[10:40, 10:60] = (255, 0, 0)
    frame = np.full((96, 128, 3), shade, dtype=np.uint8)
    return Observation([frame], build_marks(mask, frame, "Keypad"))


def _texts(body: dict) -> str:
    return json.dumps(body["messages"])


def _images(message: dict) -> int:
    content = message["content"]
    return sum(p.get("type") == "image_url" for p in content) if isinstance(content, list) else 0


async def test_defuser_turns_feedback_and_previous_frame(server: FakeServer) -> None:
    server.replies = [
        (200, completion(_say("interact_game", '{"action": "click_release", "location": "Z"}'))),
        (200, completion(_say("interact_game", '{"action": "click_release", "location": "A"}'))),
    ]
    policy = ModelPolicy(
        PlayerConfig(model="vllm:m", base_url=server.url, image_size=(64, 48)), "defuser"
    )
    first = await policy.decide(TurnInput("defuser", 0, "sync", [], _observation(40)))
    assert isinstance(first.action, DoNothing)
    assert policy.last.errors == ["unknown_label"]
    second = await policy.decide(
        TurnInput("defuser", 1, "sync", ["cut the top one"], _observation(80))
    )
    assert isinstance(second.action, InteractGame) and second.action.location.label == "A"
    body = server.received[1]
    assert "location marker" in body["messages"][0]["content"]  # the system prompt
    newest = body["messages"][-1]
    assert _images(newest) == 2  # the previous frame (unmarked) and the newest
    text = _texts(body)
    assert "execution-feedback" in text and '\\"Z\\"' in text
    assert '<message from=\\"Expert\\">cut the top one</message>' in text
    assert policy.last.errors == []


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
    server: FakeServer,
) -> None:
    refused = {"error": {"message": "filtered", "code": "content_filter"}}
    server.replies = [(400, refused), (200, completion("no action here")), (200, completion("x"))]
    config = PlayerConfig(model="vllm:m", base_url=server.url, transport_retries=0)
    policy = ModelPolicy(config, "solo-no-manual")
    assert isinstance(
        (await policy.decide(TurnInput("defuser", 0, "sync", [], _observation(9)))).action,
        DoNothing,
    )
    await policy.decide(TurnInput("defuser", 1, "sync", [], _observation(9)))
    await policy.decide(TurnInput("defuser", 2, "sync", [], _observation(9)))
    last = _texts(server.received[2])
    assert "execution-feedback" in last and "no-new-messages" not in last


async def test_provider_error_is_told_next_turn(server: FakeServer) -> None:
    server.replies = [(500, {"error": {"message": "boom"}}), (200, completion("x"))]
    config = PlayerConfig(model="vllm:m", base_url=server.url, transport_retries=0)
    policy = ModelPolicy(config, "expert")
    assert isinstance(
        (await policy.decide(TurnInput("expert", 0, "sync", ["hi"]))).action, DoNothing
    )
    assert policy.last.errors == ["provider_error"]
    await policy.decide(TurnInput("expert", 1, "sync", []))
    assert "server error" in _texts(server.received[1])


async def test_decision_carries_the_resolved_action_issues_and_call(server: FakeServer) -> None:
    server.replies = [
        (200, completion(_say("interact_game", '{"action": "click_release", "location": '
                              '{"x": 32, "y": 12}}'), prompt=321)),
        (200, completion(_say("interact_game", '{"action": "click_release", "location": "A"}'))),
    ]  # fmt: skip
    config = PlayerConfig(
        model="vllm:m", base_url=server.url, image_size=(64, 48), interaction="coordinates"
    )
    policy = ModelPolicy(config, "defuser")
    first = await policy.decide(TurnInput("defuser", 0, "sync", [], _observation(40)))
    # Coordinates are the player's own: pixels of its 64×48 picture, not the game's frame.
    assert first.game_action is not None
    assert (first.game_action.x_pos, first.game_action.y_pos) == (0.5, 0.25)
    assert first.call is not None and first.call.usage.input_tokens == 321
    assert first.errors == () and first.call.latency_s >= 0
    second = await policy.decide(TurnInput("defuser", 1, "sync", [], _observation(40)))
    assert isinstance(second.action, DoNothing) and second.game_action is None
    assert second.errors == ('wrong_location_type: not an {"x": …, "y": …} point',)
