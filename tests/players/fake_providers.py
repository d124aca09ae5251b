"""Loopback stand-ins for the Anthropic Messages API and the Gemini API, beside the
OpenAI-compatible one (``gptnt.players.cassette.ChatServer``): real HTTP servers on
``127.0.0.1``, in a background thread so a whole ``gptnt run`` can call them.

Each answers with the scripted players of ``cassette.Script`` (the role read from the system
prompt), keeps every request body and its auth header, and reports usage the way its provider
documents it, prompt caching included, so a test can see whether caching would work:

- Anthropic caches only at ``cache_control`` breakpoints (at most 4 per request). A request
  reads the longest prefix cached earlier that ends at one of its breakpoints or up to 20
  blocks before one, and writes the prefixes ending at its breakpoints. Usage:
  ``input_tokens`` (uncached), ``cache_creation_input_tokens``, ``cache_read_input_tokens``.
- Gemini caches implicitly: the longest prefix of ``systemInstruction`` + ``contents`` parts
  shared with an earlier request is reported as ``cachedContentTokenCount`` (within
  ``promptTokenCount``).

Prefixes shorter than ``MIN_CACHE_TOKENS`` are never cached, as with both providers. Token
counts are estimates (4 characters a token, ``IMAGE_TOKENS`` an image).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from gptnt.players.cassette import Script, loopback

IMAGE_TOKENS = 424
MIN_CACHE_TOKENS = 1024
ANTHROPIC_LOOKBACK = 20
ANTHROPIC_MAX_BREAKPOINTS = 4


@dataclass
class Received:
    path: str
    body: dict[str, Any]
    key: str
    """The API key as sent (``x-api-key``, ``Authorization: Bearer`` or ``x-goog-api-key``)."""
    usage: dict[str, int]


def _role(system_text: str) -> str:
    return "expert" if "You are the **Expert**" in system_text else "defuser"


def _tokens(block: dict[str, Any]) -> int:
    if block.get("type") == "image" or "inlineData" in block or "inline_data" in block:
        return IMAGE_TOKENS
    return -(-len(json.dumps({k: v for k, v in block.items() if k != "cache_control"})) // 4)


def _prefix_hashes(atoms: list[str]) -> list[str]:
    digest, out = hashlib.sha256(), []
    for atom in atoms:
        digest.update(atom.encode())
        out.append(digest.copy().hexdigest())
    return out


@dataclass
class ProviderServer:
    """Common server plumbing; subclasses answer one provider's route."""

    script: Script = field(default_factory=Script)
    received: list[Received] = field(default_factory=list)
    url: str = ""

    def __post_init__(self) -> None:
        self._lock = threading.Lock()

    def routes(self) -> list[Any]:
        raise NotImplementedError

    def reply_text(self, system_text: str) -> str:
        return self.script({"model": _role(system_text)}).text

    @contextmanager
    def running(self) -> Iterator[ProviderServer]:
        from starlette.applications import Starlette

        with loopback(Starlette(routes=self.routes())) as url:
            self.url = url
            yield self


