"""A tiny OpenAI-compatible chat server on loopback: scripted replies, requests recorded."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route


@dataclass
class FakeServer:
    """Serves scripted chat completions and keeps every request body it received."""

    replies: list[tuple[int, dict | bytes]] = field(default_factory=list)
    """Scripted answers, oldest first: a JSON body, or raw bytes sent as they are."""
    received: list[dict] = field(default_factory=list)
    url: str = ""

    async def completions(self, request: Request) -> Response:
        self.received.append(json.loads(await request.body()))
        status, body = (
            self.replies.pop(0) if self.replies else (200, completion("<thoughts>x</thoughts>"))
        )
        if isinstance(body, bytes):
            return Response(body, status_code=status, media_type="application/json")
        return JSONResponse(body, status_code=status)


def completion(text: str, finish: str = "stop", prompt: int = 120, cached: int = 0) -> dict:
    return {
        "id": "cmpl-1", "object": "chat.completion", "created": 0, "model": "fake",
        "choices": [{"index": 0, "finish_reason": finish,
                     "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": 7, "total_tokens": prompt + 7,
                  "prompt_tokens_details": {"cached_tokens": cached}},
    }  # fmt: skip


async def serve() -> AsyncIterator[FakeServer]:
    """Run a ``FakeServer`` on a free loopback port for the duration of the iteration."""
    fake = FakeServer()
    app = Starlette(routes=[Route("/v1/chat/completions", fake.completions, methods=["POST"])])
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    fake.url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    task = asyncio.create_task(srv.serve(sockets=[sock]))
    while not srv.started:
        await asyncio.sleep(0.01)
    yield fake
    srv.should_exit = True
    await asyncio.wait_for(task, 5)
