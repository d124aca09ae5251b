"""A model stand-in on loopback: an OpenAI-compatible chat server with scripted or recorded
replies, for tests, CI smoke runs and the prefix benchmark — never a paid API.

The server is real (uvicorn on ``127.0.0.1``, in a background thread so a whole ``gptnt run``
with its own event loop, or player processes, can call it). Who answers is a ``Responder``:

- ``Script``: a scripted Defuser and Expert that read nothing but the request's text (so they
  are no oracle): the Defuser clicks through the marks it is offered, the Expert asks
  questions; they play badly and the bomb ends by strikeout or timeout;
- ``Replay``: the replies of a ``Cassette`` in order, per model; a request whose newest text
  differs from the recorded one gets HTTP 409 naming the call (the replay diverged).

``ChatServer.record`` turns the replies it served into a ``Cassette``; ``received`` keeps every
request, with images replaced by their SHA-256 (what the prefix benchmark needs).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import itertools
import json
import socket
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from gptnt.protocol import ROLES

CASSETTE_VERSION = 1


class CassetteCall(BaseModel):
    """One recorded model call."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str
    """The request's model name (one per player in a session)."""
    newest_text: str
    """The text of the request's newest user message (images left out): the replay check."""
    reply: str
    finish_reason: str = "stop"
    prompt_tokens: int = 0
    completion_tokens: int = 0


class Cassette(BaseModel):
    """A recorded model session: every call of every player, in order."""

    model_config = ConfigDict(extra="forbid")

    version: int = CASSETTE_VERSION
    about: dict[str, str | int | float] = Field(default_factory=dict)
    """How the session was made and how it ended (mission, mode, outcome, strikes, …)."""
    calls: list[CassetteCall] = Field(default_factory=list)

    @classmethod
    def load(cls, path: Path) -> Cassette:
        return cls.model_validate_json(Path(path).read_text(encoding="utf-8"))

    def save(self, path: Path) -> None:
        Path(path).write_text(self.model_dump_json(indent=1) + "\n", encoding="utf-8")


class Reply(BaseModel):
    """What a responder answers: a completion's text, or an HTTP error."""

    text: str = ""
    finish_reason: str = "stop"
    status: int = 200
    error: str = ""


Responder = Callable[[dict[str, Any]], Reply]
"""Maps an OpenAI chat-completions request body to the reply."""


# ----------------------------------------------------------------------------- request views


def newest_text(body: dict[str, Any]) -> str:
    """The text parts of the request's last message, joined by newlines."""
    content = body["messages"][-1]["content"]
    if isinstance(content, str):
        return content
    return "\n".join(p["text"] for p in content if p.get("type") == "text")


def digested(body: dict[str, Any]) -> dict[str, Any]:
    """The body with every image's data URL replaced by ``sha256:<hex>`` (small to keep)."""
    out = dict(body)
    messages = []
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            content = [_digest_part(p) for p in content]
        messages.append({**message, "content": content})
    out["messages"] = messages
    return out


def _digest_part(part: dict[str, Any]) -> dict[str, Any]:
    if part.get("type") != "image_url":
        return part
    url = part["image_url"]["url"]
    if url.startswith("sha256:"):
        return part
    data = base64.b64decode(url.split(",", 1)[1]) if url.startswith("data:") else url.encode()
    return {"type": "image_url", "image_url": {"url": "sha256:" + hashlib.sha256(data).hexdigest()}}


def _estimate_tokens(body: dict[str, Any]) -> int:
    text = json.dumps(digested(body)["messages"])
    return len(text) // 4


# ----------------------------------------------------------------------------- responders


def _say(kind: str, data: dict[str, Any]) -> str:
    action = json.dumps({"result": {"kind": kind, "data": data}})
    return f"<thoughts>Scripted stand-in, turn by turn.</thoughts>\n<action>{action}</action>"


def _click(mark: str) -> tuple[str, dict[str, Any]]:
    return ("interact_game", {"action": "click_release", "location": mark})


