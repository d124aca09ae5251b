"""A player's context: system prompt, pinned manual, and an append-only, text-only history.

Built so that consecutive requests share the longest possible prefix (provider prompt caching;
GPTNT's design let only about 41% of input tokens be cached, paper H.3, and its Claude runs
read none, since it set no cache points):

- history is **text only** and **append-only**: a turn's user text and the model's raw reply
  never change once sent; images ride only on the newest user message, after its text, so the
  next request diverges from this one only where the images were;
- the manual (Expert and solo-with-manual) is the pinned first user message, page by page:
  text, then image. It is never truncated;
- when the history outgrows the token budget, the oldest whole turns are dropped, well below
  the limit at once (so truncation, which breaks the cached prefix, happens rarely). The drop
  point only moves forward, and the estimate is recomputed from the turns actually kept, so the
  loop always ends under the budget, or raises ``ContextBudgetError`` when the pinned part
  and the newest turn alone do not fit;
- ``CachePoint`` markers go after the manual and after the newest turn's text, for providers
  that need explicit breakpoints (Anthropic); others ignore them.

Requests are provider-neutral dataclasses; a backend adapter translates them.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from gptnt.errors import ConfigError

IMAGES_DROPPED_NOTE = "(The pictures of this turn are no longer shown.)"
NO_NEW_MESSAGES = "<no-new-messages/>"
CHARS_PER_TOKEN = 4
"""Rough text size estimate, used only for the truncation budget and the prefix benchmark."""


class ContextBudgetError(ConfigError):
    """The pinned context alone (system prompt, manual, newest turn) exceeds the budget."""


# ----------------------------------------------------------------------------- vocabulary


@dataclass(frozen=True)
class TextPart:
    text: str
    kind: Literal["text"] = "text"


@dataclass(frozen=True)
class ImagePart:
    png: bytes = field(repr=False)
    kind: Literal["image"] = "image"

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.png).hexdigest()


@dataclass(frozen=True)
class CachePoint:
    """Providers with explicit prompt caching cache everything before this point."""

    kind: Literal["cache_point"] = "cache_point"


Part = TextPart | ImagePart | CachePoint


@dataclass(frozen=True)
class UserMessage:
    parts: tuple[Part, ...]
    role: Literal["user"] = "user"


@dataclass(frozen=True)
class Thought:
    """A provider's own thinking part of a reply, kept to be sent back (``keep_thinking``): its
    text and what the provider needs to accept it again (Anthropic's signature)."""

    text: str
    signature: str | None = None
    provider_name: str | None = None
    id: str | None = None


@dataclass(frozen=True)
class AssistantMessage:
    text: str
    role: Literal["assistant"] = "assistant"
    thinking: tuple[Thought, ...] = ()
    """The reply's thinking, sent back before its text (empty unless ``keep_thinking``)."""


Message = UserMessage | AssistantMessage


@dataclass(frozen=True)
class ToolSpec:
    """A tool the model may answer with (``output: tool``): its name, what it is for, and the
    JSON schema of its arguments."""

    name: str
    description: str
    parameters: dict[str, object] = field(repr=False)


@dataclass(frozen=True)
class ToolCall:
    """A tool call in a reply: the tool's name and its arguments, as the provider sent them
    (a JSON object, or its text when the provider passes the text on)."""

    name: str
    args: dict[str, object] | str


@dataclass(frozen=True)
class ChatRequest:
    """One model call's input, provider-neutral."""

    system: str
    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...] = ()
    """The tools the answer must be one call of (empty: a text answer)."""


@dataclass(frozen=True)
class Attachment:
    """An image for the newest turn, with the caption placed before it."""

    caption: str
    png: bytes = field(repr=False)


class PageLike(Protocol):
    """What the conversation needs of a manual page (``gptnt.manual.ManualPage`` fits)."""

    @property
    def number(self) -> int: ...
    @property
    def text(self) -> str: ...
    def png(self, height: int | None = None) -> bytes: ...


# ----------------------------------------------------------------------------- turn text


@dataclass(frozen=True)
class PartnerMessage:
    """A message from the partner, as delivered to this player."""

    sender: str
    """Who sent it: ``Defuser`` or ``Expert``."""
    text: str


