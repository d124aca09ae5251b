"""Any pydantic-ai provider (``gptnt.players.providers``): whole ``gptnt run`` episodes against
loopback servers reached only through a provider's documented environment variables —
``OPENAI_BASE_URL`` for ``openai:``, and Azure OpenAI's ``AZURE_OPENAI_ENDPOINT`` /
``AZURE_OPENAI_API_KEY`` / ``OPENAI_API_VERSION`` for ``azure:``, whose wire differs (the
deployment in the path, ``api-version`` in the query, the key in an ``api-key`` header) — and
the one-line refusals of what cannot be built.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from typer.testing import CliRunner

from gptnt.cli import app
from gptnt.errors import PlayerConfigError
from gptnt.players.backends import ModelBackend, Price
from gptnt.players.cassette import ChatServer, Script, loopback
from gptnt.players.config import load_player_config
from gptnt.players.conversation import ChatRequest, TextPart, UserMessage
from gptnt.players.seats import resolve_seat
from gptnt.preflight import Needs, check_inputs

AZURE_KEY = "azure-test-key-0123"
API_VERSION = "2024-10-21"


def _run(tmp: Path, *players: str) -> Any:
    return CliRunner().invoke(
        app,
        ["run", "--mission", "1", "--mode", "sync", *players, "--launch", "task", "--quiet",
         "--out", str(tmp / "runs")],
    )  # fmt: skip


def _summary(tmp: Path) -> dict[str, Any]:
    return json.loads(next((tmp / "runs").rglob("summary.json")).read_text(encoding="utf-8"))


def test_run_plays_against_a_server_set_only_by_openai_base_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = ChatServer(Script())
    with server.running():
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)  # no key, no config file, no flag
        result = _run(tmp_path, "--defuser", "openai:fake-defuser", "--expert",
                      "openai:fake-expert")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert {body["model"] for body in server.received} == {"fake-defuser", "fake-expert"}
    summary = _summary(tmp_path)
    assert summary["outcome"] in ("strikeout", "timeout")
    hosts = {p["settings"]["base_url_host"] for p in summary["players"]}
    assert hosts == {urlsplit(server.url).netloc}  # the record names the endpoint played


class AzureServer(ChatServer):
    """Azure OpenAI's chat route: ``/openai/deployments/<deployment>/chat/completions``."""

    def __init__(self) -> None:
        super().__init__(Script())
        self.seen: list[tuple[str, str | None, str | None]] = []
        """(deployment, api-version, api-key header) of every request."""

    @contextmanager
    def serving(self) -> Iterator[AzureServer]:
        from starlette.applications import Starlette
        from starlette.requests import Request
        from starlette.responses import JSONResponse
        from starlette.routing import Route

        async def completions(request: Request) -> JSONResponse:
            deployment = request.path_params["deployment"]
            self.seen.append((deployment, request.query_params.get("api-version"),
                              request.headers.get("api-key")))  # fmt: skip
            body = json.loads(await request.body())
            body["model"] = deployment  # Azure routes by deployment; the Script by model name
            status, payload = self.answer(body)
            return JSONResponse(payload, status_code=status)

        async def models(request: Request) -> JSONResponse:
            return JSONResponse({"object": "list", "data": []})

        route = "/openai/deployments/{deployment}/chat/completions"
        app = Starlette(routes=[Route(route, completions, methods=["POST"]),
                                Route("/openai/models", models)])  # fmt: skip
        with loopback(app) as url:
            self.url = url
            yield self