class Script:
    """Scripted players that see only the request's text: deterministic, and bad at the game.

    The Defuser cycles through a fixed list of moves (clicking marks ``A``–``E``, whichever
    exist, zooming out, turning the bomb, telling the Expert what it did); the Expert alternates
    a question and a wait. On mission 1 this strikes out within a dozen turns. Models are told apart by the model name containing ``defuser`` or ``expert``.
    """

    DEFUSER_MOVES: tuple[tuple[str, dict[str, Any]], ...] = (
        *(_click(m) for m in "ABCDE"),
        ("send_message", {"message": "I pressed a few things. What should I cut?"}),
        ("interact_game", {"action": "zoom_out"}),
        *(_click(m) for m in "BABCD"),
        ("interact_game", {"action": "zoom_out"}),
        *(_click(m) for m in "CABCD"),
        ("interact_game", {"action": "zoom_out"}),
        ("interact_game", {"action": "rotate_left"}),
    )
    EXPERT_MOVES: tuple[tuple[str, dict[str, Any]], ...] = (
        ("send_message", {"message": "Which module are you looking at? Describe it."}),
        ("do_nothing", {}),
    )

    TALKATIVE_DEFUSER: tuple[tuple[str, dict[str, Any]], ...] = (
        ("send_message", {"message": "I see the bomb's front: three modules and the timer. "
                          "Which one should I start with?"}),
        _click("A"),
        ("send_message", {"message": "Zoomed in. There are several coloured parts with "
                          "letters on them. What do I look for?"}),
        ("do_nothing", {}),
        ("interact_game", {"action": "zoom_out"}),
        ("interact_game", {"action": "rotate_left"}),
        ("interact_game", {"action": "rotate_right"}),
    )  # fmt: skip
    """A slower pace, like the paper's models: mostly talk, few presses, ends by timeout."""
    TALKATIVE_EXPERT: tuple[tuple[str, dict[str, Any]], ...] = (
        ("send_message", {"message": "Tell me the module's name, then every colour and "
                          "symbol you see, top to bottom, and the serial number."}),
        ("do_nothing", {}),
        ("send_message", {"message": "For wires, count them first; the rule depends on the "
                          "count and on the last digit of the serial number."}),
    )  # fmt: skip

    def __init__(
        self,
        defuser: tuple[tuple[str, dict[str, Any]], ...] | None = None,
        expert: tuple[tuple[str, dict[str, Any]], ...] | None = None,
    ) -> None:
        self.defuser = defuser or self.DEFUSER_MOVES
        self.expert = expert or self.EXPERT_MOVES
        self._turns: dict[str, Iterator[int]] = {}

    @classmethod
    def talkative(cls) -> Script:
        return cls(cls.TALKATIVE_DEFUSER, cls.TALKATIVE_EXPERT)

    def __call__(self, body: dict[str, Any]) -> Reply:
        model = str(body.get("model", ""))
        moves = self.expert if "expert" in model else self.defuser
        turn = next(self._turns.setdefault(model, itertools.count()))
        kind, data = moves[turn % len(moves)]
        return Reply(text=_say(kind, data))


class Replay:
    """The calls of a cassette, in order per model; a divergent request gets HTTP 409."""

    def __init__(self, cassette: Cassette) -> None:
        self._queues: dict[str, list[CassetteCall]] = {}
        for call in cassette.calls:
            self._queues.setdefault(call.model, []).append(call)
        self._served: dict[str, int] = {}

    def __call__(self, body: dict[str, Any]) -> Reply:
        model = str(body.get("model", ""))
        n = self._served.get(model, 0)
        queue = self._queues.get(model, [])
        if n >= len(queue):
            return Reply(status=409, error=f"cassette: no call #{n} recorded for model {model!r}")
        call = queue[n]
        text = newest_text(body)
        if text != call.newest_text:
            return Reply(
                status=409,
                error=f"cassette: call #{n} of {model!r} diverged: expected newest text "
                f"{call.newest_text[:120]!r}, got {text[:120]!r}",
            )
        self._served[model] = n + 1
        return Reply(text=call.reply, finish_reason=call.finish_reason)


# ----------------------------------------------------------------------------- the server


