"""Model backends through pydantic-ai: one call per turn, and a record of what it cost.

A ``ChatRequest`` (our provider-neutral form, ``conversation.py``) becomes pydantic-ai messages
and goes out through ``pydantic_ai.direct.model_request``: no agent, no tools, no streaming, no
output validation and so no output retries (a bad answer is feedback, not a retry). The
transport retries (``PlayerConfig.transport_retries``) are ours, not the SDK's: only for a
transient failure (429, 5xx, no answer, a body that is not the API's), after the provider's
``Retry-After``, and only within the call's deadline (the turn's budget, ``Budget`` in
``gptnt.services.manager``); every failed attempt's status is in ``CallRecord.attempts``.

A call never raises for a provider's failure: the reply says ``failure="content_filter"`` (the
provider refused the content; the caller applies the paper's rephrase treatment, H) or
``failure="provider_error"`` (the turn is lost; the model is told on its next turn), which
includes payloads that cannot be read (no JSON, ``"choices": []``, a body over
``MAX_RESPONSE_BYTES``, cut there by ``gptnt.players._body``). The player's own secrets
(its key, its URL's password) are scrubbed from the reply and the error. The text that is kept is
valid Unicode and at most ``OUTPUT_CAP_CHARS`` long (``gptnt.players._text``): a 5 MB answer
would otherwise be resent on every later turn and stored whole in the record.

With ``GPTNT_OFFLINE=1`` (set by the test suite) only endpoints on this machine are allowed,
so a test can never reach a paid API.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import math
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlparse

from pydantic import BaseModel, ConfigDict, Field

from gptnt.bounded import read_yaml
from gptnt.endpoints import HIDDEN, scrub_text, scrub_url, url_secrets
from gptnt.errors import PlayerConfigError
from gptnt.players._body import body_too_large
from gptnt.players._text import OUTPUT_CAP_CHARS, keep
from gptnt.players.config import PlayerConfig
from gptnt.players.conversation import (
    AssistantMessage,
    CachePoint,
    ChatRequest,
    ImagePart,
    TextPart,
    Thought,
    ToolCall,
    ToolSpec,
)
from gptnt.players.providers import (
    BASE_URL_ENV,
    OWN_PROVIDERS,
    build_model,
    env_base_url,
    model_base_url,
)
from gptnt.resources import configs_dir
from gptnt.waits import patient_timeout

if TYPE_CHECKING:
    from pydantic_ai import messages as pm
    from pydantic_ai.models import Model, ModelRequestParameters

OFFLINE_ENV = "GPTNT_OFFLINE"
PRICES_PATH = configs_dir() / "prices.yaml"
CACHE_POINT_PROVIDERS = frozenset({"anthropic"})
"""Providers that cache only at explicit breakpoints; others cache prefixes on their own."""

Failure = Literal["content_filter", "provider_error"]
DEFAULT_KEY_ENV: dict[str, tuple[str, ...]] = {
    "anthropic": ("ANTHROPIC_API_KEY",),
    "openai": ("OPENAI_API_KEY",),
    "google": ("GOOGLE_API_KEY", "GEMINI_API_KEY"),
    "vllm": (),
}
"""Where a key is looked for when a config names no ``api_key_env`` (as the SDKs do)."""
NO_KEY = "EMPTY"
"""What a ``vllm:`` config without ``api_key_env`` sends (the OpenAI client needs some key)."""
MALFORMED = "malformed response"
"""How ``CallRecord.error`` starts when the provider's payload could not be read."""

_FILTER_HINTS = (
    "content_filter",
    "content management policy",
    "flagged as potentially violating",
    "invalid_prompt",
    "invalid prompt",
    "safety",
)


