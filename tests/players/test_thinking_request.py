"""Thinking settings travel in the request itself, checked on the loopback stand-in's captured
bodies: a vLLM chat template's ``enable_thinking: false`` (the Qwen3.5 config's, until now only
a flag of the server we start) reaches any vLLM server as ``chat_template_kwargs``."""

from __future__ import annotations

import pytest
from fake_openai import FakeServer

from gptnt.errors import PlayerConfigError
from gptnt.players.backends import ModelBackend
from gptnt.players.config import load_player_config
from gptnt.players.conversation import ChatRequest, TextPart, UserMessage

REQUEST = ChatRequest(system="s", messages=(UserMessage(parts=(TextPart("hi"),)),))


async def _body(server: FakeServer, **fields: object) -> dict:
    config = load_player_config("qwen3-5-27b").model_copy(update={"base_url": server.url})
    config = type(config).model_validate({**config.model_dump(), **fields})
    reply = await ModelBackend(config, prices={}).complete(REQUEST, deadline_s=20)
    assert reply.failure is None
    return server.received[-1]


async def test_the_qwen_config_sends_enable_thinking_false_in_every_request(
    server: FakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VLLM_API_KEY", "k")
    body = await _body(server)
    assert body["chat_template_kwargs"] == {"enable_thinking": False}


async def test_request_kwargs_override_the_servers_and_thinking_off_adds_one(
    server: FakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VLLM_API_KEY", "k")
    body = await _body(server, chat_template_kwargs={"enable_thinking": True, "x": 1})
    assert body["chat_template_kwargs"] == {"enable_thinking": True, "x": 1}
    body = await _body(server, serve=None, thinking="off")
    assert body["chat_template_kwargs"] == {"enable_thinking": False}
    body = await _body(server, serve=None)
    assert "chat_template_kwargs" not in body  # nothing asked: nothing sent


def test_template_kwargs_belong_to_vllm_models_only() -> None:
    with pytest.raises(PlayerConfigError, match="chat_template_kwargs: only a vllm: model"):
        from gptnt.players.config import _validated

        _validated({"model": "openai:gpt-5.2", "chat_template_kwargs": {"a": 1}}, "x.yaml")