class ChatServer:
    """``/v1/chat/completions`` on a free loopback port, answered by ``responder``."""

    def __init__(self, responder: Responder) -> None:
        self.responder = responder
        self.received: list[dict[str, Any]] = []
        """Every request body, images digested, in arrival order."""
        self.calls: list[CassetteCall] = []
        self.url = ""
        self._lock = threading.Lock()

    def record(self, **about: str | float) -> Cassette:
        """The served replies as a cassette (errors are not recorded)."""
        return Cassette(about=dict(about), calls=list(self.calls))

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self._lock:  # one call at a time: the order of replies is the order of requests
            self.received.append(digested(body))
            reply = self.responder(body)
            if reply.status != 200:
                return reply.status, {"error": {"message": reply.error, "code": "cassette"}}
            prompt = _estimate_tokens(body)
            completion = max(1, len(reply.text) // 4)
            self.calls.append(
                CassetteCall(
                    model=str(body.get("model", "")), newest_text=newest_text(body),
                    reply=reply.text, finish_reason=reply.finish_reason,
                    prompt_tokens=prompt, completion_tokens=completion,
                )
            )  # fmt: skip
        return 200, chat_completion(
            reply.text,
            finish=reply.finish_reason,
            prompt=prompt,
            completion=completion,
            model=str(body.get("model", "")),
            call_id=f"cmpl-{len(self.calls)}",
        )

    @contextmanager
    def running(self) -> Iterator[ChatServer]:
        """Serve in a background thread until the ``with`` block ends."""
        from starlette.applications import Starlette
        from starlette.requests import Request
        from starlette.responses import JSONResponse
        from starlette.routing import Route

        async def completions(request: Request) -> JSONResponse:
            status, payload = self.answer(json.loads(await request.body()))
            return JSONResponse(payload, status_code=status)

        app = Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])])
        with loopback(app) as url:
            self.url = f"{url}/v1"
            yield self


def chat_completion(
    text: str,
    *,
    prompt: int,
    completion: int,
    finish: str = "stop",
    cached: int | None = None,
    model: str = "",
    call_id: str = "cmpl-1",
) -> dict[str, Any]:
    """An OpenAI chat-completions answer body: one choice saying ``text``, with its usage
    (``cached``: the prompt tokens reported as read from the provider's cache)."""
    usage: dict[str, Any] = {
        "prompt_tokens": prompt, "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }  # fmt: skip
    if cached is not None:
        usage["prompt_tokens_details"] = {"cached_tokens": cached}
    return {
        "id": call_id, "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "finish_reason": finish,
                     "message": {"role": "assistant", "content": text}}],
        "usage": usage,
    }  # fmt: skip


# ----------------------------------------------------------------------------- loopback serving

_START_S = 5.0  # wall seconds a loopback server may take to start
_STOP_S = 1  # wall seconds requests still in flight get when it stops (a stand-in may be slow)


def _server(app: Any, port: int, log_level: str) -> tuple[socket.socket, Any, str]:
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", port))
    config = uvicorn.Config(
        app, log_level=log_level, lifespan="off", timeout_graceful_shutdown=_STOP_S
    )
    return sock, uvicorn.Server(config), f"http://127.0.0.1:{sock.getsockname()[1]}"


@contextmanager
def loopback(app: Any, *, log_level: str = "warning") -> Iterator[str]:
    """Serve the ASGI ``app`` on a free ``127.0.0.1`` port, in a background thread with its own
    event loop (so a caller's blocking code, or a whole ``gptnt run``, can reach it), until the
    block ends; yields the root URL. ``loopback_async`` is the same inside a running loop."""
    sock, server, url = _server(app, 0, log_level)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    try:
        for _ in range(int(_START_S / 0.01)):
            if server.started:
                break
            threading.Event().wait(0.01)
        else:
            raise RuntimeError(f"the loopback server did not start within {_START_S:g} s")
        yield url
    finally:
        server.should_exit = True
        thread.join(_START_S)
        sock.close()


@asynccontextmanager
async def loopback_async(
    app: Any, *, port: int = 0, log_level: str = "warning"
) -> AsyncIterator[str]:
    """``loopback`` as a task of the running event loop (``port`` 0: a free one)."""
    sock, server, url = _server(app, port, log_level)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        async with asyncio.timeout(_START_S):
            while not server.started:
                await asyncio.sleep(0.01)
        yield url
    finally:
        server.should_exit = True
        async with asyncio.timeout(10 * _STOP_S):
            await task
        sock.close()


