"""Odd provider payloads over a short episode of one model player, against the loopback
OpenAI-compatible server: each bad turn is recorded with its reason and the episode goes on.
"""

from __future__ import annotations

import json
from pathlib import Path

from fake_openai import FakeServer, completion
from turn_table import Table

from gptnt.players._text import OUTPUT_CAP_CHARS
from gptnt.players.config import PlayerConfig
from gptnt.players.model import ModelPolicy
from gptnt.players.turn import Player, play_turn
from gptnt.records import TurnEvent

_SAY = '<thoughts>t</thoughts><action>{"result": {"kind": "send_message", "data": {"message": "%s"}}}</action>'


def _raw(content: str) -> bytes:
    """A chat completion whose content is written into the body as JSON escapes."""
    return (
        b'{"id": "c", "object": "chat.completion", "created": 0, "model": "m", "choices": '
        b'[{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": '
        + json.dumps(content).encode()
        + b"}}]}"
    )


async def test_odd_payloads_lose_one_turn_each_and_are_recorded(
    server: FakeServer, tmp_path: Path
) -> None:
    no_choices = completion("x")
    no_choices["choices"] = []
    huge = "<thoughts>" + "loop " * 1_000_000 + "</thoughts>"  # 5 MB
    server.replies = [
        (200, no_choices),
        (200, _raw(_SAY % "wire \\ud83d")),  # a lone surrogate, escaped as a provider sends it
        (200, completion(huge)),
        (200, b"<html>502 Bad Gateway</html>"),
        (200, b'{"choices": null}'),
        (200, completion(_SAY % "still here")),
    ]
    policy = ModelPolicy(
        PlayerConfig(model="vllm:m", base_url=server.url, transport_retries=0), "expert"
    )
    player, table = Player(policy, "expert", "sync", tmp_path), Table()
    turns = []
    for turn in range(6):
        event = await play_turn(player, turn, table.transport(defuser=False))
        # Every turn is storable as a record, whatever the payload held.
        turns.append(TurnEvent.model_validate_json(event.model_dump_json()))

    reasons = [(t.errors, t.warnings) for t in turns]
    assert reasons[0][0] == ["provider_error: its answer could not be read"]
    assert turns[0].failed_call is not None
    assert turns[0].failed_call.error.startswith("malformed response: IndexError")
    # The surrogate is replaced, the message still goes out.
    assert turns[1].action.kind == "send_message"
    assert turns[1].action.message == "wire \ufffd" == table.said[0]
    # The 5 MB answer is kept to the cap, in the conversation and the record, and said so.
    assert len(turns[2].raw_output) == OUTPUT_CAP_CHARS
    assert any(w.startswith(f"output_capped: {len(huge):,} characters") for w in reasons[2][1])
    for i in (3, 4):
        assert reasons[i][0] == ["provider_error: its answer could not be read"], reasons[i]
    assert turns[5].action.kind == "send_message"
    assert turns[5].action.message == "still here" == table.said[-1]

    # What was resent stays small: the history holds the capped text, not 5 MB.
    sizes = [len(json.dumps(body)) for body in server.received]
    assert max(sizes[3:]) < sizes[0] + 2 * OUTPUT_CAP_CHARS
    told = json.dumps(server.received[3]["messages"][-1])
    assert "first 50,000 were kept" in told
    told = json.dumps(server.received[1]["messages"][-1])
    assert "could not be read" in told


async def test_a_body_nested_too_deeply_is_a_malformed_response(
    server: FakeServer, tmp_path: Path
) -> None:
    deep = 100_000
    server.replies = [(200, b'{"choices": ' + b"[" * deep + b"]" * deep + b"}")]
    policy = ModelPolicy(
        PlayerConfig(model="vllm:m", base_url=server.url, transport_retries=0), "expert"
    )
    player, table = Player(policy, "expert", "sync", tmp_path), Table()
    event = await play_turn(player, 0, table.transport(defuser=False))

    assert event.errors == ["provider_error: its answer could not be read"]
    assert event.failed_call is not None
    assert event.failed_call.error.startswith("malformed response: nested too deeply")
