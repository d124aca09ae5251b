"""Each provider's wire format, checked over a short ``gptnt run`` against its loopback
stand-in (``fake_providers``), with the shipped player configs pointed at it: images and the
manual's pages in the right content blocks, cache breakpoints that make cached reads happen
(Anthropic) and a prefix that implicit caching can reuse (Gemini), temperature, the
output-token cap, each config's thinking setting, and the usage and cost in the records.

The OpenAI-compatible path has its own episode test (``test_episode.py``); the shipped
OpenAI and vLLM configs' settings are checked here, one request each.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from fake_openai import FakeServer
from fake_providers import AnthropicServer, GeminiServer, ProviderServer, Received
from typer.testing import CliRunner

from gptnt.cli import app
from gptnt.manual import load_manual
from gptnt.players.backends import ModelBackend, load_prices
from gptnt.players.config import CONFIGS_DIR, load_player_config
from gptnt.players.conversation import Conversation

KEYS = {"anthropic": "test-anthropic-key", "google": "test-gemini-key"}


def _episode(server: ProviderServer, config: str, tmp: Path) -> list[dict[str, Any]]:
    """``gptnt run`` with both seats on the shipped ``config`` pointed at ``server``."""
    data = yaml.safe_load((CONFIGS_DIR / f"{config}.yaml").read_text(encoding="utf-8"))
    provider = data["model"].partition(":")[0]
    path = tmp / f"{config}.yaml"
    with pytest.MonkeyPatch.context() as mp, server.running():
        # Smaller pictures than the shipped 640×480 only to keep the test fast (PNG encoding).
        data.update(base_url=server.url, name=config, transport_retries=0, image_size=[320, 240])
        path.write_text(yaml.safe_dump(data), encoding="utf-8")
        mp.setenv("GPTNT_OFFLINE", "1")
        mp.setenv(data["api_key_env"], KEYS[provider])
        result = CliRunner().invoke(
            app,
            ["run", "--mission", "Wires-234", "--mode", "sync", "--defuser", str(path),
             "--expert", str(path), "--launch", "task", "--quiet", "--out", str(tmp / "runs")],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = next((tmp / "runs").rglob("events.jsonl")).read_text(encoding="utf-8").splitlines()
    return [e for e in map(json.loads, lines) if e["kind"] == "turn"]


def _by_role(received: list[Received], role_of) -> dict[str, list[Received]]:  # type: ignore[no-untyped-def]
    out: dict[str, list[Received]] = {"defuser": [], "expert": []}
    for r in received:
        out[role_of(r.body)].append(r)
    return out


def _check_usage_recorded(
    turns: list[dict[str, Any]], calls: dict[str, list[Received]], *, read: str, written: str
) -> None:
    """Every model turn's tokens in the record are what the stand-in reported, in order."""
    for role, served in calls.items():
        recorded = [t["tokens"] for t in turns if t["role"] == role]
        assert len(recorded) == len(served) > 1, role
        for tokens, call in zip(recorded, served):
            assert tokens["cache_read"] == call.usage[read]
            assert tokens["cache_write"] == call.usage.get(written, 0)


# ----------------------------------------------------------------------------- Anthropic


def _anthropic_role(body: dict[str, Any]) -> str:
    system = body["system"] if isinstance(body["system"], str) else body["system"][0]["text"]
    return "expert" if "You are the **Expert**" in system else "defuser"


def test_anthropic_messages_wire_caching_and_usage(tmp_path: Path) -> None:
    server = AnthropicServer()
    turns = _episode(server, "claude-sonnet-4-6", tmp_path)
    calls = _by_role(server.received, _anthropic_role)
    pages = load_manual("generated").pages
    for role, served in calls.items():
        systems = {json.dumps(r.body["system"]) for r in served}
        assert len(systems) == 1, role  # the cached prefix starts identical every time
        for r in served:
            body = r.body
            assert r.key == KEYS["anthropic"]
            assert body["model"] == "claude-sonnet-4-6" and body["max_tokens"] == 1000
            assert body["temperature"] == 0.6
            # thinking: "off" -> no extended thinking (absent, or explicitly disabled).
            assert body.get("thinking", {"type": "disabled"}) == {"type": "disabled"}
            messages = body["messages"]
            images = [
                i for i, m in enumerate(messages)
                for b in (m["content"] if isinstance(m["content"], list) else [])
                if b["type"] == "image"
            ]  # fmt: skip
            newest = messages[-1]["content"]
            assert "cache_control" in newest[0] and newest[0]["type"] == "text"
            if role == "defuser":
                assert images and set(images) == {len(messages) - 1}  # pictures: newest only
                assert all(b["source"]["media_type"] == "image/png" for b in newest[1:]
                           if b["type"] == "image")  # fmt: skip
            else:
                manual = messages[0]["content"]
                assert set(images) == {0}  # the manual's pages, nothing else
                shown = [b for b in manual if b["type"] == "image"]
                assert len(shown) == len(pages)
                for page, (text, image) in zip(pages, zip(manual[1::2], manual[2::2])):
                    assert text["type"] == "text" and text["text"].startswith(
                        f"Manual page {page.number}:"
                    )
                    assert image["type"] == "image" and image["source"]["type"] == "base64"
                assert "cache_control" in manual[-1]  # the pinned prefix's breakpoint
        # Cached reads happen: every later call reads at least the previous call's prefix.
        first, *later = served
        assert first.usage["cache_read_input_tokens"] == 0
        assert first.usage["cache_creation_input_tokens"] > 0
        for previous, call in zip(served, later):
            assert call.usage["cache_read_input_tokens"] >= (
                previous.usage["cache_read_input_tokens"]
                + previous.usage["cache_creation_input_tokens"]
            ), role
    _check_usage_recorded(
        turns, calls, read="cache_read_input_tokens", written="cache_creation_input_tokens"
    )
    price = load_prices()["claude-sonnet-4-6"]
    for role, served in calls.items():
        recorded = [t for t in turns if t["role"] == role]
        for turn, call in zip(recorded, served):
            u = call.usage
            expected = (
                u["input_tokens"] * price.input + u["output_tokens"] * price.output
                + u["cache_read_input_tokens"] * price.cache_read
                + u["cache_creation_input_tokens"] * price.cache_write
            ) / 1e6  # fmt: skip
            assert turn["cost_usd"] == pytest.approx(expected)
            assert (
                turn["tokens"]["input"]
                == u["input_tokens"]
                + u["cache_read_input_tokens"]
                + (u["cache_creation_input_tokens"])
            )