def turn_text(feedback: str | None, messages: Sequence[PartnerMessage] | None) -> str:
    """The text of a turn: execution feedback first, then the partner's messages, each
    attributed and delimited, or ``<no-new-messages/>``. ``messages=None`` means the player
    has no partner (solo): feedback is still delivered.
    """
    lines = [feedback] if feedback else []
    if messages is not None:
        if messages:
            lines += [
                f'<message from="{m.sender.replace(chr(34), "")}">{_escape(m.text)}</message>'
                for m in messages
            ]
        else:
            lines.append(NO_NEW_MESSAGES)
    return "\n".join(lines) or "(Next turn.)"


def _escape(text: str) -> str:
    """Keep a message from closing or forging its own delimiters."""
    return text.replace("</message", "&lt;/message").replace("<message", "&lt;message")


# ----------------------------------------------------------------------------- budget


@dataclass(frozen=True)
class TokenBudget:
    """How much input a model takes. ``limit`` is the model's input window in tokens; the
    history is cut back to ``refill`` × budget when the budget (``margin`` × limit) is crossed.
    """

    limit: int
    tokens_per_image: int = 500
    margin: float = 0.9
    refill: float = 0.7

    @property
    def budget(self) -> int:
        return int(self.limit * self.margin)


def estimate(parts: Sequence[Part | Message] | Message, tokens_per_image: int) -> int:
    """Estimated tokens of parts or messages (text length / 4, a fixed cost per image)."""
    if isinstance(parts, (UserMessage, AssistantMessage)):
        parts = [parts]
    total = 0
    for item in parts:
        if isinstance(item, AssistantMessage):
            total += _text_tokens(item.text) + sum(_text_tokens(t.text) for t in item.thinking)
        elif isinstance(item, UserMessage):
            total += estimate(item.parts, tokens_per_image)
        elif isinstance(item, TextPart):
            total += _text_tokens(item.text)
        elif isinstance(item, ImagePart):
            total += tokens_per_image
    return total


def _text_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


# ----------------------------------------------------------------------------- conversation


@dataclass
class _Turn:
    text: str
    had_images: bool
    reply: str | None = None
    thinking: tuple[Thought, ...] = ()

    def messages(self) -> tuple[Message, ...]:
        parts: tuple[Part, ...] = (TextPart(self.text),)
        if self.had_images:
            parts += (TextPart(IMAGES_DROPPED_NOTE),)
        reply = self.reply if self.reply else "(no response)"
        return (UserMessage(parts), AssistantMessage(reply, thinking=self.thinking))


class Conversation:
    """One player's context for one episode."""

    def __init__(
        self,
        system: str,
        *,
        manual: Sequence[PageLike] = (),
        page_height: int | None = None,
        budget: TokenBudget | None = None,
        cache_points: bool = False,
        tools: Sequence[ToolSpec] = (),
    ) -> None:
        self.system = system
        self.tools = tuple(tools)
        self.budget = budget
        self.cache_points = cache_points
        self._manual = _manual_message(manual, page_height, cache_points) if manual else None
        self._turns: list[_Turn] = []
        self._first_kept = 0
        self._pending: _Turn | None = None
        self.scale = 1.0
        """Measured ÷ estimated input tokens of the last request (≥ 1), see ``calibrate``."""
        self._last_estimate = 0

    @property
    def turns_dropped(self) -> int:
        return self._first_kept

    def request(self, text: str, attachments: Sequence[Attachment] = ()) -> ChatRequest:
        """The request for a new turn; ``record`` (or ``drop``) must follow before the next."""
        if self._pending is not None:
            raise RuntimeError("Conversation.request called twice; record() or drop() the turn")
        self._pending = _Turn(text, bool(attachments))
        newest = self._newest(text, attachments)
        self._truncate(newest)
        request = ChatRequest(self.system, (*self._pinned(), *self._history(), newest), self.tools)
        self._last_estimate = self._estimate_request(request)
        return request

    def record(self, reply: str | None, thinking: Sequence[Thought] = ()) -> None:
        """Append the model's raw reply (possibly cut off by the token cap) to the pending turn,
        with the thinking to send back before it (``keep_thinking``; none by default).

        ``None`` (the call failed) keeps the turn with a placeholder reply, so the history still
        alternates and the turn's feedback and messages stay in context.
        """
        if self._pending is None:
            raise RuntimeError("Conversation.record called with no pending turn")
        self._pending.reply = reply
        self._pending.thinking = tuple(thinking)
        self._turns.append(self._pending)
        self._pending = None

    def drop(self) -> None:
        """Forget the pending turn entirely (a provider refused its content, paper H)."""
        self._pending = None

    def calibrate(self, input_tokens: int) -> None:
        """Teach the estimator the provider's real count for the last request, so truncation
        keeps up with a tokenizer that counts more than the estimate. Never lowers below 1.
        """
        if self._last_estimate > 0 and input_tokens > 0:
            self.scale = max(1.0, input_tokens / self._last_estimate)

    # -------------------------------------------------------------------------- internals

    def _pinned(self) -> tuple[Message, ...]:
        return (self._manual,) if self._manual is not None else ()

    def _history(self) -> tuple[Message, ...]:
        return tuple(m for turn in self._turns[self._first_kept :] for m in turn.messages())

    def _newest(self, text: str, attachments: Sequence[Attachment]) -> UserMessage:
        parts: list[Part] = [TextPart(text)]
        if self.cache_points:
            parts.append(CachePoint())
        for attachment in attachments:
            parts += [TextPart(attachment.caption), ImagePart(attachment.png)]
        return UserMessage(tuple(parts))

    def _estimate_request(self, request: ChatRequest) -> int:
        per_image = self.budget.tokens_per_image if self.budget else 0
        return _text_tokens(request.system) + estimate(request.messages, per_image)

    def _truncate(self, newest: UserMessage) -> None:
        if self.budget is None:
            return
        per_image = self.budget.tokens_per_image
        budget = self.budget.budget
        sizes = [estimate(t.messages(), per_image) for t in self._turns]
        fixed = _text_tokens(self.system) + estimate(newest, per_image)
        if self._manual is not None:
            fixed += estimate(self._manual, per_image)
        total = fixed + sum(sizes[self._first_kept :])
        if total * self.scale <= budget:
            return
        target = self.budget.refill * budget
        while self._first_kept < len(self._turns) and total * self.scale > target:
            total -= sizes[self._first_kept]
            self._first_kept += 1
        if total * self.scale > budget:
            self._pending = None
            raise ContextBudgetError(
                f"player context: the system prompt, manual and newest turn alone need about "
                f"{math.ceil(fixed * self.scale)} tokens, over the budget of {budget} "
                f"({self.budget.margin:g} × input limit {self.budget.limit}); raise the model's "
                "input limit or lower its image_size"
            )


