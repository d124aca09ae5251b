"""Model backends through pydantic-ai: one call per turn, and a record of what it cost.

A ``ChatRequest`` (our provider-neutral form, ``conversation.py``) becomes pydantic-ai messages
and goes out through ``pydantic_ai.direct.model_request``: no agent, no tools, no streaming, no
output validation and so no output retries (a bad answer is feedback, not a retry). The provider
SDK's own retries, which cover only 429, 5xx, timeouts and dropped connections, are the
transport retries (``PlayerConfig.transport_retries``).

A call never raises for a provider's failure: the reply says ``failure="content_filter"`` (the
provider refused the content; the caller applies the paper's rephrase treatment, H) or
``failure="provider_error"`` (the turn is lost; the model is told on its next turn), which
includes payloads that cannot be read (no JSON, ``"choices": []``). The text that is kept is
valid Unicode and at most ``OUTPUT_CAP_CHARS`` long (``gptnt.players._text``): a 5 MB answer
would otherwise be resent on every later turn and stored whole in the record.

With ``GPTNT_OFFLINE=1`` (set by the test suite) only endpoints on this machine are allowed,
so a test can never reach a paid API.
"""

from __future__ import annotations

import ipaddress
import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal
from urllib.parse import urlparse

import yaml
from pydantic import BaseModel, ConfigDict, Field

from gptnt.errors import PlayerConfigError
from gptnt.players._text import OUTPUT_CAP_CHARS, keep
from gptnt.players.config import PlayerConfig
from gptnt.players.conversation import (
    AssistantMessage,
    CachePoint,
    ChatRequest,
    ImagePart,
    TextPart,
)
from gptnt.resources import configs_dir

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


class CallRecord(BaseModel):
    """What one model call took: timestamps are wall-clock UTC; latency in wall seconds."""

    model_config = ConfigDict(frozen=True)

    model: str
    requested_at: datetime
    responded_at: datetime
    latency_s: float
    usage: Usage
    cost_usd: float | None
    """``None`` when the price table has no entry for the model."""
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


@dataclass(frozen=True)
class ModelReply:
    """The model's text as kept (empty on failure; valid Unicode, at most ``OUTPUT_CAP_CHARS``
    characters) and the call's record.
    """

    text: str
    finish_reason: str | None
    record: CallRecord

    @property
    def failure(self) -> Failure | None:
        return self.record.failure


def load_prices(path: Path | None = None) -> dict[str, Price]:
    """The price table (model name → ``Price``); entries with unknown prices are skipped."""
    source = path or PRICES_PATH
    if not source.is_file():
        return {}
    data = yaml.safe_load(source.read_text(encoding="utf-8")) or {}
    models = data.get("models", {}) if isinstance(data, dict) else {}
    return {name: Price.model_validate(p) for name, p in models.items() if p}


def check_endpoint(config: PlayerConfig) -> None:
    """Refuse a non-local endpoint while ``GPTNT_OFFLINE`` is set (tests never call real APIs)."""
    if os.environ.get(OFFLINE_ENV, "") not in ("1", "true", "yes"):
        return
    host = urlparse(config.base_url).hostname if config.base_url else None
    if host is None or not _is_local(host):
        raise PlayerConfigError(
            f"player {config.name or config.model}: base_url {config.base_url!r} is not on this "
            f"machine and {OFFLINE_ENV} is set; point base_url at a local server"
        )


class ModelBackend:
    """One model, ready to answer ``ChatRequest``s."""

    def __init__(self, config: PlayerConfig, *, prices: dict[str, Price] | None = None) -> None:
        check_endpoint(config)
        self.config = config
        self.cache_points = config.provider in CACHE_POINT_PROVIDERS
        self._model = _build_model(config)
        prices = load_prices() if prices is None else prices
        self._price = prices.get(config.model_name)
        self._settings = _settings(config)

    async def complete(self, request: ChatRequest) -> ModelReply:
        """Send one request; never raises for the provider's failures."""
        from pydantic_ai import exceptions
        from pydantic_ai.direct import model_request

        requested_at = datetime.now(UTC)
        start = time.monotonic()
        try:
            response = await model_request(
                self._model, to_pydantic_ai(request), model_settings=self._settings
            )
        except exceptions.ContentFilterError as err:
            return self._failed(requested_at, start, "content_filter", str(err), _status(err))
        except (exceptions.ModelAPIError, exceptions.UnexpectedModelBehavior) as err:
            failure: Failure = "content_filter" if _filtered(err) else "provider_error"
            error = f"{type(err).__name__}: {err}"
            if failure == "provider_error" and _malformed(err):
                error = f"{MALFORMED}: {error}"
            return self._failed(requested_at, start, failure, error, _status(err))
        except (IndexError, KeyError, TypeError, AttributeError) as err:
            # pydantic-ai reads the payload as the provider documents it (``choices[0]``); a
            # payload that breaks that reading (``"choices": []``) is the provider's fault.
            error = f"{MALFORMED}: {type(err).__name__}: {err}"
            return self._failed(requested_at, start, "provider_error", error)
        raw = "".join(p.content for p in response.parts if getattr(p, "part_kind", "") == "text")
        kept = keep(raw)
        text = kept.text
        usage = Usage(
            input_tokens=response.usage.input_tokens,
            output_tokens=response.usage.output_tokens,
            cache_read_tokens=response.usage.cache_read_tokens,
            cache_write_tokens=response.usage.cache_write_tokens,
        )
        finish = response.finish_reason
        record = CallRecord(
            model=self.config.model,
            requested_at=requested_at,
            responded_at=datetime.now(UTC),
            latency_s=time.monotonic() - start,
            usage=usage,
            cost_usd=self._price.cost(usage) if self._price else None,
            finish_reason=finish,
            failure="content_filter" if finish == "content_filter" else None,
            output_chars=kept.original_chars,
        )
        return ModelReply(text, finish, record)

    def _failed(
        self,
        requested_at: datetime,
        start: float,
        failure: Failure,
        error: str,
        status: int | None = None,
    ) -> ModelReply:
        record = CallRecord(
            model=self.config.model,
            requested_at=requested_at,
            responded_at=datetime.now(UTC),
            latency_s=time.monotonic() - start,
            usage=Usage(),
            cost_usd=0.0 if self._price else None,
            finish_reason=None,
            failure=failure,
            error=error[:500],
            status=status,
        )
        return ModelReply("", None, record)