# ----------------------------------------------------------------------------- Gemini


def _gemini_role(body: dict[str, Any]) -> str:
    system = body.get("systemInstruction") or body.get("system_instruction")
    text = "".join(p.get("text", "") for p in system["parts"])
    return "expert" if "You are the **Expert**" in text else "defuser"


def _inline(part: dict[str, Any]) -> dict[str, Any] | None:
    return part.get("inlineData") or part.get("inline_data")


def test_gemini_wire_implicit_caching_and_usage(tmp_path: Path) -> None:
    server = GeminiServer()
    turns = _episode(server, "gemini-3-flash", tmp_path)
    calls = _by_role(server.received, _gemini_role)
    pages = load_manual("generated").pages
    for role, served in calls.items():
        for r in served:
            body = r.body
            assert r.key == KEYS["google"]
            assert r.path == "/v1beta/models/gemini-3-flash-preview:generateContent"
            config = body["generationConfig"]
            assert config["temperature"] == 0.6 and config["maxOutputTokens"] == 1000
            # thinking: "off" -> the lowest level Gemini 3 allows (it cannot be switched off).
            thinking = config["thinkingConfig"]
            assert (thinking.get("thinkingLevel") or thinking.get("thinking_level")) == "MINIMAL"
            contents = body["contents"]
            images = [i for i, c in enumerate(contents) for p in c["parts"] if _inline(p)]
            assert contents[-1]["role"] == "user"
            if role == "defuser":
                assert images and set(images) == {len(contents) - 1}
            else:
                manual = contents[0]["parts"]
                assert set(images) == {0}
                assert sum(1 for p in manual if _inline(p)) == len(pages)
                for page, (text, image) in zip(pages, zip(manual[1::2], manual[2::2])):
                    assert text["text"].startswith(f"Manual page {page.number}:")
                    assert _inline(image)["mime_type" if "mime_type" in _inline(image) else
                                          "mimeType"] == "image/png"  # fmt: skip
        # The prefix stays stable, so implicit caching serves it from the second call on.
        first, *later = served
        assert first.usage["cachedContentTokenCount"] == 0
        assert later and all(c.usage["cachedContentTokenCount"] > 0 for c in later), role
    _check_usage_recorded(turns, calls, read="cachedContentTokenCount", written="-")
    for turn, call in zip([t for t in turns if t["role"] == "defuser"], calls["defuser"]):
        assert turn["tokens"]["input"] == call.usage["promptTokenCount"]


# ----------------------------------------------------------------------------- OpenAI, vLLM


@pytest.mark.parametrize(
    ("config", "expect"),
    [
        # GPT-5.2 cannot switch reasoning off: minimal effort; OpenAI's reasoning models take
        # no temperature, so its config sends none (temperature: null).
        ("gpt-5-2", {"reasoning_effort": "minimal", "max_completion_tokens": 1000}),
        # vLLM models: a config's chat-template setting (Qwen3.5: thinking off) is sent in every
        # request, so any vLLM server plays it as configured; none when a config has none.
        (
            "qwen3-5-27b",
            {
                "temperature": 0.6,
                "max_completion_tokens": 1000,
                "chat_template_kwargs": {"enable_thinking": False},
            },
        ),
        ("internvl3-5-38b", {"temperature": 0.6, "max_completion_tokens": 1000}),
    ],
)
async def test_openai_compatible_configs_send_their_settings(
    config: str, expect: dict[str, object], server: FakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = load_player_config(config)
    monkeypatch.setenv(shipped.api_key_env or "OPENAI_API_KEY", "test-key")
    backend = ModelBackend(shipped.model_copy(update={"base_url": server.url}))
    reply = await backend.complete(Conversation("system").request("hi"))
    assert reply.failure is None
    body = server.received[-1]
    sent = {k: v for k, v in body.items() if k not in ("messages", "model", "stream")}
    assert sent == expect
    assert body["model"] == shipped.model_name
