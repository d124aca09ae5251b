"""A model in a seat: the ``Policy`` interface of ``policy.py``, backed by a real model.

One ``decide`` is one turn, in GPTNT's order (with its defects fixed):

1. the turn's text: last turn's ``<execution-feedback>`` (solo players get it too), then the
   partner's messages, attributed, or ``<no-new-messages/>``;
2. the Defuser's images: previous frame unmarked, Simon/Morse sequence, newest frame marked;
3. one model call (``ModelBackend``) with the conversation's request;
4. the reply is parsed and resolved against this turn's marks (``interpret``); its issues
   become next turn's feedback. A provider refusal of the content drops the turn from the
   context and asks the partner to rephrase (paper H); a solo player just waits (GPTNT sent
   the request to a partner that did not exist, §8.12). Any other provider failure loses the
   turn, and the model is told so next turn.

After each turn ``last`` holds the details a record wants (issues, usage, cost, latency).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gptnt.players._text import OUTPUT_CAP_CHARS
from gptnt.players.actions import Action, DoNothing, SendMessage
from gptnt.players.backends import MALFORMED, CallRecord, ModelBackend
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
from gptnt.players.outcome import Interpretation, interpret
from gptnt.players.policy import Decision, TurnInput
from gptnt.players.prompts import ACTORS, READERS, TALKERS, PromptSpec, Seat, system_prompt
from gptnt.protocol import Mode

REPHRASE_REQUEST = "Sorry, that message did not come through. Could you put it differently?"
"""Sent to the partner, as if from this player, when a provider refused the partner's content."""

_PARTNER_NAME: dict[Seat, str] = {"defuser": "Expert", "expert": "Defuser"}


@dataclass(frozen=True)
class ModelTurn:
    """What one turn of a model player amounted to, for the record."""

    request: ChatRequest
    call: CallRecord
    outcome: Interpretation | None
    """``None`` when the provider failed and there was no answer to interpret."""
    issues: tuple[Issue, ...]
    """Everything told to the model on its next turn (also the record's warnings/errors)."""
    shown: tuple[Attachment, ...] = ()
    """The images sent with this turn's request, exactly as sent."""

    @property
    def warnings(self) -> list[str]:
        return [i.code for i in self.issues if not i.skips]

    @property
    def errors(self) -> list[str]:
        return [i.code for i in self.issues if i.skips]

    def decision(self, action: Action, text: str) -> Decision:
        """The turn's ``Decision``, carrying the resolved ``/action``, the call record and the
        images sent."""
        return Decision(
            action,
            text,
            game_action=self.outcome.game_action if self.outcome else None,
            warnings=tuple(_note(i) for i in self.issues if not i.skips),
            errors=tuple(_note(i) for i in self.issues if i.skips),
            call=self.call,
            shown=self.shown,
        )


def _note(issue: Issue) -> str:
    return f"{issue.code}: {issue.detail}" if issue.detail else issue.code


class ModelPolicy:
    """A model player for one episode."""

    privileged = False
    sequence_frames = SEQUENCE_LENGTH
    """Frames wanted on Simon Says and Morse Code turns (the Player Service asks the game)."""

    def __init__(
        self,
        config: PlayerConfig,
        seat: Seat,
        *,
        mode: Mode = "sync",
        manual: Sequence[PageLike] = (),
        backend: ModelBackend | None = None,
        step_seconds: float = 3.0,
    ) -> None:
        self.name = config.name or config.model
        self.config = config
        self.seat = seat
        self.interaction = config.interaction_spec
        self.backend = backend or ModelBackend(config)
        spec = PromptSpec(seat, mode, self.interaction, step_seconds, config.max_tokens)
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
        )
        self._feedback: tuple[Issue, ...] = ()
        self._previous: np.ndarray | None = None
        self.last: ModelTurn | None = None

    async def decide(self, turn: TurnInput) -> Decision:
        messages = None
        if self.seat in TALKERS:
            messages = [PartnerMessage(_PARTNER_NAME[self.seat], m) for m in turn.messages]
        text = turn_text(feedback_text(self._feedback), messages)
        attachments: tuple[Attachment, ...] = ()
        marks = None
        observation = turn.observation
        if self.seat in ACTORS and observation is not None and observation.frames:
            marks = observation.marks if self.interaction.method == "set-of-marks" else None
            # The module kind (Simon/Morse get the sequence) whether or not marks are drawn.
            kind = observation.marks.kind if observation.marks is not None else None
            seen = observe(
                observation.frames,
                marks,
                kind,
                previous=self._previous,
                image_size=self.config.image_size,
            )
            attachments = seen.attachments
            self._previous = seen.newest
        request = self.conversation.request(text, attachments)
        reply = await self.backend.complete(request)
        if reply.failure == "content_filter":
            # The refused content must not stay in context, or every later call is refused too.
            self.conversation.drop()
            self._feedback = ()
            action: Action = (
                SendMessage(message=REPHRASE_REQUEST) if self.seat in TALKERS else DoNothing()
            )
            self.last = ModelTurn(request, reply.record, None, (), attachments)
            return self.last.decision(action, "")
        if reply.failure == "provider_error":
            self.conversation.record(None)
            self._feedback = (Issue("provider_error", _failure_detail(reply.record)),)
            self.last = ModelTurn(request, reply.record, None, self._feedback, attachments)
            return self.last.decision(DoNothing(), "")
        self.conversation.record(reply.text)
        self.conversation.calibrate(reply.record.usage.input_tokens)
        outcome = interpret(
            reply.text,
            seat=self.seat,
            interaction=self.interaction,
            marks=marks,
            finish_reason=reply.finish_reason,
        )
        issues = outcome.issues
        if reply.record.output_cut:
            cap = (reply.record.output_chars, OUTPUT_CAP_CHARS)
            issues = (Issue("output_capped", "{:,} characters; the first {:,}".format(*cap)),)
            issues += outcome.issues
        self._feedback = issues
        self.last = ModelTurn(request, reply.record, outcome, issues, attachments)
        return self.last.decision(outcome.action, reply.text)


def _failure_detail(call: CallRecord) -> str:
    """What the model is told about a failed call (never the provider's full message)."""
    if call.error and call.error.startswith(MALFORMED):
        return "its answer could not be read"
    return "the model could not be reached"
