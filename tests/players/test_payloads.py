"""Odd provider payloads over a short episode of one model player, against the loopback
OpenAI-compatible server: each bad turn is recorded with its reason and the episode goes on.
"""

from __future__ import annotations

import json

from fake_openai import FakeServer, completion

from gptnt.players import SendMessage
from gptnt.players._text import OUTPUT_CAP_CHARS
from gptnt.players.config import PlayerConfig
from gptnt.players.model import ModelPolicy
from gptnt.players.policy import TurnInput
from gptnt.records import RecordedAction, TurnEvent

_SAY = '<thoughts>t</thoughts><action>{"result": {"kind": "send_message", "data": {"message": "%s"}}}</action>'


def _raw(content: str) -> bytes:
    """A chat completion whose content is written into the body as JSON escapes."""
    return (
        b'{"id": "c", "object": "chat.completion", "created": 0, "model": "m", "choices": '
        b'[{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": '
        + json.dumps(content).encode()
        + b"}}]}"
    )


async def test_odd_payloads_lose_one_turn_each_and_are_recorded(server: FakeServer) -> None:
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
    turns = []
    for turn in range(6):
        decision = await policy.decide(TurnInput("expert", turn, "sync", [], None))
        assert policy.last is not None
        turns.append((decision, policy.last))
        # Every turn is storable as a record, whatever the payload held.
        TurnEvent(
            role="expert", turn=turn, started_at=0.0, dispatched_at=0.0,
            raw_output=decision.text, action=RecordedAction(kind=decision.action.kind),
            warnings=list(decision.warnings), errors=list(decision.errors),
        ).model_dump_json()  # fmt: skip

    reasons = [(d.errors, d.warnings) for d, _ in turns]
    assert reasons[0][0] == ("provider_error: its answer could not be read",)
    assert turns[0][1].call.error.startswith("malformed response: IndexError")
    # The surrogate is replaced, the message still goes out.
    assert isinstance(turns[1][0].action, SendMessage)
    assert turns[1][0].action.message == "wire \ufffd"
    # The 5 MB answer is kept to the cap, in the conversation and the record, and said so.
    assert len(turns[2][0].text) == OUTPUT_CAP_CHARS
    assert turns[2][1].call.output_chars == len(huge)
    assert any(w.startswith(f"output_capped: {len(huge):,} characters") for w in reasons[2][1])
    for i in (3, 4):
        assert reasons[i][0] == ("provider_error: its answer could not be read",), reasons[i]
    assert isinstance(turns[5][0].action, SendMessage)
    assert turns[5][0].action.message == "still here"

    # What was resent stays small: the history holds the capped text, not 5 MB.
    sizes = [len(json.dumps(body)) for body in server.received]
    assert max(sizes[3:]) < sizes[0] + 2 * OUTPUT_CAP_CHARS
    told = json.dumps(server.received[3]["messages"][-1])
    assert "first 50,000 were kept" in told
    told = json.dumps(server.received[1]["messages"][-1])
    assert "could not be read" in told
