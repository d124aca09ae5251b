"""The pydantic-ai backend against a tiny OpenAI-compatible server on loopback."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import pytest
from fake_openai import FakeServer, completion

from gptnt.errors import PlayerConfigError
from gptnt.players import Attachment, Conversation, turn_text
from gptnt.players.backends import ModelBackend, Price, Usage, check_endpoint
from gptnt.players.config import PlayerConfig


def _config(url: str, **extra) -> PlayerConfig:
    return PlayerConfig(model="vllm:fake-model", base_url=url, **extra)


async def test_requests_carry_settings_history_and_newest_images(server: FakeServer) -> None:
    server.replies = [
        (200, completion("<thoughts>a</thoughts><action>{}</action>", prompt=1000, cached=800))
    ] * 3
    backend = ModelBackend(
        _config(server.url), prices={"fake-model": Price(input=1.0, output=2.0, cache_read=0.1)}
    )
    conv = Conversation("SYSTEM PROMPT", cache_points=backend.cache_points)
    for turn in range(3):
        request = conv.request(turn_text(None, []), [Attachment("newest:", f"png-{turn}".encode())])
        reply = await backend.complete(request)
        conv.record(reply.text)
    assert len(server.received) == 3
    for body in server.received:
        assert body["temperature"] == 0.6
        assert body.get("max_completion_tokens", body.get("max_tokens")) == 1000
        assert "tools" not in body and not body.get("stream")
        messages = body["messages"]
        assert messages[0]["role"] in ("system", "developer")
        assert messages[0]["content"] == "SYSTEM PROMPT"
        images = [i for i, m in enumerate(messages) if isinstance(m["content"], list)
                  and any(p.get("type") == "image_url" for p in m["content"])]  # fmt: skip
        assert images == [len(messages) - 1]
    # The text history grows turn by turn and every request starts with the previous one.
    assert [len(b["messages"]) for b in server.received] == [2, 4, 6]
    first, second = server.received[0]["messages"], server.received[1]["messages"]
    assert second[0] == first[0]
    assert second[2]["role"] == "assistant"
    usage = reply.record.usage
    assert (usage.input_tokens, usage.output_tokens, usage.cache_read_tokens) == (1000, 7, 800)
    assert reply.record.cost_usd == pytest.approx((200 * 1.0 + 800 * 0.1 + 7 * 2.0) / 1e6)
    assert reply.record.latency_s >= 0 and reply.record.responded_at >= reply.record.requested_at


async def test_length_finish_reason_is_passed_on(server: FakeServer) -> None:
    server.replies = [(200, completion("<thoughts>long", finish="length"))]
    reply = await ModelBackend(_config(server.url)).complete(Conversation("s").request("hi"))
    assert reply.finish_reason == "length" and reply.failure is None


async def test_transport_errors_are_retried(server: FakeServer) -> None:
    server.replies = [(503, {"error": {"message": "busy"}}), (200, completion("ok"))]
    reply = await ModelBackend(_config(server.url, transport_retries=1)).complete(
        Conversation("s").request("hi")
    )
    assert reply.text == "ok" and len(server.received) == 2


async def test_provider_errors_are_a_reply_not_an_exception(server: FakeServer) -> None:
    server.replies = [(503, {"error": {"message": "busy"}})]
    reply = await ModelBackend(_config(server.url, transport_retries=0)).complete(
        Conversation("s").request("hi")
    )
    assert reply.failure == "provider_error" and reply.text == ""
    assert reply.record.error


async def test_content_filter_is_recognised(server: FakeServer) -> None:
    body = {"error": {"message": "The response was filtered", "code": "content_filter"}}
    server.replies = [(400, body)]
    reply = await ModelBackend(_config(server.url, transport_retries=0)).complete(
        Conversation("s").request("the bomb")
    )
    assert reply.failure == "content_filter"


@pytest.mark.parametrize(
    "config",
    [
        PlayerConfig(model="anthropic:claude-sonnet-4-6"),
        PlayerConfig(model="openai:gpt-5.2", base_url="https://api.openai.com/v1"),
        PlayerConfig(model="google:gemini-3-flash-preview"),
    ],
)
def test_real_provider_hosts_are_refused_in_tests(config: PlayerConfig) -> None:
    with pytest.raises(PlayerConfigError, match="GPTNT_OFFLINE"):
        check_endpoint(config)
    with pytest.raises(PlayerConfigError):
        ModelBackend(config)


def test_anthropic_gets_cache_points(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_KEY", "k")
    config = PlayerConfig(
        model="anthropic:claude-sonnet-4-6", base_url="http://127.0.0.1:9", api_key_env="TEST_KEY"
    )
    assert ModelBackend(config, prices={}).cache_points


def test_missing_api_key_is_a_config_error() -> None:
    config = PlayerConfig(model="anthropic:claude-sonnet-4-6", base_url="http://127.0.0.1:9")
    with pytest.raises(PlayerConfigError, match="api_key_env"):
        ModelBackend(config, prices={})


@dataclass(frozen=True)
class _Page:
    number: int
    text: str

    def png(self, height: int | None = None) -> bytes:
        return b"\x89PNG-page-%d" % self.number


async def test_expert_request_holds_the_manual_first_and_no_frames(server: FakeServer) -> None:
    backend = ModelBackend(_config(server.url))
    pages = [_Page(1, "Wires: cut the second wire."), _Page(2, "Button: hold it.")]
    conv = Conversation("EXPERT PROMPT", manual=pages)
    for _ in range(2):
        conv.record((await backend.complete(conv.request(turn_text(None, [])))).text)
    messages = server.received[-1]["messages"]
    manual = messages[1]["content"]
    kinds = [p["type"] for p in manual]
    assert kinds == ["text", "text", "image_url", "text", "image_url"]
    assert "Wires: cut the second wire." in manual[1]["text"]
    later = [m for m in messages[2:] if isinstance(m["content"], list)]
    assert all(p.get("type") != "image_url" for m in later for p in m["content"])
    assert messages[1] == server.received[0]["messages"][1]  # pinned, unchanged


@pytest.mark.parametrize(
    "usage",
    [
        {"prompt_tokens": -5, "completion_tokens": 10, "total_tokens": 5},  # negative
        {"prompt_tokens": 100, "completion_tokens": 10**15, "total_tokens": 10**15 + 100},
        {**completion("")["usage"], "prompt_tokens_details": {"cache_write_tokens": -40}},
        None,  # no report at all
    ],
)
async def test_a_usage_report_that_cannot_be_believed_costs_unknown(
    usage: dict | None, server: FakeServer
) -> None:
    """A provider that reports negative, absurd or no token counts: the reply is still played,
    its tokens are recorded as 0 and its cost as unknown (``None``: never $0, never a fortune);
    a believable report from the same provider is priced as before."""
    lying = completion("<thoughts>a</thoughts>")
    if usage is None:
        del lying["usage"]
    else:
        lying["usage"] = usage
    server.replies = [(200, lying), (200, completion("<thoughts>b</thoughts>", prompt=100))]
    backend = ModelBackend(_config(server.url), prices={"fake-model": Price(input=1.0, output=2.0)})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pydantic-ai warns that it could not read the usage
        bad = await backend.complete(Conversation("s").request("hi"))
    assert bad.failure is None and bad.text == "<thoughts>a</thoughts>"
    assert bad.record.usage == Usage() and bad.record.cost_usd is None
    good = await backend.complete(Conversation("s").request("hi"))
    assert good.record.usage.input_tokens == 100
    assert good.record.cost_usd == pytest.approx((100 * 1.0 + 7 * 2.0) / 1e6)
