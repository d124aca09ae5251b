"""A model in a seat: the ``Policy`` interface of ``policy.py``, backed by a real model.

One ``decide`` is one turn, in GPTNT's order (with its defects fixed):

1. the turn's text: last turn's ``<execution-feedback>`` (solo players get it too), then the
   partner's messages, attributed, or ``<no-new-messages/>``;
2. the Defuser's images: the last frame of each of the previous ``previous_frames`` turns
   unmarked, Simon/Morse sequence, newest frame marked;
3. one model call (``ModelBackend``) with the conversation's request;
4. the reply is parsed into one action; its issues go into the ``Decision`` (``play_turn``
   resolves the action against this turn's marks, records the issues and tells them back next
   turn). A provider refusal of the content drops the turn from the context and asks the
   partner to rephrase (paper H); a solo player just waits. Any other provider failure loses the turn, and the model is told
   so next turn.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from gptnt import telemetry
from gptnt.players._text import OUTPUT_CAP_CHARS
from gptnt.players.actions import Action, DoNothing, SendMessage
from gptnt.players.backends import MALFORMED, CallRecord, ModelBackend, ModelReply
from gptnt.players.config import PlayerConfig
from gptnt.players.conversation import (
    Attachment,
    ChatRequest,
    Conversation,
    PageLike,
    PartnerMessage,
    TokenBudget,
    turn_text,
)
from gptnt.players.feedback import Issue, feedback_text
from gptnt.players.observation import SEQUENCE_LENGTH, observe
from gptnt.players.parsing import ParsedOutput, parse_output
from gptnt.players.policy import Decision, TurnInput
from gptnt.players.prompts import (
    ACTORS,
    READERS,
    TALKERS,
    PromptSpec,
    ReflectedOutcome,
    Seat,
    allowed_kinds,
    reflection_prompt,
    system_prompt,
)
from gptnt.players.tool_actions import (
    action_tools,
    history_text,
    read_history_text,
    read_tool_reply,
)
from gptnt.protocol import Mode

REPHRASE_REQUEST = "Sorry, that message did not come through. Could you put it differently?"
"""Sent to the partner, as if from this player, when a provider refused the partner's content."""

UNREACHABLE = "the model could not be reached"
"""What the model is told of a call the provider failed (never the provider's message)."""

_PARTNER_NAME: dict[Seat, str] = {"defuser": "Expert", "expert": "Defuser"}


