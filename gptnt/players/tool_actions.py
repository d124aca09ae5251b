"""Actions as typed tool calls (``PlayerConfig.output: tool``), beside the paper's text format.

Each action kind the seat may use is one tool of the same name (``interact_game``,
``send_message``, ``do_nothing``) whose arguments are the command's ``data``, so the schema of
every command travels in the request itself. The request requires one tool call (pydantic-ai's
output tools; no function tool is ever run, and no tool result is sent back).

A reply is read by the rules of the text format (``gptnt.players.parsing.parse_call``): the
call becomes ``{"result": {"kind": <tool>, "data": <arguments>}}`` and is interpreted exactly
as the JSON inside ``<action>``, with the same issues, the same skips and the same feedback. No
call at all (a text answer) is ``no_tool_call``; more than one is ``multiple_actions``, as two
``<action>`` blocks are. Any text beside the call is the reasoning.

The history keeps each reply as text, the command as that JSON after the reasoning (GPTNT's
coercion of tool calls into text: the model never sees a "tool result", which the paper found
read as confirmation of success, F.3), so the conversation stays append-only text.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

from gptnt.players.actions import LOCATED_ACTIONS, ActionKindName, DoNothing, Interaction
from gptnt.players.conversation import ToolCall, ToolSpec
from gptnt.players.feedback import Issue, IssueCode
from gptnt.players.parsing import FinishReason, ParsedOutput, parse_call
from gptnt.protocol import MODEL_ACTIONS

_DESCRIPTIONS: dict[ActionKindName, str] = {
    "do_nothing": "Let this turn pass.",
    "send_message": "Send a message to your partner; it arrives at the start of their turn.",
    "interact_game": (
        "Handle the bomb: one action, with a location for the actions that touch an element ("
        + ", ".join(sorted(LOCATED_ACTIONS))
        + ")."
    ),
}


def action_tools(kinds: Sequence[ActionKindName], interaction: Interaction) -> tuple[ToolSpec, ...]:
    """One tool per action kind in ``kinds`` (the seat's, in the prompt's order)."""
    return tuple(ToolSpec(k, _DESCRIPTIONS[k], _schema(k, interaction)) for k in kinds)


def _schema(kind: ActionKindName, interaction: Interaction) -> dict[str, object]:
    if kind == "do_nothing":
        return {"type": "object", "properties": {}}
    if kind == "send_message":
        return {
            "type": "object",
            "properties": {"message": {"type": "string", "description": "The text to send."}},
            "required": ["message"],
        }
    if interaction.method == "set-of-marks":
        location: dict[str, object] = {
            "type": "string",
            "description": "The letters of a location marker in the newest picture.",
        }
    else:
        location = {
            "type": "object",
            "description": f"A point on the newest picture ({interaction.coordinates}).",
            "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
            "required": ["x", "y"],
        }
    return {
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": list(MODEL_ACTIONS)},
            "location": location,
        },
        "required": ["action"],
    }


def read_tool_reply(
    calls: Sequence[ToolCall],
    text: str,
    *,
    allowed: Collection[ActionKindName],
    interaction: Interaction,
    finish_reason: FinishReason,
) -> ParsedOutput:
    """The action of a tool-call reply, by the text format's rules (module docstring)."""
    thoughts = text.strip() or None
    if not calls:
        code: IssueCode = "output_truncated" if finish_reason == "length" else "no_tool_call"
        detail = "" if code == "output_truncated" or not thoughts else "answered in text only"
        return ParsedOutput(DoNothing(), thoughts, (Issue(code, detail),))
    if len(calls) > 1:
        names = ", ".join(c.name for c in calls)
        return ParsedOutput(DoNothing(), thoughts, (Issue("multiple_actions", names),))
    call = calls[0]
    parsed = parse_call(call.name, call.args, allowed=allowed, method=interaction.method)
    return ParsedOutput(parsed.action, thoughts, parsed.issues)


def command(call: ToolCall) -> dict[str, object]:
    """The call as the text format's command, ``{"result": {"kind", "data"}}``. Arguments the
    provider passed as text are the data as parsed if they are a JSON object, else that text
    itself (``parse_call`` reads it again as it read it when played)."""
    data: object = call.args
    if isinstance(data, str):
        try:
            value = json.loads(data)
        except ValueError:
            value = None
        data = value if isinstance(value, dict) else data
    return {"result": {"kind": call.name, "data": data}}


def history_text(calls: Sequence[ToolCall], text: str) -> str:
    """The reply as the history keeps it: the reasoning, then each call as its command JSON.
    Reasoning whose last line itself reads as a command is set off from the calls by a blank
    line (which no other such text has), so ``read_history_text`` finds where the calls start.
    """
    reasoning = text.strip()
    lines = [reasoning] if reasoning else []
    if calls and reasoning and _result(reasoning.rsplit("\n", 1)[-1]) is not None:
        lines.append("")
    lines += [json.dumps(command(call), ensure_ascii=False) for call in calls]
    return "\n".join(lines)


def _result(line: str) -> dict[str, Any] | None:
    """The ``result`` of a line that is a command's JSON (``command``), else ``None``."""
    try:
        value = json.loads(line)
    except ValueError:
        return None
    if not (isinstance(value, dict) and isinstance(value.get("result"), dict)):
        return None
    return value["result"]


def read_history_text(
    text: str, *, allowed: Collection[ActionKindName], interaction: Interaction
) -> ParsedOutput:
    """A reply as ``history_text`` kept it, read again (a replay's restored turn): its last
    lines are the calls' commands (one per call, so parallel calls read as played), up to a
    blank line or a line that is not one; the lines before them the reasoning; no such line,
    the reply called no tool."""
    lines = text.strip().split("\n")
    calls: list[ToolCall] = []
    while lines and (result := _result(lines[-1])) is not None:
        calls.insert(0, ToolCall(str(result.get("kind", "")), result.get("data", {})))
        lines.pop()
    return read_tool_reply(calls, "\n".join(lines), allowed=allowed, interaction=interaction,
                           finish_reason="stop")  # fmt: skip