def to_pydantic_ai(request: ChatRequest) -> list[object]:
    """Our request as pydantic-ai messages: the system prompt in the first request, user turns
    as ``UserPromptPart``s (text, PNG ``BinaryContent``, ``CachePoint``), replies as text.
    """
    from pydantic_ai import messages as pm

    out: list[object] = []
    system_sent = False
    for message in request.messages:
        if isinstance(message, AssistantMessage):
            out.append(pm.ModelResponse(parts=[pm.TextPart(content=message.text)]))
            continue
        parts: list[object] = []
        if not system_sent:
            parts.append(pm.SystemPromptPart(content=request.system))
            system_sent = True
        parts.append(pm.UserPromptPart(content=[_content(p) for p in message.parts]))
        out.append(pm.ModelRequest(parts=parts))
    return out


def _content(part: TextPart | ImagePart | CachePoint) -> object:
    from pydantic_ai import messages as pm

    if isinstance(part, TextPart):
        return part.text
    if isinstance(part, ImagePart):
        return pm.BinaryContent(data=part.png, media_type="image/png")
    return pm.CachePoint()


def _settings(config: PlayerConfig) -> dict[str, object]:
    settings: dict[str, object] = {
        "max_tokens": config.max_tokens,
        "timeout": config.timeout_s,
        "max_retries": config.transport_retries,
        # Our system prompt goes out exactly as written, identical on every request.
        "framing_announcement": "never",
    }
    if config.temperature is not None:
        settings["temperature"] = config.temperature
    if config.thinking is not None:
        settings["thinking"] = False if config.thinking == "off" else config.thinking
    return settings


def api_key(config: PlayerConfig) -> str:
    """The key ``config`` authenticates with, read from its ``api_key_env`` (else the
    provider's usual variable). A ``vllm:`` config that names no variable sends a placeholder
    (a vLLM server started without ``--api-key`` takes any); every other missing key is a
    ``PlayerConfigError`` naming the variable, before anything is sent.
    """
    names = (config.api_key_env,) if config.api_key_env else DEFAULT_KEY_ENV[config.provider]
    for name in names:
        if os.environ.get(name):
            return os.environ[name]
    if not names:
        return NO_KEY
    who = f"player {config.name or config.model}"
    hint = {
        "vllm": " (any value if the vLLM server runs without --api-key)",
        "openai": " (for an OpenAI-compatible server that needs no key, use model: vllm:…)",
    }.get(config.provider, "")
    also = "".join(f" (or ${name})" for name in names[1:])
    raise PlayerConfigError(
        f"{who}: api_key_env: ${names[0]}{also} is not set; export it with the "
        f"{config.provider} API key{hint}"
    )


def _build_model(config: PlayerConfig) -> object:
    """The pydantic-ai model for ``config`` (one builder per provider)."""
    return _BUILDERS[config.provider](config, api_key(config))


def _openai(config: PlayerConfig, api_key: str) -> object:
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    provider = OpenAIProvider(base_url=config.base_url, api_key=api_key)
    return OpenAIChatModel(config.model_name, provider=provider)


def _anthropic(config: PlayerConfig, api_key: str) -> object:
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.providers.anthropic import AnthropicProvider

    provider = AnthropicProvider(api_key=api_key, base_url=config.base_url)
    return AnthropicModel(config.model_name, provider=provider)


def _google(config: PlayerConfig, api_key: str) -> object:
    from pydantic_ai.models.google import GoogleModel
    from pydantic_ai.providers.google import GoogleProvider

    provider = GoogleProvider(api_key=api_key, base_url=config.base_url)
    return GoogleModel(config.model_name, provider=provider)


_BUILDERS = {"openai": _openai, "vllm": _openai, "anthropic": _anthropic, "google": _google}


def _status(err: Exception) -> int | None:
    """The HTTP status of a provider's failure, if it answered at all."""
    status = getattr(err, "status_code", None)
    return status if isinstance(status, int) else None


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
