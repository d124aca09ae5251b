"""A tiny OpenAI-compatible chat server on loopback: scripted replies, requests recorded."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gptnt.players.cassette import chat_completion, loopback_async


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
    return chat_completion(
        text, finish=finish, prompt=prompt, completion=7, cached=cached, model="fake"
    )


async def serve() -> AsyncIterator[FakeServer]:
    """Run a ``FakeServer`` on a free loopback port for the duration of the iteration."""
    fake = FakeServer()
    app = Starlette(routes=[Route("/v1/chat/completions", fake.completions, methods=["POST"])])
    async with loopback_async(app) as url:
        fake.url = f"{url}/v1"
        yield fake
