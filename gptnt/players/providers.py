"""Which pydantic-ai model a player config names, and where it sends its requests.

Four providers are built here as they always were (``OWN_PROVIDERS``: ``openai:`` and
``vllm:`` through OpenAI's Chat Completions, ``anthropic:``, ``google:``). Every other provider
pydantic-ai knows (``azure:``, ``bedrock:``, ``groq:``, ``ollama:``, ``openrouter:``,
``google-cloud:``, ``mistral:``, …) is built by pydantic-ai's own model-string inference
(``pydantic_ai.models.infer_model``) with its own provider class, which reads that provider's
documented environment variables (``AZURE_OPENAI_ENDPOINT``, ``AZURE_OPENAI_API_KEY``,
``OPENAI_API_VERSION``; ``AWS_*``; ``GROQ_API_KEY``; ``OLLAMA_BASE_URL`` …). A config's
``base_url`` and ``api_key_env`` override them where the provider class takes a URL and a key.

Every provider that takes an HTTP client gets ``gptnt.players._body.bounded_client()``: no
response body is read past ``MAX_RESPONSE_BYTES``. Our preflight, price table, retries and records apply to whatever model comes back: the backend
calls it through ``pydantic_ai.direct.model_request`` like the four of our own.
"""

from __future__ import annotations

import inspect
import os
from typing import TYPE_CHECKING, Any

from gptnt.errors import PlayerConfigError
from gptnt.players._body import bounded_client

if TYPE_CHECKING:
    import openai
    from pydantic_ai.models import Model
    from pydantic_ai.providers import Provider

    from gptnt.players.config import PlayerConfig

OWN_PROVIDERS = ("anthropic", "openai", "google", "vllm")
"""Built here (``openai:`` as Chat Completions, which every OpenAI-compatible server speaks)."""
BASE_URL_ENV = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}
"""The SDK's own variable for the endpoint of a provider of ours (as the SDKs read it)."""
URL_PARAMETERS = ("base_url", "azure_endpoint", "api_base")
"""What a pydantic-ai provider class calls the endpoint it is given (first match is used)."""
EXAMPLES = "azure, bedrock, groq, mistral, ollama, openrouter, google-cloud, deepseek, …"


def provider_problem(provider: str) -> str | None:
    """Why ``provider`` (the part of a model string before ``:``) names no provider, or
    ``None``. A provider whose SDK is missing is known: building it says what to install."""
    if provider in OWN_PROVIDERS:
        return None
    from pydantic_ai.providers import infer_provider_class

    try:
        infer_provider_class(provider)
    except ValueError:
        return (
            f"provider {provider!r} is not one pydantic-ai knows (ours: "
            f"{', '.join(OWN_PROVIDERS)}; also {EXAMPLES})"
        )
    except ImportError:
        return None
    return None


def env_base_url(config: PlayerConfig) -> str | None:
    """The endpoint a provider of ours takes from its SDK's variable (``OPENAI_BASE_URL``)
    when the config names none."""
    name = BASE_URL_ENV.get(config.provider)
    return (os.environ.get(name) or None) if name else None


def build_model(config: PlayerConfig, key: str | None) -> Model:
    """The pydantic-ai ``Model`` of ``config``; ``key`` (``None``: the provider reads its own
    variable) authenticates it. A provider that cannot be built (its SDK not installed, its
    endpoint or key not set) is a ``PlayerConfigError`` naming the player and the fix."""
    if config.provider in OWN_PROVIDERS:
        return _OWN[config.provider](config, key or "")
    from pydantic_ai.exceptions import UserError
    from pydantic_ai.models import infer_model

    who = f"player {config.name or config.model}"
    try:
        return infer_model(config.model, provider_factory=lambda name: _provider(config, name, key))
    except ImportError as err:
        raise PlayerConfigError(f"{who}: model {config.model!r}: {_line(err)}") from None
    except (UserError, ValueError) as err:
        raise PlayerConfigError(
            f"{who}: model {config.model!r}: {_line(err)} (or set base_url / api_key_env in "
            "the player config)"
        ) from None


def model_base_url(model: Model) -> str | None:
    """The endpoint a built model sends to, as its provider says (``None``: unknown)."""
    try:
        url = model.base_url
    except Exception:  # a provider that cannot say has no URL to check
        return None
    return str(url) if url else None


def openai_client(model: Model) -> openai.AsyncOpenAI | None:
    """The ``openai.AsyncOpenAI`` client a model sends through (Azure, OpenRouter, Ollama, …
    and our own ``openai:``/``vllm:``), or ``None`` for a provider with another SDK."""
    import openai

    client = getattr(getattr(model, "_provider", None), "client", None)
    if client is None:
        client = getattr(model, "client", None)
    return client if isinstance(client, openai.AsyncOpenAI) else None


def _provider(config: PlayerConfig, name: str, key: str | None) -> Provider[Any]:
    """Provider ``name``'s pydantic-ai class, given the config's endpoint and key where the
    class takes them (else it reads its own environment variables)."""
    from pydantic_ai.providers import infer_provider_class

    cls = infer_provider_class(name)
    parameters = inspect.signature(cls.__init__).parameters
    kwargs: dict[str, object] = {}
    if key and "api_key" in parameters:
        kwargs["api_key"] = key
    if "http_client" in parameters:  # its bodies bounded (``gptnt.players._body``)
        kwargs["http_client"] = bounded_client()
    if config.base_url:
        url_parameter = next((p for p in URL_PARAMETERS if p in parameters), None)
        if url_parameter is None:
            raise PlayerConfigError(
                f"player {config.name or config.model}: base_url: the {name} provider takes no "
                "endpoint; drop base_url (it uses the provider's own)"
            )
        kwargs[url_parameter] = config.base_url
    return cls(**kwargs)


def _line(err: BaseException) -> str:
    return " ".join(str(err).split())[:300] or type(err).__name__


def _openai(config: PlayerConfig, api_key: str) -> Model:
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    base_url = config.base_url or env_base_url(config)
    provider = OpenAIProvider(base_url=base_url, api_key=api_key, http_client=bounded_client())
    return OpenAIChatModel(config.model_name, provider=provider)


def _anthropic(config: PlayerConfig, api_key: str) -> Model:
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.providers.anthropic import AnthropicProvider

    base_url = config.base_url or env_base_url(config)
    provider = AnthropicProvider(api_key=api_key, base_url=base_url, http_client=bounded_client())
    return AnthropicModel(config.model_name, provider=provider)


def _google(config: PlayerConfig, api_key: str) -> Model:
    from pydantic_ai.models.google import GoogleModel
    from pydantic_ai.providers.google import GoogleProvider

    provider = GoogleProvider(
        api_key=api_key, base_url=config.base_url, http_client=bounded_client()
    )
    return GoogleModel(config.model_name, provider=provider)


_OWN = {"openai": _openai, "vllm": _openai, "anthropic": _anthropic, "google": _google}
