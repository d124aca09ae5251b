"""A model player restored from its record (``gptnt.players.replay.Restoring``), against the
loopback OpenAI-compatible server: the restored turns call no model, and the first new turn's
request is exactly the one the recorded player sent at that turn; a replaced turn enters the
conversation as the model's own message; the virtual clock's latency models."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_openai import FakeServer, completion
from turn_table import Table

from gptnt.errors import ConfigError
from gptnt.players.clock import VirtualClock, parse_latency
from gptnt.players.config import PlayerConfig
from gptnt.players.model import ModelPolicy
from gptnt.players.replay import REPLACED, Restoring, replacement_output
from gptnt.players.turn import Player, play_turn


def _say(text: str) -> str:
    return replacement_output(text).replace(REPLACED, "t")


def _expert(server: FakeServer) -> ModelPolicy:
    return ModelPolicy(PlayerConfig(model="vllm:m", base_url=server.url), "expert")


async def _play(player: Player, inbox: list[list[str]]) -> tuple[list, Table]:
    table, events = Table(), []
    for n, messages in enumerate(inbox):
        table.inbox = list(messages)
        events.append(await play_turn(player, n, table.transport(defuser=False)))
    return events, table


async def test_restored_turns_call_no_model_and_leave_the_same_context(
    server: FakeServer, tmp_path: Path
) -> None:
    inbox = [["three wires"], ["red, blue, red"], ["done"], ["next?"]]
    server.replies = [(200, completion(_say(f"answer {n}"))) for n in range(4)]
    recorded, _ = await _play(Player(_expert(server), "expert", "sync", tmp_path), inbox)
    original = list(server.received)
    assert len(original) == 4
    server.received.clear()
    server.replies = [(200, completion(_say("answer 3")))]
    restoring = Restoring(_expert(server), recorded[:3])
    replayed, table = await _play(Player(restoring, "expert", "sync", tmp_path), inbox)
    assert len(server.received) == 1  # only the turn after the fork asked the model
    assert server.received[0]["messages"] == original[3]["messages"]
    assert [e.restored for e in replayed] == [True, True, True, False]
    assert [e.raw_output for e in replayed] == [e.raw_output for e in recorded]
    assert table.said == ["answer 0", "answer 1", "answer 2", "answer 3"]  # restored ones again


async def test_a_replaced_turn_is_the_models_own_message_in_its_context(
    server: FakeServer, tmp_path: Path
) -> None:
    inbox = [["three wires"], ["red, blue, red"], ["ok"]]
    server.replies = [(200, completion(_say(f"answer {n}"))) for n in range(3)]
    recorded, _ = await _play(Player(_expert(server), "expert", "sync", tmp_path), inbox)
    server.received.clear()
    server.replies = [(200, completion(_say("answer 2")))]
    restoring = Restoring(_expert(server), recorded[:1], replacement="Cut the second wire.")
    replayed, table = await _play(Player(restoring, "expert", "sync", tmp_path), inbox)
    assert replayed[1].action.message == "Cut the second wire." and not replayed[1].restored
    assert table.said == ["answer 0", "Cut the second wire.", "answer 2"]
    assert len(server.received) == 1  # the replaced turn called no model either
    history = server.received[0]["messages"]
    assert any("Cut the second wire." in str(m["content"]) for m in history
               if m["role"] == "assistant")  # fmt: skip


def test_latency_models() -> None:
    assert (
        parse_latency("fixed:5").name == "fixed:5"
        and parse_latency("fixed:2.50").name == "fixed:2.5"
    )
    tokens = parse_latency("tokens")
    facts = {"measured_s": 0.3, "first_token_s": 1.0, "per_token_s": 0.02}
    assert tokens.seconds_of(output_tokens=200, **facts) == pytest.approx(5.0)
    assert parse_latency("measured").seconds_of(output_tokens=200, **facts) == 0.3
    assert parse_latency("fixed:5").seconds_of(output_tokens=200, **facts) == 5.0
    assert (
        parse_latency("measured").seconds_of(output_tokens=0, **{**facts, "measured_s": 0}) == 0.001
    )
    assert VirtualClock(latency=tokens, time_scale=2).dispatch(10.0, 1.2345) == 12.469
    for bad in ("fixed:0", "fixed:-1", "fast", "fixed:", "fixed:nan", "fixed:1e9", "fixed:0.0001",
                "fixed:86400.001", "fixed:0.1234567"):  # fmt: skip
        with pytest.raises(ConfigError, match="use measured, tokens, or fixed:SECONDS"):
            parse_latency(bad)


@pytest.mark.parametrize(
    "text", ["fixed:0.001", "fixed:0.123", "fixed:12345", "fixed:86400", "fixed:86399.999",
             "fixed:12.5", "fixed:007"],
)  # fmt: skip
def test_a_fixed_latency_is_named_exactly_as_it_runs(text: str) -> None:
    """The name goes into the records and is parsed again by the manager and by a replay: it
    must give back the very value (no ``fixed:1e+08`` that the parser refuses, no six-digit
    rounding of ``fixed:0.1234567``)."""
    latency = parse_latency(text)
    assert "e" not in latency.name.removeprefix("fixed")
    assert parse_latency(latency.name) == latency