def _manual_message(
    pages: Sequence[PageLike], page_height: int | None, cache_point: bool
) -> UserMessage:
    parts: list[Part] = [
        TextPart("The bomb defusal manual follows, page by page: each page's text, then its image.")
    ]
    for page in pages:
        parts.append(TextPart(f"Manual page {page.number}:\n{page.text.strip()}"))
        parts.append(ImagePart(page.png(page_height)))
    if cache_point:
        parts.append(CachePoint())
    return UserMessage(tuple(parts))


# ----------------------------------------------------------------------------- prefix sharing


@dataclass(frozen=True)
class PrefixShare:
    """How much of a request's input repeats the previous request's input from the start."""

    shared_tokens: int
    total_tokens: int

    @property
    def share(self) -> float:
        return self.shared_tokens / self.total_tokens if self.total_tokens else 0.0


def shared_prefix(
    previous: ChatRequest, current: ChatRequest, *, tokens_per_image: int = 500
) -> PrefixShare:
    """The estimated tokens at the start of ``current`` that equal the start of ``previous``
    (what a provider's prefix cache can serve), and ``current``'s estimated total.
    """
    prev, curr = _atoms(previous), _atoms(current)
    total = sum(_atom_tokens(a, tokens_per_image) for a in curr)
    shared = 0
    for a, b in zip(prev, curr):
        if a == b:
            shared += _atom_tokens(b, tokens_per_image)
            continue
        if a[0] == b[0] == "text":
            common = _common_prefix(a[1], b[1])
            shared += common // CHARS_PER_TOKEN
        break
    return PrefixShare(shared, total)


_Atom = tuple[str, str]


def _atoms(request: ChatRequest) -> list[_Atom]:
    """The request as a flat sequence: role boundaries, texts and image digests."""
    atoms: list[_Atom] = [("text", request.system)]
    for message in request.messages:
        atoms.append(("role", message.role))
        if isinstance(message, AssistantMessage):
            atoms += [("text", thought.text) for thought in message.thinking]
            atoms.append(("text", message.text))
            continue
        for part in message.parts:
            if isinstance(part, TextPart):
                atoms.append(("text", part.text))
            elif isinstance(part, ImagePart):
                atoms.append(("image", part.digest))
    return atoms


def _atom_tokens(atom: _Atom, tokens_per_image: int) -> int:
    kind, value = atom
    if kind == "text":
        return _text_tokens(value)
    if kind == "image":
        return tokens_per_image
    return 0


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i