@dataclass
class AnthropicServer(ProviderServer):
    """``POST /v1/messages``."""

    _cache: set[str] = field(default_factory=set)

    def routes(self) -> list[Any]:
        from starlette.requests import Request
        from starlette.responses import JSONResponse
        from starlette.routing import Route

        async def messages(request: Request) -> JSONResponse:
            body = json.loads(await request.body())
            key = request.headers.get("x-api-key") or request.headers.get(
                "authorization", ""
            ).removeprefix("Bearer ")
            status, payload = self.answer(body, key)
            return JSONResponse(payload, status_code=status)

        return [Route("/v1/messages", messages, methods=["POST"])]

    def answer(self, body: dict[str, Any], key: str) -> tuple[int, dict[str, Any]]:
        system = body.get("system", "")
        system_blocks = [{"type": "text", "text": system}] if isinstance(system, str) else system
        blocks: list[tuple[str, dict[str, Any]]] = [("system", b) for b in system_blocks]
        for message in body["messages"]:
            content = message["content"]
            if isinstance(content, str):
                content = [{"type": "text", "text": content}]
            blocks += [(message["role"], b) for b in content]
        marks = [i for i, (_, b) in enumerate(blocks) if "cache_control" in b]
        if len(marks) > ANTHROPIC_MAX_BREAKPOINTS:
            error = f"A maximum of {ANTHROPIC_MAX_BREAKPOINTS} blocks with cache_control may be provided. Found {len(marks)}."
            return 400, {
                "type": "error",
                "error": {"type": "invalid_request_error", "message": error},
            }
        plain = [
            json.dumps([role, {k: v for k, v in b.items() if k != "cache_control"}])
            for role, b in blocks
        ]
        hashes = _prefix_hashes(plain)
        cumulative, total = [], 0
        for _, b in blocks:
            total += _tokens(b)
            cumulative.append(total)
        with self._lock:
            hit = -1
            for mark in marks:
                for i in range(mark, max(-1, mark - ANTHROPIC_LOOKBACK - 1), -1):
                    if hashes[i] in self._cache:
                        hit = max(hit, i)
                        break
            read = cumulative[hit] if hit >= 0 else 0
            written = 0
            for mark in marks:
                if mark > hit and cumulative[mark] >= MIN_CACHE_TOKENS:
                    self._cache.add(hashes[mark])
                    written = cumulative[mark] - read
            usage = {
                "input_tokens": total - read - written,
                "output_tokens": 0,
                "cache_creation_input_tokens": written,
                "cache_read_input_tokens": read,
            }
            text = self.reply_text(str(system_blocks[0]["text"]) if system_blocks else "")
            usage["output_tokens"] = max(1, len(text) // 4)
            self.received.append(Received("/v1/messages", body, key, usage))
        return 200, {
            "id": f"msg_{len(self.received)}", "type": "message", "role": "assistant",
            "model": body["model"], "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn", "stop_sequence": None, "usage": usage,
        }  # fmt: skip


@dataclass
class GeminiServer(ProviderServer):
    """``POST /v1beta/models/{model}:generateContent``."""

    _seen: set[str] = field(default_factory=set)

    def routes(self) -> list[Any]:
        from starlette.requests import Request
        from starlette.responses import JSONResponse
        from starlette.routing import Route

        async def generate(request: Request) -> JSONResponse:
            body = json.loads(await request.body())
            key = request.headers.get("x-goog-api-key") or request.query_params.get("key", "")
            status, payload = self.answer(request.url.path, body, key)
            return JSONResponse(payload, status_code=status)

        return [Route("/v1beta/models/{model:path}", generate, methods=["POST"])]

    def answer(self, path: str, body: dict[str, Any], key: str) -> tuple[int, dict[str, Any]]:
        system = body.get("systemInstruction") or body.get("system_instruction") or {}
        system_text = "".join(p.get("text", "") for p in system.get("parts", []))
        parts: list[tuple[str, dict[str, Any]]] = [("system", p) for p in system.get("parts", [])]
        for content in body.get("contents", []):
            parts += [(content.get("role", "user"), p) for p in content.get("parts", [])]
        hashes = _prefix_hashes([json.dumps([role, p]) for role, p in parts])
        cumulative, total = [], 0
        for _, p in parts:
            total += _tokens(p)
            cumulative.append(total)
        with self._lock:
            shared = -1
            for i, digest in enumerate(hashes):
                if digest not in self._seen:
                    break
                shared = i
            self._seen.update(hashes)
            cached = cumulative[shared] if shared >= 0 else 0
            cached = cached if cached >= MIN_CACHE_TOKENS else 0
            text = self.reply_text(system_text)
            usage = {
                "promptTokenCount": total,
                "candidatesTokenCount": max(1, len(text) // 4),
                "totalTokenCount": total + max(1, len(text) // 4),
                "cachedContentTokenCount": cached,
            }
            self.received.append(Received(path, body, key, usage))
        return 200, {
            "candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": usage,
            "modelVersion": path.rsplit("/", 1)[-1].split(":")[0],
            "responseId": f"r{len(self.received)}",
        }  # fmt: skip