class Price(BaseModel):
    """USD per million tokens."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cache_read: float | None = Field(None, ge=0)
    cache_write: float | None = Field(None, ge=0)

    def cost(self, usage: Usage) -> float:
        uncached = max(0, usage.input_tokens - usage.cache_read_tokens - usage.cache_write_tokens)
        read = self.cache_read if self.cache_read is not None else self.input
        write = self.cache_write if self.cache_write is not None else self.input
        return (
            uncached * self.input
            + usage.cache_read_tokens * read
            + usage.cache_write_tokens * write
            + usage.output_tokens * self.output
        ) / 1_000_000


class Usage(BaseModel):
    """Tokens of one call. ``input_tokens`` includes the cached ones."""

    model_config = ConfigDict(frozen=True)

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0


MAX_CALL_TOKENS = 100_000_000
"""More tokens than one call reads or writes (no model's context holds as many): a count past
it in a provider's usage report is as wrong as a negative one."""


def reported_usage(got: pm.RequestUsage) -> Usage | None:
    """A reply's tokens as its provider reported them; ``None`` when the report cannot be
    believed: a negative count or one past ``MAX_CALL_TOKENS``, or no input at all (every
    request has a system prompt; pydantic-ai reads a missing or unreadable report as zeros).
    """
    counts = (got.input_tokens, got.output_tokens, got.cache_read_tokens, got.cache_write_tokens)
    if got.input_tokens <= 0 or not all(0 <= n <= MAX_CALL_TOKENS for n in counts):
        return None
    return Usage(
        input_tokens=got.input_tokens,
        output_tokens=got.output_tokens,
        cache_read_tokens=got.cache_read_tokens,
        cache_write_tokens=got.cache_write_tokens,
    )


class CallRecord(BaseModel):
    """What one model call took: timestamps are wall-clock UTC; latency in wall seconds."""

    model_config = ConfigDict(frozen=True)

    model: str
    requested_at: datetime
    responded_at: datetime
    latency_s: float
    usage: Usage
    cost_usd: float | None
    """``None`` when the price table has no entry for the model, or when the provider's usage
    report cannot be believed (``reported_usage``; its tokens are then recorded as 0)."""
    finish_reason: str | None
    failure: Failure | None = None
    error: str | None = None
    output_chars: int = 0
    """Characters of the reply as received; the text kept (``ModelReply.text``) is at most
    ``OUTPUT_CAP_CHARS`` of them, scrubbed of lone surrogates."""

    @property
    def output_cut(self) -> bool:
        return self.output_chars > OUTPUT_CAP_CHARS

    status: int | None = None
    """The provider's HTTP status of a failed call; ``None`` when no answer came (unreachable)."""
    attempts: tuple[int | None, ...] = ()
    """The status of every failed attempt of this call, in order (``None``: no answer), also
    when a later attempt answered."""


@dataclass(frozen=True)
class ModelReply:
    """The model's text as kept (empty on failure; valid Unicode, at most ``OUTPUT_CAP_CHARS``
    characters) and the call's record; its tool calls (a request with ``tools``) and the
    provider's own thinking, each scrubbed of the player's secrets like the text.
    """

    text: str
    finish_reason: str | None
    record: CallRecord
    tool_calls: tuple[ToolCall, ...] = ()
    thinking: tuple[Thought, ...] = ()

    @property
    def failure(self) -> Failure | None:
        return self.record.failure


def load_prices(path: Path | None = None) -> dict[str, Price]:
    """The price table (model name → ``Price``); entries with unknown prices are skipped."""
    source = path or PRICES_PATH
    if not source.is_file():
        return {}
    data = read_yaml(source) or {}
    models = data.get("models", {}) if isinstance(data, dict) else {}
    return {name: Price.model_validate(p) for name, p in models.items() if p}


def check_endpoint(config: PlayerConfig) -> None:
    """Refuse a non-local endpoint while ``GPTNT_OFFLINE`` is set (tests never call real APIs).
    The endpoint is the config's ``base_url``, else the provider's own variable, else (for a
    provider pydantic-ai builds) the URL its provider reports. Such a provider is built here,
    always: a missing SDK, endpoint or credential is told before anything starts."""
    model = None
    if config.provider not in OWN_PROVIDERS:
        model = build_model(config, api_key(config) or None)
    if os.environ.get(OFFLINE_ENV, "") not in ("1", "true", "yes"):
        return
    url = config.base_url or env_base_url(config) or (model_base_url(model) if model else None)
    host = urlparse(url).hostname if url else None
    if host is None or not _is_local(host):
        raise PlayerConfigError(
            f"player {config.name or config.model}: base_url {scrub_url(url or '')!r} is not "
            "on this "
            f"machine and {OFFLINE_ENV} is set; point base_url at a local server"
        )


class ModelBackend:
    """One model, ready to answer ``ChatRequest``s."""

    def __init__(self, config: PlayerConfig, *, prices: dict[str, Price] | None = None) -> None:
        check_endpoint(config)
        self.config = config
        self.cache_points = config.provider in CACHE_POINT_PROVIDERS
        key = api_key(config)
        self._model = build_model(config, key or None)
        prices = load_prices() if prices is None else prices
        self._price = prices.get(config.model_name)
        self._settings = provider_settings(config)
        self._thinking_budget = thinking_budget(config)
        url = config.base_url or env_base_url(config)
        secrets = {s for s in (key, *url_secrets(url)) if len(s) >= 4 and s != NO_KEY}
        self._secrets = tuple(sorted(secrets, key=len, reverse=True))

    async def complete(
        self,
        request: ChatRequest,
        *,
        deadline_s: float | None = None,
        max_tokens: int | None = None,
    ) -> ModelReply:
        """Send one request within ``deadline_s`` wall seconds (every attempt and every wait
        between attempts; default: the player's whole ``turn_timeout_s``, as outside an
        episode); never raises for the provider's failures. ``max_tokens``: this call's output
        cap instead of the config's (the reflection's); a request with ``tools`` must be
        answered with one of them (pydantic-ai's output tools, ``tool_choice`` required).

        Attempts are ours, not the SDK's (its own retries are off): a transient failure (429,
        408, 409, 5xx, no answer, a body that is not the API's) is tried again, up to
        ``transport_retries`` times, after the provider's ``Retry-After`` or a short backoff,
        only while the deadline leaves time for the wait and ``MIN_ATTEMPT_S`` more.
        """
        budget = self.config.turn_timeout_s if deadline_s is None else deadline_s
        requested_at = datetime.now(UTC)
        start = time.monotonic()
        end = start + budget
        messages = to_pydantic_ai(request)
        settings = self._settings
        if max_tokens is not None:
            settings = {**settings, "max_tokens": max_tokens + self._thinking_budget}
        parameters = _parameters(request.tools)
        statuses: list[int | None] = []
        failed: _Failure | None = None
        for attempt in range(self.config.transport_retries + 1):
            left = end - time.monotonic()
            if left <= 0:
                break
            try:
                async with patient_timeout(left):  # a stalled loop does not cut an answer
                    response = await _request(self._model, messages, settings, parameters, left)
                # reading the answer is part of the call: a payload that breaks it is malformed
                reply = self._replied(response, requested_at, start, tuple(statuses))
            except TimeoutError:
                failed = _Failure("provider_error", f"no answer within the call's {budget:g} s")
            except Exception as err:  # every failure of the call is a reply
                failed = _failure(err)
            else:
                return reply
            statuses.append(failed.status)
            if not failed.transient or attempt == self.config.transport_retries:
                break
            wait = failed.retry_after if failed.retry_after is not None else _backoff(attempt)
            left = end - time.monotonic()
            if wait + MIN_ATTEMPT_S > left:
                if failed.retry_after is not None:
                    failed = failed.later(
                        f"Retry-After {wait:g} s leaves no time within the call's {budget:g} s"
                    )
                break
            await asyncio.sleep(wait)
        if failed is None:  # no time at all to try (a zero budget)
            failed = _Failure("provider_error", f"no time left within the call's {budget:g} s")
        return self._failed(requested_at, start, failed, tuple(statuses))

    def _replied(
        self,
        response: pm.ModelResponse,
        requested_at: datetime,
        start: float,
        statuses: tuple[int | None, ...],
    ) -> ModelReply:
        parts = getattr(response, "parts", [])
        raw = "".join(p.content for p in parts if getattr(p, "part_kind", "") == "text")
        kept = keep(self._scrub(raw))
        calls = tuple(
            ToolCall(p.tool_name, _scrubbed_args(p.args, self._scrub))
            for p in parts if getattr(p, "part_kind", "") == "tool-call"
        )[:MAX_TOOL_CALLS]  # fmt: skip
        thinking = tuple(
            Thought(keep(self._scrub(p.content)).text, p.signature, p.provider_name, p.id)
            for p in parts if getattr(p, "part_kind", "") == "thinking" and p.content
        )  # fmt: skip
        text = kept.text
        usage = reported_usage(response.usage)
        finish = response.finish_reason
        record = CallRecord(
            model=self.config.model,
            requested_at=requested_at,
            responded_at=datetime.now(UTC),
            latency_s=time.monotonic() - start,
            usage=usage or Usage(),
            cost_usd=self._price.cost(usage) if self._price and usage else None,
            finish_reason=finish,
            failure="content_filter" if finish == "content_filter" else None,
            output_chars=kept.original_chars,
            attempts=statuses,
        )
        return ModelReply(text, finish, record, calls, thinking)

    def _scrub(self, text: str) -> str:
        """``text`` without this player's own secrets (its key, its URL's password): a server
        that echoes them back must not put them into the records or the next request."""
        for secret in self._secrets:
            text = text.replace(secret, HIDDEN)
        return text

    def _failed(
        self,
        requested_at: datetime,
        start: float,
        failed: _Failure,
        statuses: tuple[int | None, ...],
    ) -> ModelReply:
        record = CallRecord(
            model=self.config.model,
            requested_at=requested_at,
            responded_at=datetime.now(UTC),
            latency_s=time.monotonic() - start,
            usage=Usage(),
            cost_usd=0.0 if self._price else None,
            finish_reason=None,
            failure=failed.failure,
            error=scrub_text(failed.error, self._secrets)[:500],
            status=failed.status,
            attempts=statuses,
        )
        return ModelReply("", None, record)


MIN_ATTEMPT_S = 1.0
"""Wall seconds a retry must still have after its wait, or it is not made."""
RETRY_STATUSES = frozenset({408, 409, 429})
"""Statuses (besides 5xx) that say "try again" (as the provider SDKs treat them)."""


def _backoff(attempt: int) -> float:
    """Seconds before retry ``attempt + 1`` when the provider names none: 0.5, 1, 2, … 8."""
    return min(8.0, 0.5 * 2**attempt)


@dataclass(frozen=True)
class _Failure:
    """One failed attempt, as the backend classifies it."""

    failure: Failure
    error: str
    status: int | None = None
    transient: bool = True
    """Worth another attempt: the same request may well succeed."""
    retry_after: float | None = None

    def later(self, why: str) -> _Failure:
        return _Failure(self.failure, f"{self.error}; {why}", self.status, False, self.retry_after)


def _failure(err: Exception) -> _Failure:
    """What an exception of ``model_request`` says about the provider."""
    from pydantic_ai import exceptions

    status = _status(err)
    cut = body_too_large(err)
    if cut is not None:  # never the model's reply: the same request would get the same body
        return _Failure("provider_error", f"{MALFORMED}: {cut}", status, transient=False)
    if isinstance(err, exceptions.ContentFilterError):
        return _Failure("content_filter", str(err), status, transient=False)
    if isinstance(err, (exceptions.ModelAPIError, exceptions.UnexpectedModelBehavior)):
        if _filtered(err):
            return _Failure("content_filter", f"{type(err).__name__}: {err}", status, False)
        error = f"{type(err).__name__}: {err}"
        if _malformed(err):
            return _Failure("provider_error", f"{MALFORMED}: {error}", status)
        transient = status is None or status >= 500 or status in RETRY_STATUSES
        return _Failure("provider_error", error, status, transient, _retry_after(err))
    if isinstance(err, RecursionError):  # JSON nested past the decoder's depth: an answer came
        return _Failure("provider_error", f"{MALFORMED}: nested too deeply", status)
    if isinstance(err, (IndexError, KeyError, TypeError, AttributeError, ValueError)):
        # pydantic-ai reads the payload as the provider documents it (``choices[0]``); a
        # payload that breaks that reading (``"choices": []``) is the provider's fault.
        return _Failure("provider_error", f"{MALFORMED}: {type(err).__name__}: {err}", status)
    # Anything else the HTTP stack raises (a reset, a protocol error): no answer came.
    return _Failure("provider_error", f"{type(err).__name__}: {err}", None)


def _retry_after(err: Exception) -> float | None:
    """The seconds the provider asked to wait (``Retry-After``, whole or fractional), if any."""
    after = getattr(err, "retry_after", None)
    if after is None:
        headers = getattr(err, "headers", None) or {}
        with contextlib.suppress(TypeError, ValueError):
            after = float(headers.get("retry-after", ""))
    if isinstance(after, (int, float)) and math.isfinite(after) and after >= 0:
        return float(after)
    return None


async def _request(
    model: Model,
    messages: list[pm.ModelMessage],
    settings: dict[str, object],
    parameters: ModelRequestParameters | None,
    left: float,
) -> pm.ModelResponse:
    """One attempt, with the SDK's own retries off and its timeout the time left."""
    from pydantic_ai.direct import model_request

    # provider_settings also holds provider-specific keys, beyond the ModelSettings TypedDict
    attempt = {**settings, "timeout": left, "max_retries": 0}
    return await model_request(
        model,
        messages,
        model_settings=attempt,  # type: ignore[arg-type]
        model_request_parameters=parameters,
    )


def _parameters(tools: tuple[ToolSpec, ...]) -> ModelRequestParameters | None:
    """The request's tools as pydantic-ai output tools, a call of one of them required (no
    text answer); ``None`` for a text answer (pydantic-ai's default)."""
    if not tools:
        return None
    from pydantic_ai.models import ModelRequestParameters
    from pydantic_ai.tools import ToolDefinition

    definitions = [
        ToolDefinition(name=t.name, description=t.description,
                       parameters_json_schema=t.parameters, strict=False, kind="output")
        for t in tools
    ]  # fmt: skip
    return ModelRequestParameters(
        output_mode="tool", output_tools=definitions, allow_text_output=False
    )


MAX_TOOL_CALLS = 8
"""The most tool calls of one reply that are kept (more than one is ``multiple_actions``
anyway): with each call's arguments at most ``OUTPUT_CAP_CHARS``, a reply of thousands of
calls does not fill the history that is resent every turn."""


def _scrubbed_args(args: object, scrub: Callable[[str], str]) -> dict[str, object] | str:
    """A tool call's arguments with the player's secrets removed from every text in them, and
    at most ``OUTPUT_CAP_CHARS`` long as the reply's text is: an object longer than that as
    JSON is kept as its JSON text, cut there (read as a cut answer is: repaired or refused).
    """
    if isinstance(args, dict):
        cleaned = _scrubbed_object(args, scrub)
        text = json.dumps(cleaned, ensure_ascii=False, default=str)
        if len(text) <= OUTPUT_CAP_CHARS:
            return cleaned
        args = text
    if isinstance(args, str):
        return keep(scrub(args)).text
    return {}


def _scrubbed_object(args: dict[object, object], scrub: Callable[[str], str]) -> dict[str, object]:
    def clean(value: object) -> object:
        if isinstance(value, str):
            return scrub(value)
        if isinstance(value, dict):
            return {str(k): clean(v) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value

    return {str(k): clean(v) for k, v in args.items()}


def to_pydantic_ai(request: ChatRequest) -> list[pm.ModelMessage]:
    """Our request as pydantic-ai messages: the system prompt in the first request, user turns
    as ``UserPromptPart``s (text, PNG ``BinaryContent``, ``CachePoint``), replies as text.
    """
    from pydantic_ai import messages as pm

    out: list[pm.ModelMessage] = []
    system_sent = False
    for message in request.messages:
        if isinstance(message, AssistantMessage):
            thoughts: list[pm.ModelResponsePart] = [
                pm.ThinkingPart(content=t.text, id=t.id, signature=t.signature,
                                provider_name=t.provider_name)
                for t in message.thinking
            ]  # fmt: skip
            out.append(pm.ModelResponse(parts=[*thoughts, pm.TextPart(content=message.text)]))
            continue
        parts: list[pm.ModelRequestPart] = []
        if not system_sent:
            parts.append(pm.SystemPromptPart(content=request.system))
            system_sent = True
        parts.append(pm.UserPromptPart(content=[_content(p) for p in message.parts]))
        out.append(pm.ModelRequest(parts=parts))
    return out


def _content(part: TextPart | ImagePart | CachePoint) -> pm.UserContent:
    from pydantic_ai import messages as pm

    if isinstance(part, TextPart):
        return part.text
    if isinstance(part, ImagePart):
        return pm.BinaryContent(data=part.png, media_type="image/png")
    return pm.CachePoint()


VLLM_EFFORT: dict[str, str] = {
    "minimal": "low", "low": "low", "medium": "medium", "high": "high", "max": "high",
}  # fmt: skip
"""``thinking``'s effort level as a vLLM request's ``reasoning_effort`` (it takes low … high)."""
THINKING_BUDGET_PROVIDERS = ("anthropic", "google")
"""Providers that take a cap on thinking tokens (``thinking_budget``); the others (OpenAI's
reasoning effort, vLLM's chat template) take only the effort level of ``thinking``."""


def thinking_budget(config: PlayerConfig) -> int:
    """The tokens added to a call's output cap for thinking (``thinking_budget`` where the
    provider takes one, else 0): the answer keeps its own cap."""
    if config.provider not in THINKING_BUDGET_PROVIDERS:
        return 0
    return config.thinking_budget or 0


def provider_settings(config: PlayerConfig) -> dict[str, object]:
    """The pydantic-ai model settings a config sends with every request."""
    budget = thinking_budget(config)
    settings: dict[str, object] = {
        # A thinking budget is spent out of the output tokens: the answer keeps its own cap.
        "max_tokens": config.max_tokens + budget,
        # Our system prompt goes out exactly as written, identical on every request.
        "framing_announcement": "never",
    }
    if config.temperature is not None:
        settings["temperature"] = config.temperature
    if config.thinking is not None:
        settings["thinking"] = False if config.thinking == "off" else config.thinking
    extra: dict[str, object] = {}
    if config.template_kwargs:  # vLLM reads it from the body, next to the OpenAI fields
        extra["chat_template_kwargs"] = config.template_kwargs
    if config.provider == "vllm" and config.thinking not in (None, "off"):
        # pydantic-ai sends no effort to a vLLM server; vLLM takes OpenAI's field (low …
        # high), which reasoning models' templates read (gpt-oss).
        extra["reasoning_effort"] = VLLM_EFFORT[config.thinking]
    if extra:
        settings["extra_body"] = extra
    if budget and config.thinking != "off":
        if config.provider == "anthropic":
            settings["anthropic_thinking"] = {"type": "enabled", "budget_tokens": budget}
        else:
            settings["google_thinking_config"] = {"thinking_budget": budget}
    return settings


def key_variables(config: PlayerConfig | None) -> tuple[str, ...]:
    """The environment variables ``config``'s key is read from (none for a scripted player):
    its ``api_key_env``, else the provider's usual ones (none known for a provider pydantic-ai
    builds: it reads its own, ``provider_env``)."""
    if config is None:
        return ()
    if config.api_key_env:
        return (config.api_key_env,)
    return DEFAULT_KEY_ENV.get(config.provider, ())


PROVIDER_ENV_PREFIXES: dict[str, tuple[str, ...]] = {
    "azure": ("AZURE_", "OPENAI_API_VERSION"),
    "bedrock": ("AWS_",),
    "google-cloud": ("GOOGLE_", "CLOUD_ML_"),
    "google-vertex": ("GOOGLE_", "CLOUD_ML_"),
}
"""Variables a provider pydantic-ai builds reads, by prefix, where they are not ``NAME_``."""


def provider_env(config: PlayerConfig | None, environ: Mapping[str, str]) -> dict[str, str]:
    """What of ``environ`` the process calling ``config``'s provider needs (and nothing of
    any other provider's): its key variable(s), its SDK's endpoint variable, and for a
    provider pydantic-ai builds the variables of its prefix (``GROQ_…``, ``AWS_…``)."""
    if config is None:
        return {}
    names = set(key_variables(config))
    if config.provider in BASE_URL_ENV:
        names.add(BASE_URL_ENV[config.provider])
    prefixes: tuple[str, ...] = ()
    if config.provider not in OWN_PROVIDERS:
        own = config.provider.upper().replace("-", "_") + "_"
        prefixes = (own, *PROVIDER_ENV_PREFIXES.get(config.provider, ()))
    return {k: v for k, v in environ.items() if v and (k in names or k.startswith(prefixes))}


def api_key(config: PlayerConfig) -> str:
    """The key ``config`` authenticates with, read from its ``api_key_env`` (else the
    provider's usual variable). A ``vllm:`` config that names no variable sends a placeholder
    (a vLLM server started without ``--api-key`` takes any), and so does an ``openai:`` one
    pointed at another server (``base_url`` or ``OPENAI_BASE_URL``), as pydantic-ai does; every
    other missing key is a ``PlayerConfigError`` naming the variable, before anything is sent.
    A provider pydantic-ai builds reads its own variables (or credentials, Bedrock's AWS ones):
    ``""`` unless ``api_key_env`` names one, and building it tells a missing one.
    """
    if config.provider not in OWN_PROVIDERS and not config.api_key_env:
        return ""
    names = key_variables(config)
    for name in names:
        if os.environ.get(name):
            return os.environ[name]
    elsewhere = config.base_url or env_base_url(config)
    if not names or (config.provider == "openai" and not config.api_key_env and elsewhere):
        return NO_KEY
    who = f"player {config.name or config.model}"
    hint = {
        "vllm": " (any value if the vLLM server runs without --api-key)",
        "openai": " (for an OpenAI-compatible server that needs no key, set base_url)",
    }.get(config.provider, "")
    also = "".join(f" (or ${name})" for name in names[1:])
    raise PlayerConfigError(
        f"{who}: api_key_env: ${names[0]}{also} is not set; export it with the "
        f"{config.provider} API key{hint}"
    )


def _status(err: BaseException) -> int | None:
    """The HTTP status of a provider's failure, if it answered at all (also when the SDK's
    own error, the cause of pydantic-ai's, is the one that knows it)."""
    seen: BaseException | None = err
    for _ in range(4):  # the error, its cause, and theirs: never a cycle
        if seen is None:
            return None
        for holder in (seen, getattr(seen, "response", None)):
            status = getattr(holder, "status_code", None)
            if isinstance(status, int):
                return status
        seen = seen.__cause__ or seen.__context__
    return None


def _filtered(err: Exception) -> bool:
    text = str(err).lower()
    body = str(getattr(err, "body", "") or "").lower()
    return any(hint in text or hint in body for hint in _FILTER_HINTS)


def _malformed(err: Exception) -> bool:
    """The provider answered, but not with a payload its API documents (no JSON, missing
    fields): pydantic-ai says ``UnexpectedModelBehavior`` or fails to decode the body."""
    from pydantic_ai import exceptions

    return isinstance(err, exceptions.UnexpectedModelBehavior) or "decode response" in str(err)


def _is_local(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