# ----------------------------------------------------------------------------- prefix sharing


def wire_prefix(
    previous: dict[str, Any], current: dict[str, Any], *, tokens_per_image: int
) -> tuple[int, int]:
    """``(shared, total)`` estimated input tokens of ``current`` (a digested request body):
    how much of it repeats ``previous`` from the very start (what a prefix cache can serve).
    Text counts 1 token per 4 characters, an image ``tokens_per_image``.
    """
    prev, curr = _wire_atoms(previous), _wire_atoms(current)
    total = sum(_wire_tokens(a, tokens_per_image) for a in curr)
    shared = 0
    for a, b in zip(prev, curr):
        if a == b:
            shared += _wire_tokens(b, tokens_per_image)
            continue
        if a[0] == b[0] == "text":
            common = 0
            for x, y in zip(a[1], b[1]):
                if x != y:
                    break
                common += 1
            shared += common // 4
        break
    return shared, total


def _wire_atoms(body: dict[str, Any]) -> list[tuple[str, str]]:
    atoms: list[tuple[str, str]] = []
    for message in body.get("messages", []):
        atoms.append(("role", str(message.get("role"))))
        content = message.get("content")
        parts: list[dict[str, Any]] = (
            [{"type": "text", "text": content}] if isinstance(content, str) else content or []
        )
        for part in parts:
            if part.get("type") == "text":
                atoms.append(("text", part["text"]))
            elif part.get("type") == "image_url":
                atoms.append(("image", part["image_url"]["url"]))
    return atoms


def _wire_tokens(atom: tuple[str, str], tokens_per_image: int) -> int:
    kind, value = atom
    if kind == "text":
        return -(-len(value) // 4)
    return tokens_per_image if kind == "image" else 0


def write_player_configs(folder: Path, url: str, *, tokens_per_image: int = 424) -> dict[str, Path]:
    """YAML player configs ``fake-defuser`` and ``fake-expert`` pointing at ``url`` (a
    ``ChatServer``), with the paper's settings and 640×480 images; returns role → path.
    ``tokens_per_image`` defaults to Claude Sonnet's count for a 640×480 frame.
    """
    folder.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    for role in ROLES:
        path = folder / f"fake-{role}.yaml"
        path.write_text(
            f"model: vllm:fake-{role}\nbase_url: {url}\nimage_size: [640, 480]\n"
            f"temperature: 0.6\nmax_tokens: 1000\ntokens_per_image: {tokens_per_image}\n"
            "transport_retries: 0\n",
            encoding="utf-8",
        )
        paths[role] = path
    return paths


@dataclass(frozen=True)
class PrefixRow:
    """One player's requests over an episode, in estimated input tokens."""

    requests: int
    total: int
    shared: int
    """Tokens at the start of a request that repeat the player's previous request."""
    unshareable: int
    """Tokens no append-only layout could share without changing what the player is shown:
    the pictures of each newest turn, and the whole of the player's first request."""

    @property
    def share(self) -> float:
        return self.shared / self.total if self.total else 0.0


def prefix_table(requests: list[dict[str, Any]], *, tokens_per_image: int) -> dict[str, PrefixRow]:
    """Per model name, over digested request bodies in the order they were sent."""
    last: dict[str, dict[str, Any]] = {}
    rows: dict[str, PrefixRow] = {}
    for body in requests:
        model = str(body.get("model"))
        previous = last.get(model, {"messages": []})
        shared, total = wire_prefix(previous, body, tokens_per_image=tokens_per_image)
        newest = body["messages"][-1] if body.get("messages") else {}
        fresh = tokens_per_image * len(_images({"messages": [newest]}))
        if model not in last:
            fresh = total
        row = rows.get(model, PrefixRow(0, 0, 0, 0))
        rows[model] = PrefixRow(
            row.requests + 1, row.total + total, row.shared + shared, row.unshareable + fresh
        )
        last[model] = body
    return rows


def _images(body: dict[str, Any]) -> list[str]:
    return [
        part["image_url"]["url"]
        for message in body.get("messages", [])
        if isinstance(message.get("content"), list)
        for part in message["content"]
        if part.get("type") == "image_url"
    ]