class ModelPolicy:
    """A model player for one episode."""

    privileged = False
    sequence_frames = SEQUENCE_LENGTH
    """Frames wanted on Simon Says and Morse Code turns (``play_turn`` asks the game for them)."""

    def __init__(
        self,
        config: PlayerConfig,
        seat: Seat,
        *,
        mode: Mode = "sync",
        manual: Sequence[PageLike] = (),
        backend: ModelBackend | None = None,
        step_seconds: float = 3.0,
        call_s: float | None = None,
    ) -> None:
        self.name = config.name or config.model
        self.call_s = call_s
        """Wall seconds one model call may take, retries and waits included (the episode's
        ``Budget``); ``None``: the whole ``turn_timeout_s`` (a player outside an episode)."""
        self.config = config
        self.seat = seat
        self.interaction = config.interaction_spec
        self.backend = backend or ModelBackend(config)
        spec = PromptSpec(
            seat, mode, self.interaction, step_seconds, config.max_tokens, config.output
        )
        tools = (
            action_tools(allowed_kinds(seat), self.interaction) if config.output == "tool" else ()
        )
        budget = (
            TokenBudget(config.input_limit, config.tokens_per_image) if config.input_limit else None
        )
        pages = manual if seat in READERS else ()
        self.conversation = Conversation(
            system_prompt(spec),
            manual=pages,
            page_height=max(config.image_size),
            budget=budget,
            cache_points=self.backend.cache_points,
            tools=tools,
        )
        self._previous: deque[np.ndarray] = deque(maxlen=config.previous_frames)

    async def decide(self, turn: TurnInput, *, given: Given | None = None) -> Decision:
        """One turn; ``given``: its output is fixed (a restored or replaced turn of a
        counterfactual replay) and the model is not called, while the conversation grows
        exactly as if it had answered so."""
        messages = None
        if self.seat in TALKERS:
            messages = [PartnerMessage(_PARTNER_NAME[self.seat], m) for m in turn.messages]
        told = turn.feedback if self.config.execution_feedback else ()
        text = turn_text(feedback_text(told), messages)
        attachments: tuple[Attachment, ...] = ()
        observation = turn.observation
        if self.seat in ACTORS and observation is not None and observation.frames:
            seen = observe(
                observation.frames,
                observation.marks,  # play_turn builds none for a coordinates player
                observation.kind,  # Simon/Morse get the sequence, whether or not marks are drawn
                previous=self._previous,
                image_size=self.config.image_size,
            )
            attachments = seen.attachments
            self._previous.append(seen.newest)
        request = self.conversation.request(text, attachments)
        if given is not None:
            return self._given(given, attachments)
        reply = await self._call(request, self.config.max_tokens)
        call = reply.record
        if reply.failure == "content_filter":
            return self._refused(attachments, call, request)
        if reply.failure == "provider_error":
            self.conversation.record(None)
            issue = Issue("provider_error", _failure_detail(call))
            return Decision(DoNothing(), "", (issue,), call=call, shown=attachments,
                            request=request)  # fmt: skip
        text = reply.text
        if self.config.output == "tool":
            parsed = read_tool_reply(
                reply.tool_calls, reply.text, allowed=allowed_kinds(self.seat),
                interaction=self.interaction, finish_reason=reply.finish_reason,
            )  # fmt: skip
            text = history_text(reply.tool_calls, reply.text)
        else:
            parsed = self._parse(text, reply.finish_reason)
        self.conversation.record(text, reply.thinking if self.config.keep_thinking else ())
        self.conversation.calibrate(call.usage.input_tokens)
        issues = parsed.issues
        if call.output_cut:
            cap = (call.output_chars, OUTPUT_CAP_CHARS)
            issues = (Issue("output_capped", "{:,} characters; the first {:,}".format(*cap)),)
            issues += parsed.issues
        return Decision(parsed.action, text, issues, call=call, shown=attachments,
                        request=request)  # fmt: skip

    async def _call(self, request: ChatRequest, max_tokens: int) -> ModelReply:
        """One model call within the turn's call deadline, traced as a GenAI ``chat`` span."""
        with telemetry.span(
            f"chat {self.config.model_name}", gen_ai__operation__name="chat",
            gen_ai__provider__name=self.config.provider,
            gen_ai__request__model=self.config.model_name,
            gen_ai__request__max_tokens=max_tokens,
            gen_ai__request__temperature=self.config.temperature,
        ) as span:  # fmt: skip
            reply = await self.backend.complete(
                request, deadline_s=self.call_s,
                max_tokens=None if max_tokens == self.config.max_tokens else max_tokens,
            )  # fmt: skip
            span.set_attributes(telemetry.call_attributes(reply.record))
        return reply

    def _parse(self, text: str, finish_reason: str | None) -> ParsedOutput:
        return parse_output(
            text, allowed=allowed_kinds(self.seat), method=self.interaction.method,
            finish_reason=finish_reason,
        )  # fmt: skip

    async def reflect(self, outcome: ReflectedOutcome) -> Reflected:
        """The reflection step (``PlayerConfig.reflection``): one more call after the game, its
        history then the outcome and the questions (``prompts/reflection.yaml``) as a last
        user turn, answered in text (no tools) within ``reflection_max_tokens`` and the turn's
        call deadline. The turn is not kept in the history, and the answer goes to no one."""
        text = reflection_prompt(self.seat, outcome)
        request = dataclasses.replace(self.conversation.request(text), tools=())
        self.conversation.drop()
        reply = await self._call(request, self.config.reflection_max_tokens)
        return Reflected(reply.text, reply.finish_reason, reply.record, request)

    def _refused(
        self, shown: tuple[Attachment, ...], call: CallRecord | None, request: ChatRequest | None
    ) -> Decision:
        # The refused content must not stay in context, or every later call is refused too.
        self.conversation.drop()
        action: Action = (
            SendMessage(message=REPHRASE_REQUEST) if self.seat in TALKERS else DoNothing()
        )
        return Decision(action, "", call=call, shown=shown, request=request)

    def _given(self, given: Given, shown: tuple[Attachment, ...]) -> Decision:
        """A fixed output, taken into the conversation as the model's own (``decide``); no
        request was sent, so none is recorded."""
        if given.outcome == "refused":
            return self._refused(shown, None, None)
        if given.outcome == "lost":
            self.conversation.record(None)
            issue = Issue("provider_error", UNREACHABLE)
            return Decision(DoNothing(), "", (issue,), shown=shown)
        self.conversation.record(given.text)
        if self.config.output == "tool" and given.uncalled is not None:
            finish = "length" if given.uncalled == "output_truncated" else "stop"
            parsed = read_tool_reply((), given.text, allowed=allowed_kinds(self.seat),
                                     interaction=self.interaction, finish_reason=finish)  # fmt: skip
        elif self.config.output == "tool":
            parsed = read_history_text(
                given.text, allowed=allowed_kinds(self.seat), interaction=self.interaction
            )
        else:
            parsed = self._parse(given.text, "stop")
        return Decision(parsed.action, given.text, parsed.issues, shown=shown)


@dataclass(frozen=True)
class Reflected:
    """A reflection step's answer (``ModelPolicy.reflect``): the text ("" if the call failed),
    the call, and the request sent."""

    text: str
    finish_reason: str | None
    call: CallRecord
    request: ChatRequest


@dataclass(frozen=True)
class Given:
    """A turn's output fixed in advance instead of asked of the model: a recorded turn's
    (``answered``, or the provider ``lost`` or ``refused`` the call) or a replacement."""

    text: str
    outcome: Literal["answered", "lost", "refused"] = "answered"
    uncalled: Literal["no_tool_call", "output_truncated"] | None = None
    """A tool player's reply that made no call (its text only, however that text reads), by the
    issue its record gave it; ``None``: the text is ``history_text``'s, calls and all."""


def _failure_detail(call: CallRecord) -> str:
    """What the model is told about a failed call (never the provider's full message)."""
    if call.error and call.error.startswith(MALFORMED):
        return "its answer could not be read"
    return UNREACHABLE