def _azure_env(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", url)
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", AZURE_KEY)
    monkeypatch.setenv("OPENAI_API_VERSION", API_VERSION)


def test_an_azure_openai_endpoint_plays_through_its_provider(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = AzureServer()
    with server.serving():
        _azure_env(monkeypatch, server.url)
        result = _run(tmp_path, "--defuser", "azure:fake-defuser", "--expert",
                      "azure:fake-expert")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert {s[0] for s in server.seen} == {"fake-defuser", "fake-expert"}
    assert {s[1:] for s in server.seen} == {(API_VERSION, AZURE_KEY)}
    assert _summary(tmp_path)["outcome"] in ("strikeout", "timeout")


async def test_the_price_table_and_the_key_scrubbing_apply_to_an_inferred_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server = AzureServer()
    with server.serving():
        _azure_env(monkeypatch, server.url)
        config = load_player_config("azure:fake-defuser")
        price = Price(input=2.0, output=8.0)
        backend = ModelBackend(config, prices={"fake-defuser": price})
        request = ChatRequest(system="s", messages=(UserMessage(parts=(TextPart("hi"),)),))
        reply = await backend.complete(request, deadline_s=20)
    assert reply.failure is None and reply.text
    usage = reply.record.usage
    assert reply.record.cost_usd == pytest.approx(price.cost(usage)) and usage.input_tokens > 0


def test_a_base_url_flag_points_a_model_elsewhere_and_refuses_a_scripted_seat() -> None:
    choice = resolve_seat("defuser", "openai:m", base_url="http://127.0.0.1:9/v1")
    assert choice.config is not None and choice.config.base_url == "http://127.0.0.1:9/v1"
    with pytest.raises(PlayerConfigError, match="--expert-base-url: the expert is 'oracle'"):
        resolve_seat("expert", "oracle", base_url="http://127.0.0.1:9/v1")
    with pytest.raises(PlayerConfigError, match="--defuser-base-url"):
        resolve_seat("defuser", "openai:m", base_url="ftp://x")


def test_unknown_and_unbuildable_providers_are_one_line_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(PlayerConfigError, match="'nope' is not one pydantic-ai knows"):
        load_player_config("nope:model")
    for name in ("AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_KEY", "OPENAI_API_VERSION"):
        monkeypatch.delenv(name, raising=False)
    azure = load_player_config("azure:gpt-4o")  # accepted: what it lacks is told at preflight
    with pytest.raises(PlayerConfigError, match="player gpt-4o: model 'azure:gpt-4o': .*AZURE"):
        check_inputs(Needs(players=[azure]))
    openrouter = load_player_config("openrouter:x").model_copy(
        update={"base_url": "http://127.0.0.1:9/v1"}
    )
    monkeypatch.setenv("OPENROUTER_API_KEY", "k")
    with pytest.raises(PlayerConfigError, match="base_url: the openrouter provider takes no"):
        check_inputs(Needs(players=[openrouter]))


@pytest.mark.skipif(importlib.util.find_spec("groq") is not None, reason="groq is installed")
def test_a_provider_whose_sdk_is_missing_says_what_to_install() -> None:
    with pytest.raises(PlayerConfigError, match=r"pydantic-ai-slim\[groq\]"):
        check_inputs(Needs(players=[load_player_config("groq:llama-3.3-70b")]))


class BedrockServer:
    """Bedrock Runtime's Converse route, ``POST /model/<modelId>/converse``: what each request
    carried (the model in the path, boto3's SigV4 ``Authorization``, the body)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, dict[str, Any]]] = []
        self.url = ""

    @contextmanager
    def serving(self) -> Iterator[BedrockServer]:
        from starlette.applications import Starlette
        from starlette.requests import Request
        from starlette.responses import JSONResponse
        from starlette.routing import Route

        async def converse(request: Request) -> JSONResponse:
            body = json.loads(await request.body())
            auth = request.headers.get("authorization", "")
            self.seen.append((request.path_params["model"], auth, body))
            return JSONResponse({
                "output": {"message": {"role": "assistant", "content": [{"text": "<thoughts>"
                           "ok</thoughts>"}]}},
                "stopReason": "end_turn",
                "usage": {"inputTokens": 31, "outputTokens": 5, "totalTokens": 36},
                "metrics": {"latencyMs": 1},
            })  # fmt: skip

        app = Starlette(routes=[Route("/model/{model}/converse", converse, methods=["POST"])])
        with loopback(app) as url:
            self.url = url
            yield self


async def test_bedrock_converse_signed_with_sigv4_over_a_loopback_endpoint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("boto3")
    for name, value in (("AWS_ACCESS_KEY_ID", "AKIDLOOPBACKTEST"),
                        ("AWS_SECRET_ACCESS_KEY", "loopback-secret"),
                        ("AWS_DEFAULT_REGION", "eu-west-1")):  # fmt: skip
        monkeypatch.setenv(name, value)
    server = BedrockServer()
    with server.serving():
        config = load_player_config("bedrock:anthropic.claude-test-v1").model_copy(
            update={"base_url": server.url, "transport_retries": 0}
        )
        check_inputs(Needs(players=[config]))  # built, and the endpoint is on this machine
        price = Price(input=3.0, output=15.0)
        backend = ModelBackend(config, prices={"anthropic.claude-test-v1": price})
        request = ChatRequest(system="s", messages=(UserMessage(parts=(TextPart("hi"),)),))
        reply = await backend.complete(request, deadline_s=30)
    assert reply.failure is None, reply.record.error
    assert reply.text == "<thoughts>ok</thoughts>"
    model, auth, body = server.seen[0]
    assert model == "anthropic.claude-test-v1"
    assert auth.startswith("AWS4-HMAC-SHA256 Credential=AKIDLOOPBACKTEST/")
    assert "/eu-west-1/bedrock/aws4_request" in auth
    assert body["inferenceConfig"]["maxTokens"] == config.max_tokens
    assert body["inferenceConfig"]["temperature"] == config.temperature
    assert reply.record.usage.input_tokens == 31
    assert reply.record.cost_usd == pytest.approx((31 * 3.0 + 5 * 15.0) / 1e6)
