"""The player knobs GPTNT's configs have (issue 28 item 3), each checked on the requests the
loopback stand-ins captured: actions as a typed tool call (``output: tool``) read by the text
format's rules, how many earlier frames are shown (``previous_frames``), keeping the
provider's thinking in the history (``keep_thinking``), the reflection step, and every
thinking setting carried in the request itself per provider family."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fake_openai import FakeServer, completion
from fake_providers import AnthropicServer, GeminiServer
from turn_table import Table, sight

from gptnt.errors import PlayerConfigError
from gptnt.players._text import OUTPUT_CAP_CHARS
from gptnt.players.actions import Interaction
from gptnt.players.backends import MAX_TOOL_CALLS, ModelBackend
from gptnt.players.config import PlayerConfig, _validated
from gptnt.players.conversation import (
    IMAGES_DROPPED_NOTE,
    ChatRequest,
    TextPart,
    ToolCall,
    UserMessage,
)
from gptnt.players.model import ModelPolicy
from gptnt.players.parsing import parse_output
from gptnt.players.policy import TurnInput
from gptnt.players.prompts import reflection_prompt
from gptnt.players.tool_actions import history_text, read_history_text, read_tool_reply
from gptnt.players.turn import Player, play_turn, reflect

MARKS = Interaction("set-of-marks")


def _frame(shade: int):  # type: ignore[no-untyped-def]
    mask = np.zeros((96, 128, 3), dtype=np.uint8)
    mask[10:40, 10:60] = (255, 0, 0)
    return sight(np.full((96, 128, 3), shade, dtype=np.uint8), mask)


def _react(command: object) -> str:
    return f"<thoughts>t</thoughts><action>{json.dumps(command)}</action>"


def _tool_reply(calls: list[tuple[str, object]], text: str | None = None) -> dict:
    """A chat completion that answers with tool calls (arguments as JSON text, as OpenAI's)."""
    body = completion(text or "")
    message = body["choices"][0]["message"]
    message["content"] = text
    message["tool_calls"] = [
        {"id": f"call_{i}", "type": "function",
         "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)}}
        for i, (name, args) in enumerate(calls)
    ]  # fmt: skip
    body["choices"][0]["finish_reason"] = "tool_calls"
    return body


def _codes(notes: list[str]) -> list[str]:
    return [note.split(":")[0] for note in notes]


def _images(message: dict) -> int:
    content = message["content"]
    return sum(p.get("type") == "image_url" for p in content) if isinstance(content, list) else 0


# ----------------------------------------------------------------------------- output: tool

COMMANDS: list[tuple[str, Any]] = [
    ("interact_game", {"action": "click_release", "location": "A"}),
    ("interact_game", {"action": "rotate_left"}),
    ("interact_game", {"action": "rotate_left", "location": "B"}),  # location_ignored
    ("interact_game", {"action": "click_release"}),  # missing_location
    ("interact_game", {"action": "press", "location": "A"}),  # an alias
    ("interact_game", {"action": "explode"}),  # invalid_action
    ("interact_game", {"action": "hold", "location": {"x": 3, "y": 4}}),  # wrong_location_type
    ("send_message", {"message": "four wires"}),
    ("send_message", {"message": ""}),  # invalid_action
    ("send_message", {"message": "hi", "to": "x"}),  # extra_fields_ignored
    ("do_nothing", {}),
    ("do_nothing", {"why": "waiting"}),  # extra_fields_ignored
    ("defuse_bomb", {}),  # unknown kind
]


@pytest.mark.parametrize(("kind", "data"), COMMANDS)
@pytest.mark.parametrize("seat_kinds", [("interact_game", "send_message", "do_nothing"),
                                        ("send_message", "do_nothing")])  # fmt: skip
def test_a_tool_call_is_read_by_the_text_formats_rules(kind, data, seat_kinds) -> None:
    """The same command as an ``<action>`` and as a tool call: the same action, the same
    issues (so the same feedback and the same skip), for a Defuser and for an Expert (who may
    not interact: ``action_not_allowed`` either way)."""
    text = parse_output(_react({"result": {"kind": kind, "data": data}}), allowed=seat_kinds)
    tool = read_tool_reply([ToolCall(kind, data)], "t", allowed=seat_kinds, interaction=MARKS,
                           finish_reason="tool_calls")  # fmt: skip
    assert tool.action == text.action
    assert tool.issues == text.issues
    assert tool.skipped == text.skipped
    as_text = read_tool_reply([ToolCall(kind, json.dumps(data))], "t", allowed=seat_kinds,
                              interaction=MARKS, finish_reason="tool_calls")  # fmt: skip
    assert (as_text.action, as_text.issues) == (tool.action, tool.issues)


@pytest.mark.parametrize(("kind", "data"), COMMANDS)
def test_a_restored_tool_turn_reads_as_it_was_played(kind, data) -> None:
    """A replay restores a tool player's turn from its recorded text (``history_text``): the
    same action and issues as the call had."""
    kinds = ("interact_game", "send_message", "do_nothing")
    call = ToolCall(kind, data)
    played = read_tool_reply([call], "my reasoning\nin two lines", allowed=kinds,
                             interaction=MARKS, finish_reason="tool_calls")  # fmt: skip
    text = history_text([call], "my reasoning\nin two lines")
    again = read_history_text(text, allowed=kinds, interaction=MARKS)
    assert (again.action, again.issues, again.thoughts) == (
        played.action, played.issues, played.thoughts)  # fmt: skip
    lost = read_history_text("only words", allowed=kinds, interaction=MARKS)
    assert [i.code for i in lost.issues] == ["no_tool_call"]


@pytest.mark.parametrize("calls", [1, 2])
def test_reasoning_that_ends_like_a_command_restores_as_played(calls: int) -> None:
    """A hostile reply: text whose last line is itself a command's JSON, beside its tool
    call(s). Restored from the history's text, it reads as it was played (the calls it made,
    the reasoning it gave), not as one more call."""
    kinds = ("interact_game", "send_message", "do_nothing")
    text = 'I could wait:\n{"result": {"kind": "do_nothing", "data": {}}}'
    made = [ToolCall("send_message", {"message": "hi"})] * calls
    played = read_tool_reply(made, text, allowed=kinds, interaction=MARKS,
                             finish_reason="tool_calls")  # fmt: skip
    again = read_history_text(history_text(made, text), allowed=kinds, interaction=MARKS)
    assert (again.action, again.issues, again.thoughts) == (
        played.action, played.issues, played.thoughts)  # fmt: skip
    assert history_text(made, "plain words").count("\n\n") == 0  # no blank line otherwise


def test_tool_replies_without_one_call_are_skipped_like_the_text_formats() -> None:
    kinds = ("interact_game", "do_nothing")
    none = read_tool_reply([], "I think I will click A.", allowed=kinds, interaction=MARKS,
                           finish_reason="stop")  # fmt: skip
    assert none.skipped and [i.code for i in none.issues] == ["no_tool_call"]
    assert none.thoughts == "I think I will click A."
    cut = read_tool_reply([], "I think", allowed=kinds, interaction=MARKS, finish_reason="length")
    assert [i.code for i in cut.issues] == ["output_truncated"]
    two = read_tool_reply([ToolCall("do_nothing", {}), ToolCall("do_nothing", {})], "",
                          allowed=kinds, interaction=MARKS, finish_reason="tool_calls")  # fmt: skip
    react_two = parse_output(_react({"result": {"kind": "do_nothing", "data": {}}}) * 2,
                             allowed=kinds)  # fmt: skip
    assert two.skipped and [i.code for i in two.issues] == [i.code for i in react_two.issues]
    bad = read_tool_reply([ToolCall("do_nothing", "{not json")], "", allowed=kinds,
                          interaction=MARKS, finish_reason="tool_calls")  # fmt: skip
    assert bad.skipped


async def test_tool_output_on_the_stand_in(server: FakeServer, tmp_path: Path) -> None:
    """A Defuser with ``output: tool``: its requests carry one tool per action kind and
    require a call; a valid call is played; an invalid one and a text answer cost the turn and
    are told next turn, with the same sentence as in the text format; the history keeps each
    call as the command's JSON, never as a tool exchange."""
    server.replies = [
        (200, _tool_reply([("interact_game", {"action": "click_release", "location": "A"})],
                          "The red region is the button.")),
        (200, _tool_reply([("interact_game", {"action": "click_release"})])),
        (200, completion("I would press A now.")),  # text, no tool call
        (200, _tool_reply([("do_nothing", {})])),
    ]  # fmt: skip
    config = PlayerConfig(model="vllm:m", base_url=server.url, image_size=(64, 48), output="tool")
    player = Player(ModelPolicy(config, "defuser"), "defuser", "sync", tmp_path)
    table = Table(shown=_frame(40))
    events = [await play_turn(player, n, table.transport(defuser=True)) for n in range(4)]
    first = server.received[0]
    assert [t["function"]["name"] for t in first["tools"]] == [
        "interact_game", "send_message", "do_nothing"]  # fmt: skip
    assert first["tool_choice"] == "required"
    schema = first["tools"][0]["function"]["parameters"]
    assert "click_release" in schema["properties"]["action"]["enum"]
    assert "<action>" not in first["messages"][0]["content"]  # the tool prompt, not the tags
    assert (events[0].action.kind, events[0].action.label) == ("interact_game", "A")
    assert len(table.acted) == 1
    assert _codes(events[1].errors) == ["missing_location"]
    assert _codes(events[2].errors) == ["no_tool_call"]
    assert events[3].errors == [] and events[3].action.kind == "do_nothing"
    # Told next turn, in the sentence the text format's missing location gets.
    react = parse_output(_react({"result": {"kind": "interact_game",
                                            "data": {"action": "click_release"}}}))  # fmt: skip
    told = json.dumps(server.received[2]["messages"])
    assert json.dumps(react.issues[0].sentence)[1:-1] in told
    assert "called none of the command tools" in json.dumps(server.received[3]["messages"])
    # The history: plain text, each call as its command JSON after the reasoning.
    history = server.received[3]["messages"]
    assert all(m["role"] in ("system", "user", "assistant") for m in history)
    assert not any(m.get("tool_calls") for m in history)
    replies = [m["content"] for m in history if m["role"] == "assistant"]
    assert replies[0].startswith("The red region is the button.\n")
    assert json.loads(replies[0].splitlines()[-1]) == {
        "result": {"kind": "interact_game", "data": {"action": "click_release", "location": "A"}}
    }
    assert replies[2] == "I would press A now."
    assert events[0].raw_output == replies[0]


# ----------------------------------------------------------------------------- previous_frames


@pytest.mark.parametrize("kept", [0, 1, 3])
async def test_previous_frames_on_captured_requests(
    kept: int, server: FakeServer, tmp_path: Path
) -> None:
    """``previous_frames: N``: the newest user turn carries the last frame of each of the N
    previous turns (fewer at the start), then the newest; every earlier turn in the history
    has no image, only the placeholder."""
    say = _react({"result": {"kind": "do_nothing", "data": {}}})
    server.replies = [(200, completion(say)) for _ in range(5)]
    config = PlayerConfig(model="vllm:m", base_url=server.url, image_size=(64, 48),
                          previous_frames=kept)  # fmt: skip
    player = Player(ModelPolicy(config, "defuser"), "defuser", "sync", tmp_path)
    table = Table()
    for n in range(5):
        table.shown = _frame(20 * (n + 1))
        await play_turn(player, n, table.transport(defuser=True))
    for n, body in enumerate(server.received):
        newest = body["messages"][-1]
        assert _images(newest) == min(n, kept) + 1, (kept, n)
        earlier = [m for m in body["messages"][1:-1] if m["role"] == "user"]
        assert len(earlier) == n
        assert all(_images(m) == 0 for m in earlier)
        assert all(IMAGES_DROPPED_NOTE in json.dumps(m) for m in earlier)
    last = server.received[-1]["messages"][-1]["content"]
    captions = [p["text"] for p in last if p["type"] == "text"][1:]
    if kept == 3:
        assert captions[:3] == [
            "The last picture of your turn 3 turns ago (no markers):",
            "The last picture of your turn 2 turns ago (no markers):",
            "The last picture of your previous turn (no markers):",
        ]


# ----------------------------------------------------------------------------- keep_thinking


def _thinking_reply(thought: str, text: str) -> dict:
    """A vLLM-style completion whose reasoning comes in ``reasoning_content``."""
    body = completion(text)
    body["choices"][0]["message"]["reasoning_content"] = thought
    return body


@pytest.mark.parametrize("keep", [False, True])
async def test_keep_thinking_sends_the_thinking_back_or_not(
    keep: bool, server: FakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    say = _react({"result": {"kind": "send_message", "data": {"message": "hello"}}})
    server.replies = [(200, _thinking_reply("SECRET-PLAN-42", say)), (200, completion(say))]
    config = PlayerConfig(model="vllm:m", base_url=server.url, thinking="low", keep_thinking=keep)
    policy = ModelPolicy(config, "expert")
    await policy.decide(TurnInput("expert", 0, "sync", ["hi"]))
    await policy.decide(TurnInput("expert", 1, "sync", ["and?"]))
    second = json.dumps(server.received[1]["messages"])
    assert ("SECRET-PLAN-42" in second) == keep
    assert say.replace('"', '\\"') in second  # the answer's text is kept either way


async def test_anthropic_thinking_is_sent_back_with_its_signature(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Thinking(AnthropicServer):
        def answer(self, body: dict[str, Any], key: str) -> tuple[int, dict[str, Any]]:
            status, payload = super().answer(body, key)
            block = {"type": "thinking", "thinking": "PLAN-7", "signature": "SIG-7"}
            payload["content"] = [block, *payload["content"]]
            return status, payload

    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    with Thinking().running() as fake:
        config = PlayerConfig(model="anthropic:claude-sonnet-4-6", base_url=fake.url,
                              temperature=None, thinking_budget=2048, keep_thinking=True)  # fmt: skip
        policy = ModelPolicy(config, "expert")
        await policy.decide(TurnInput("expert", 0, "sync", ["hi"]))
        await policy.decide(TurnInput("expert", 1, "sync", ["and?"]))
        sent = fake.received[1].body["messages"]
    thought = [b for m in sent if m["role"] == "assistant" for b in m["content"]
               if b.get("type") == "thinking"]  # fmt: skip
    assert thought == [{"type": "thinking", "thinking": "PLAN-7", "signature": "SIG-7"}]


# ----------------------------------------------------------------------------- thinking settings

REQUEST = ChatRequest(system="s", messages=(UserMessage(parts=(TextPart("hi"),)),))


@pytest.mark.parametrize(
    ("effort", "sent"), [("low", "low"), ("high", "high"), ("minimal", "minimal")]
)
async def test_openai_effort_is_reasoning_effort_in_the_request(
    effort: str, sent: str, server: FakeServer
) -> None:
    config = PlayerConfig(model="openai:gpt-5.2", base_url=server.url, temperature=None,
                          thinking=effort)  # type: ignore[arg-type]  # fmt: skip
    reply = await ModelBackend(config, prices={}).complete(REQUEST, deadline_s=20)
    assert reply.failure is None
    assert server.received[-1]["reasoning_effort"] == sent


async def test_vllm_effort_is_in_the_request_and_its_templates_switch(
    server: FakeServer,
) -> None:
    """pydantic-ai sends no effort to a vLLM server: ours goes in the body itself, as
    ``reasoning_effort`` and as the chat template's ``enable_thinking``."""
    config = PlayerConfig(model="vllm:m", base_url=server.url, thinking="medium")
    await ModelBackend(config, prices={}).complete(REQUEST, deadline_s=20)
    body = server.received[-1]
    assert body["reasoning_effort"] == "medium"
    assert body["chat_template_kwargs"] == {"enable_thinking": True}
    off = config.model_copy(update={"thinking": "off"})
    await ModelBackend(off, prices={}).complete(REQUEST, deadline_s=20)
    body = server.received[-1]
    assert "reasoning_effort" not in body
    assert body["chat_template_kwargs"] == {"enable_thinking": False}


async def test_anthropic_budget_is_the_thinking_block_in_the_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    with AnthropicServer().running() as fake:
        config = PlayerConfig(model="anthropic:claude-sonnet-4-6", base_url=fake.url,
                              temperature=None, thinking_budget=2048)  # fmt: skip
        await ModelBackend(config, prices={}).complete(REQUEST, deadline_s=20)
        effort = config.model_copy(update={"thinking": "high", "thinking_budget": None})
        await ModelBackend(effort, prices={}).complete(REQUEST, deadline_s=20)
        off = config.model_copy(update={"thinking": "off"})
        await ModelBackend(off, prices={}).complete(REQUEST, deadline_s=20)
        budget, level, none = (r.body for r in fake.received)
    assert budget["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert budget["max_tokens"] == 1000 + 2048  # the answer keeps its own cap
    assert level["output_config"] == {"effort": "high"} and level["max_tokens"] == 1000
    assert level["thinking"]["type"] in ("adaptive", "enabled")
    assert "thinking" not in none  # off: no thinking block, Claude's default (none)


async def test_google_budget_is_the_thinking_config_in_the_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GOOGLE_API_KEY", "k")
    with GeminiServer().running() as fake:
        config = PlayerConfig(model="google:gemini-3-flash-preview", base_url=fake.url,
                              thinking_budget=512)  # fmt: skip
        await ModelBackend(config, prices={}).complete(REQUEST, deadline_s=20)
        body = fake.received[-1].body
    thinking = body["generationConfig"]["thinkingConfig"]
    assert thinking.get("thinkingBudget", thinking.get("thinking_budget")) == 512


# ----------------------------------------------------------------------------- reflection


async def test_reflection_is_one_more_call_with_the_outcome_and_questions(
    server: FakeServer, tmp_path: Path
) -> None:
    """After the game: the history, then the outcome and the questions as the last user turn;
    no tools even for a tool player; the reflection's own output cap; recorded with its cost;
    not kept in the history."""
    server.replies = [
        (200, _tool_reply([("send_message", {"message": "four wires"})])),
        (200, completion("We talked past each other about the colours.", prompt=300)),
        (200, _tool_reply([("do_nothing", {})])),
    ]
    config = PlayerConfig(model="vllm:m", base_url=server.url, output="tool", reflection=True,
                          reflection_max_tokens=3000)  # fmt: skip
    player = Player(ModelPolicy(config, "expert"), "expert", "sync", tmp_path)
    table = Table(inbox=["hi"])
    await play_turn(player, 0, table.transport(defuser=False))
    event = await reflect(player, "strikeout")
    assert event is not None
    body = server.received[1]
    assert "tools" not in body
    assert body.get("max_completion_tokens", body.get("max_tokens")) == 3000
    assert body["messages"][-1]["content"][0]["text"] == reflection_prompt("expert", "strikeout")
    assert "too many strikes" in body["messages"][-1]["content"][0]["text"]
    assert event.text == "We talked past each other about the colours."
    assert (event.role, event.outcome, event.tokens.input) == ("expert", "strikeout", 300)
    assert event.request is not None and event.request.messages
    await play_turn(player, 1, table.transport(defuser=False))
    assert "talked past" not in json.dumps(server.received[2]["messages"])


async def test_a_reflection_call_that_hangs_ends_at_the_call_deadline(tmp_path: Path) -> None:
    """A provider that takes the reflection request and never answers: the step ends at the
    call's deadline with a recorded failure (no text, no tokens), not with a hung episode."""
    held: list[asyncio.StreamWriter] = []

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)
        while await reader.read(65536):  # until the client gives up and closes
            pass
        writer.close()

    listener = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    config = PlayerConfig(model="vllm:m", base_url=f"http://127.0.0.1:{port}/v1",
                          reflection=True, transport_retries=0)  # fmt: skip
    player = Player(ModelPolicy(config, "expert", call_s=1.0), "expert", "sync", tmp_path)
    try:
        async with asyncio.timeout(30):  # a guard: the call's own deadline is 1 s
            event = await reflect(player, "solved")
    finally:
        for writer in held:
            writer.close()
        listener.close()
        await listener.wait_closed()
    assert held, "the reflection request was never sent"
    assert event is not None and event.text == ""
    assert event.failed_call is not None and "no answer within" in event.failed_call.error
    assert event.tokens.input == event.tokens.output == 0


async def test_no_reflection_unless_the_config_asks(server: FakeServer, tmp_path: Path) -> None:
    config = PlayerConfig(model="vllm:m", base_url=server.url)
    player = Player(ModelPolicy(config, "expert"), "expert", "sync", tmp_path)
    assert await reflect(player, "solved") is None
    assert server.received == []


# ----------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"output": "json"}, "output:"),
        ({"previous_frames": -1}, "previous_frames:"),
        ({"previous_frames": 17}, "previous_frames:"),
        ({"keep_thinking": "sometimes"}, "keep_thinking:"),
        ({"keep_thinking": True, "thinking": "off"}, "keep_thinking:"),
        ({"reflection": "yes please"}, "reflection:"),
        ({"reflection_max_tokens": 0}, "reflection_max_tokens:"),
    ],
)
def test_bad_knob_values_are_one_line_naming_the_field(fields: dict, named: str) -> None:
    with pytest.raises(PlayerConfigError) as err:
        _validated({"model": "openai:gpt-5.2", **fields}, "p.yaml")
    message = str(err.value)
    assert "\n" not in message and named in message


def test_defaults_keep_todays_behaviour() -> None:
    config = PlayerConfig(model="openai:gpt-5.2")
    assert (config.output, config.previous_frames, config.keep_thinking, config.reflection) == (
        "react", 1, False, False)  # fmt: skip


@pytest.mark.slow
def test_a_whole_episode_reflects_after_the_game_and_records_it(tmp_path: Path) -> None:
    """``gptnt run`` with both seats reflecting: after the bomb's end, one reflection call per
    player (the outcome told is the summary's), recorded after the last turn, its tokens in
    the summary's; the players' recorded settings carry the knobs."""
    from typer.testing import CliRunner

    from gptnt.cli import app
    from gptnt.players.cassette import ChatServer, Script, write_player_configs

    server = ChatServer(Script())
    with pytest.MonkeyPatch.context() as mp, server.running():
        mp.setenv("GPTNT_OFFLINE", "1")
        configs = write_player_configs(tmp_path / "players", server.url)
        for path in configs.values():
            path.write_text(path.read_text() + "reflection: true\nprevious_frames: 2\n")
        result = CliRunner().invoke(
            app,
            ["run", "--mission", "1", "--mode", "sync", "--defuser", str(configs["defuser"]),
             "--expert", str(configs["expert"]), "--launch", "task", "--quiet",
             "--out", str(tmp_path / "runs")],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(next((tmp_path / "runs").rglob("summary.json")).read_text())
    lines = next((tmp_path / "runs").rglob("events.jsonl")).read_text().splitlines()
    events = [json.loads(line) for line in lines]
    kinds = [e["kind"] for e in events]
    reflections = [e for e in events if e["kind"] == "reflection"]
    assert summary["outcome"] in ("solved", "strikeout", "timeout")
    assert sorted(r["role"] for r in reflections) == ["defuser", "expert"]
    assert all(r["outcome"] == summary["outcome"] and r["text"] for r in reflections)
    last_turn = max(i for i, k in enumerate(kinds) if k == "turn")
    assert kinds.index("reflection") > last_turn
    asked = [b for b in server.received if "look back on this one" in json.dumps(b["messages"])]
    assert len(asked) == 2
    turns = [e for e in events if e["kind"] == "turn"]
    total = sum(e["tokens"]["input"] for e in turns + reflections)
    assert summary["tokens"]["input"] == total
    assert summary["turns"]["defuser"] + summary["turns"]["expert"] == len(turns)
    for player in summary["players"]:
        assert player["settings"]["reflection"] is True
        assert player["settings"]["previous_frames"] == 2
        assert player["settings"]["output"] == "react"


@pytest.mark.parametrize("seat", ["defuser", "expert", "solo", "solo-no-manual"])
@pytest.mark.parametrize("outcome", ["solved", "strikeout", "timeout"])
def test_the_reflection_prompt_fits_the_seat_and_the_outcome(seat: str, outcome: str) -> None:
    text = reflection_prompt(seat, outcome)  # type: ignore[arg-type]
    first = text.splitlines()[0]
    assert first.startswith("The game is over")
    assert {"solved": "defused", "strikeout": "strikes", "timeout": "timer"}[outcome] in first
    assert ("partner" in text) == (seat in ("defuser", "expert"))


async def test_tool_output_reaches_anthropic_and_google_as_their_own_tools(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tools travel in each provider's own shape. A call is required (Anthropic
    ``tool_choice: any``, Gemini ``mode: ANY``) except where the provider forbids forcing a
    tool with thinking on (Anthropic: ``auto``; a text answer is then ``no_tool_call``)."""
    from gptnt.players.tool_actions import action_tools

    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    monkeypatch.setenv("GOOGLE_API_KEY", "k")
    tools = action_tools(("interact_game", "do_nothing"), MARKS)
    request = ChatRequest(system="s", messages=REQUEST.messages, tools=tools)
    with AnthropicServer().running() as fake:
        for extra in ({}, {"thinking_budget": 2048}):
            config = PlayerConfig(model="anthropic:claude-sonnet-4-6", base_url=fake.url,
                                  temperature=None, output="tool", **extra)  # type: ignore[arg-type]  # fmt: skip
            await ModelBackend(config, prices={}).complete(request, deadline_s=20)
        forced, thinking = (r.body for r in fake.received)
    assert [t["name"] for t in forced["tools"]] == ["interact_game", "do_nothing"]
    assert forced["tool_choice"]["type"] == "any"
    assert thinking["tool_choice"]["type"] == "auto"
    with GeminiServer().running() as fake:
        config = PlayerConfig(model="google:gemini-3-flash-preview", base_url=fake.url,
                              output="tool")  # fmt: skip
        await ModelBackend(config, prices={}).complete(request, deadline_s=20)
        body = fake.received[-1].body
    names = [f["name"] for t in body["tools"] for f in t.get("functionDeclarations", [])]
    assert names == ["interact_game", "do_nothing"]
    assert body["toolConfig"]["functionCallingConfig"]["mode"] == "ANY"


@pytest.mark.slow
def test_a_whole_episode_with_tool_output_plays_its_calls(tmp_path: Path) -> None:
    """``gptnt run`` with both seats on ``output: tool``, against the stand-in answering each
    scripted move as a tool call: every request carries the tools, every turn plays its call
    (the Defuser's clicks reach the game), no turn is lost to the format, and the records
    say ``output: tool``."""
    import re

    from typer.testing import CliRunner

    from gptnt.cli import app
    from gptnt.players.cassette import ChatServer, Script, write_player_configs

    class ToolServer(ChatServer):
        def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
            status, payload = super().answer(body)
            text = payload["choices"][0]["message"]["content"]
            found = re.search(r"<action>(.*)</action>", text, re.S)
            assert "tools" in body and found, "a tool player's request carries its tools"
            command = json.loads(found.group(1))["result"]
            return status, _tool_reply([(command["kind"], command["data"])], "reasoning")

    server = ToolServer(Script())
    with pytest.MonkeyPatch.context() as mp, server.running():
        mp.setenv("GPTNT_OFFLINE", "1")
        configs = write_player_configs(tmp_path / "players", server.url)
        for path in configs.values():
            path.write_text(path.read_text() + "output: tool\n")
        result = CliRunner().invoke(
            app,
            ["run", "--mission", "1", "--mode", "sync", "--defuser", str(configs["defuser"]),
             "--expert", str(configs["expert"]), "--launch", "task", "--quiet",
             "--out", str(tmp_path / "runs")],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(next((tmp_path / "runs").rglob("summary.json")).read_text())
    lines = next((tmp_path / "runs").rglob("events.jsonl")).read_text().splitlines()
    turns = [e for e in map(json.loads, lines) if e["kind"] == "turn"]
    assert summary["outcome"] in ("solved", "strikeout", "timeout") and len(turns) > 3
    assert not any(e["errors"] for e in turns if e["action"]["kind"] != "do_nothing")
    assert not any("no_tool_call" in " ".join(e["errors"]) for e in turns)
    clicks = [e for e in turns if e["action"]["kind"] == "interact_game"]
    assert clicks and all(e["result"] for e in clicks)
    assert all(p["settings"]["output"] == "tool" for p in summary["players"])


SMUGGLED = [
    # arguments that close the data object and name another kind after it
    (
        "send_message",
        '{"message": "hi"}, "kind": "interact_game", "data": {"action": "cut", "location": "A"}',
    ),
    (
        "do_nothing",
        '{}}, "result": {"kind": "interact_game", "data": {"action": "cut", "location": "A"}',
    ),
    ("do_nothing", '{}, "kind": "interact_game", "data": {"action": "cut", "location": "A"}}'),
]


@pytest.mark.parametrize(("kind", "args"), SMUGGLED)
def test_a_tool_calls_text_arguments_never_change_its_kind(kind: str, args: str) -> None:
    """The tool called is the kind: arguments sent as text are read on their own, so no text
    in them can make a ``send_message`` or ``do_nothing`` call cut a wire; and the turn restored
    from the history reads as it was played."""
    kinds = ("interact_game", "send_message", "do_nothing")
    played = read_tool_reply([ToolCall(kind, args)], "", allowed=kinds, interaction=MARKS,
                             finish_reason="tool_calls")  # fmt: skip
    assert played.action.kind != "interact_game"
    again = read_history_text(history_text([ToolCall(kind, args)], ""), allowed=kinds,
                              interaction=MARKS)  # fmt: skip
    assert (again.action, again.issues) == (played.action, played.issues)


def test_a_restored_turn_of_parallel_tool_calls_reads_as_played() -> None:
    """Two calls in one reply are ``multiple_actions`` when played, and so when restored."""
    kinds = ("interact_game", "send_message", "do_nothing")
    calls = [ToolCall("send_message", {"message": "hi"}),
             ToolCall("interact_game", {"action": "cut", "location": "A"})]  # fmt: skip
    played = read_tool_reply(calls, "both", allowed=kinds, interaction=MARKS,
                             finish_reason="tool_calls")  # fmt: skip
    again = read_history_text(history_text(calls, "both"), allowed=kinds, interaction=MARKS)
    assert [i.code for i in played.issues] == ["multiple_actions"]
    assert (again.action, again.issues, again.thoughts) == (
        played.action, played.issues, played.thoughts)  # fmt: skip


def _tool_expert(server: FakeServer) -> ModelPolicy:
    return ModelPolicy(PlayerConfig(model="vllm:m", base_url=server.url, output="tool"), "expert")


async def _play_expert(player: Player, turns: int) -> tuple[list, Table]:
    table, events = Table(), []
    for n in range(turns):
        table.inbox = [f"message {n}"]
        events.append(await play_turn(player, n, table.transport(defuser=False)))
    return events, table


async def test_a_replays_replacement_is_sent_by_a_tool_player(
    server: FakeServer, tmp_path: Path
) -> None:
    """A replay branch that replaces an Expert's turn with a message: the message is sent,
    whatever the Expert's output format (a tool player's replacement is a tool call)."""
    from gptnt.players.replay import Restoring

    server.replies = [(200, _tool_reply([("send_message", {"message": f"answer {n}"})]))
                      for n in range(3)]  # fmt: skip
    recorded, _ = await _play_expert(Player(_tool_expert(server), "expert", "sync", tmp_path), 3)
    server.replies = [(200, _tool_reply([("send_message", {"message": "answer 2"})]))]
    restoring = Restoring(_tool_expert(server), recorded[:1], replacement="Cut the second wire.")
    replayed, table = await _play_expert(Player(restoring, "expert", "sync", tmp_path), 3)
    assert replayed[1].action.message == "Cut the second wire.", replayed[1]
    assert table.said == ["answer 0", "Cut the second wire.", "answer 2"]


async def test_a_restored_text_answer_that_looks_like_a_call_stays_uncalled(
    server: FakeServer, tmp_path: Path
) -> None:
    """A tool player that answered in text only (no call: its turn skipped), the text ending in
    a line shaped like a command: restored, the turn is skipped again, never played."""
    from gptnt.players.replay import Restoring

    lookalike = 'I would send:\n{"result": {"kind": "send_message", "data": {"message": "x"}}}'
    server.replies = [(200, completion(lookalike)),
                      (200, _tool_reply([("send_message", {"message": "answer 1"})]))]  # fmt: skip
    recorded, first = await _play_expert(Player(_tool_expert(server), "expert", "sync", tmp_path),
                                         2)  # fmt: skip
    assert first.said == ["answer 1"] and recorded[0].errors
    restoring = Restoring(_tool_expert(server), recorded[:2])
    replayed, table = await _play_expert(Player(restoring, "expert", "sync", tmp_path), 2)
    assert table.said == first.said
    assert [e.errors for e in replayed] == [e.errors for e in recorded]


async def test_tool_calls_are_kept_within_the_output_cap(
    server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hostile tool reply is kept no larger than a text one: an argument object of 2 MB
    (Anthropic's arguments are an object, not text) is cut to ``OUTPUT_CAP_CHARS`` as its JSON
    text; a reply of 500 calls keeps ``MAX_TOOL_CALLS`` of them and is still two actions at
    once. Neither reaches the history or the record whole."""

    class Huge(AnthropicServer):
        def answer(self, body: dict[str, Any], key: str) -> tuple[int, dict[str, Any]]:
            status, payload = super().answer(body, key)
            use = {"type": "tool_use", "id": "t1", "name": "send_message",
                   "input": {"message": "w" * 2_000_000}}  # fmt: skip
            payload["content"], payload["stop_reason"] = [use], "tool_use"
            return status, payload

    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    with Huge().running() as fake:
        config = PlayerConfig(model="anthropic:claude-sonnet-4-6", base_url=fake.url,
                              temperature=None, output="tool")  # fmt: skip
        player = Player(ModelPolicy(config, "expert"), "expert", "sync", tmp_path)
        big = await play_turn(player, 0, Table().transport(defuser=False))
    assert len(big.raw_output) < OUTPUT_CAP_CHARS + 200
    assert big.action.kind == "send_message" and len(big.action.message or "") < OUTPUT_CAP_CHARS

    server.replies = [(200, _tool_reply([("do_nothing", {})] * 500))]
    config = PlayerConfig(model="vllm:m", base_url=server.url, output="tool")
    player = Player(ModelPolicy(config, "expert"), "expert", "sync", tmp_path)
    many = await play_turn(player, 0, Table().transport(defuser=False))
    assert _codes(many.errors) == ["multiple_actions"]
    assert len(many.raw_output.splitlines()) == MAX_TOOL_CALLS


async def test_tool_arguments_nested_too_deeply_are_a_malformed_response(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Arguments the provider's SDK decoded but that nest past what reading them can follow
    (700 objects deep): the call is the provider's failure, as a body nested too deeply is,
    never an exception out of ``complete``."""

    class Deep(AnthropicServer):
        def answer(self, body: dict[str, Any], key: str) -> tuple[int, dict[str, Any]]:
            status, payload = super().answer(body, key)
            nested: dict[str, Any] = {}
            for _ in range(700):
                nested = {"a": nested}
            use = {"type": "tool_use", "id": "t1", "name": "do_nothing", "input": nested}
            payload["content"], payload["stop_reason"] = [use], "tool_use"
            return status, payload

    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    with Deep().running() as fake:
        config = PlayerConfig(model="anthropic:claude-sonnet-4-6", base_url=fake.url,
                              temperature=None, output="tool", transport_retries=0)  # fmt: skip
        policy = ModelPolicy(config, "expert")
        reply = await policy.backend.complete(policy.conversation.request("hi"))
    assert reply.failure == "provider_error"
    assert (reply.record.error or "").startswith("malformed response: nested too deeply")
