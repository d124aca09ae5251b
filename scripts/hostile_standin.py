"""A hostile OpenAI-compatible provider on loopback: every way a model server (or whatever sits
at its address) can answer badly, one behaviour per URL path.

A player's ``base_url`` picks the behaviour: ``{url}/{behaviour}/v1`` (``{url}/slow-7.5/v1``
answers after 7.5 s). Each behaviour is one of two kinds (``Behaviour.garbage``):

- **provider garbage** — an answer that cannot be a model's reply (an HTTP error, HTML, a body
  that is not the API's JSON, a dropped or reset connection, a hang). An episode played against
  it must end ``crashed: provider …`` (exit 3), never with a game outcome.
- **a model's text** — a well-formed completion whose text may be anything a model can say
  (nothing, another language, an unknown label, a script tag, the key it was sent). The episode
  must end with an outcome of the game (the model's mistakes are the model's).

Written on raw asyncio streams, not an HTTP framework, so that it can break HTTP itself
(truncate, trickle, drop, reset). ``scripts/chaos_runs.py --hostile`` plays every behaviour in
both modes; ``tests/players/test_hostile.py`` checks each class against the backend. By hand::

    .venv/bin/python scripts/hostile_standin.py --port 8602
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import socket
import struct
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

WAIT = '<thoughts>waiting</thoughts><action>{"result": {"kind": "do_nothing", "data": {}}}</action>'
"""A valid answer of either seat: wait."""

Writer = asyncio.StreamWriter
Handler = Callable[["Call"], Awaitable[None]]


@dataclass
class Call:
    """One request as received, and the means to answer it."""

    behaviour: str
    arg: float | None
    path: str
    headers: dict[str, str]
    body: bytes
    writer: Writer
    number: int  # 0-based, per behaviour

    @property
    def key(self) -> str:
        """The API key the client sent (``Authorization: Bearer …``)."""
        return self.headers.get("authorization", "").removeprefix("Bearer ").strip()

    async def send(
        self,
        status: int,
        body: bytes,
        *,
        kind: str = "application/json",
        extra: dict[str, str] | None = None,
        length: int | None = None,
    ) -> None:
        head = [f"HTTP/1.1 {status} X", f"Content-Type: {kind}",
                f"Content-Length: {len(body) if length is None else length}",
                "Connection: close", *(f"{k}: {v}" for k, v in (extra or {}).items())]  # fmt: skip
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        await self.writer.drain()

    async def json(self, status: int, document: object, **kw: object) -> None:
        await self.send(status, json.dumps(document).encode(), **kw)  # type: ignore[arg-type]

    async def reply(self, text: str | None, *, finish: str = "stop", **message: object) -> None:
        """A well-formed chat completion whose one choice says ``text``."""
        await self.json(200, completion(text, finish=finish, **message))


def completion(text: str | None, *, finish: str = "stop", **message: object) -> dict[str, object]:
    return {
        "id": "hostile", "object": "chat.completion", "created": 0, "model": "hostile",
        "choices": [{"index": 0, "finish_reason": finish,
                     "message": {"role": "assistant", "content": text, **message}}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
    }  # fmt: skip


def _error(status: int, message: str) -> dict[str, object]:
    return {"error": {"message": message, "type": "hostile", "code": status}}


# ----------------------------------------------------------------------------- behaviours


async def _ok(call: Call) -> None:
    await call.reply(WAIT)


async def _slow(call: Call) -> None:
    await asyncio.sleep(call.arg if call.arg is not None else 7.5)
    await call.reply(WAIT)


async def _trickle(call: Call) -> None:
    """The answer one byte at a time, ``arg`` seconds between bytes (default 0.01)."""
    body = json.dumps(completion(WAIT)).encode()
    await call.send(200, b"", length=len(body))
    for i in range(len(body)):
        call.writer.write(body[i : i + 1])
        await call.writer.drain()
        await asyncio.sleep(call.arg if call.arg is not None else 0.01)


async def _rate_limited(call: Call) -> None:
    """429 with ``Retry-After: arg`` on every other call (the retry after the wait answers)."""
    if call.number % 2 == 0:
        wait = f"{call.arg if call.arg is not None else 1:g}"
        await call.json(429, _error(429, "slow down"), extra={"Retry-After": wait})
    else:
        await call.reply(WAIT)


async def _rate_limited_always(call: Call) -> None:
    wait = f"{call.arg if call.arg is not None else 50:g}"
    await call.json(429, _error(429, "slow down"), extra={"Retry-After": wait})


async def _server_error(call: Call) -> None:
    status = int(call.arg or 500)
    await call.json(status, _error(status, "internal error"))


async def _auth(call: Call) -> None:
    await call.json(401, _error(401, "invalid api key"))


async def _html(call: Call) -> None:
    page = b"<!doctype html><html><body><form action=/login>Sign in</form></body></html>"
    await call.send(200, page, kind="text/html")


async def _bad_json(call: Call) -> None:
    await call.send(200, b'{"id": "x", "choices": [{"index": 0, "message": ')


async def _empty_body(call: Call) -> None:
    await call.send(200, b"")


async def _no_choices(call: Call) -> None:
    document = completion(WAIT)
    document["choices"] = []
    await call.json(200, document)


async def _wrong_shape(call: Call) -> None:
    """200 with an error object where the completion should be."""
    await call.json(200, _error(200, "upstream said no"))


async def _truncated(call: Call) -> None:
    """A body shorter than its Content-Length, then the connection closes."""
    body = json.dumps(completion(WAIT)).encode()
    await call.send(200, body[: len(body) // 2], length=len(body))


async def _drop(call: Call) -> None:
    """Closes the connection without a byte of answer."""


async def _reset(call: Call) -> None:
    """Resets the connection (TCP RST)."""
    sock = call.writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


async def _hang(call: Call) -> None:
    """Accepts the request and never answers."""
    await asyncio.sleep(call.arg if call.arg is not None else 3600)


async def _flaky(call: Call) -> None:
    """503 and a good answer in turn."""
    if call.number % 2 == 0:
        await call.json(503, _error(503, "overloaded"))
    else:
        await call.reply(WAIT)


async def _tool_call(call: Call) -> None:
    """A tool call instead of text (no tools were offered): the model's doing."""
    tool = {"id": "t1", "type": "function",
            "function": {"name": "press", "arguments": '{"label": "A"}'}}  # fmt: skip
    await call.reply(None, finish="tool_calls", tool_calls=[tool])


async def _think_huge(call: Call) -> None:
    """A think block of ``arg`` MB (default 2) before a valid action."""
    size = int((call.arg or 2) * 1_000_000)
    await call.reply("<think>" + "hmm " * (size // 4) + "</think>" + WAIT)


async def _other_language(call: Call) -> None:
    await call.reply("我看到一个炸弹。我应该剪哪根线？请告诉我。")


async def _unknown_label(call: Call) -> None:
    action = {"result": {"kind": "interact_game",
                         "data": {"action": "click_release", "location": "ZZ9"}}}  # fmt: skip
    await call.reply(f"<thoughts>clicking</thoughts><action>{json.dumps(action)}</action>")


async def _whitespace(call: Call) -> None:
    await call.reply(" \n\t \u00a0 \n")


async def _empty_text(call: Call) -> None:
    await call.reply("")


async def _key_echo(call: Call) -> None:
    """The key the client sent, echoed back in the model's text."""
    action = WAIT.partition("</thoughts>")[2]
    await call.reply(f"<thoughts>your key is {call.key}</thoughts>{action}")


async def _key_echo_error(call: Call) -> None:
    """The key echoed in an error body (as some proxies do)."""
    await call.json(400, _error(400, f"bad key {call.key} for this route"))


async def _script(call: Call) -> None:
    """Text that would close or open a script if a page embedded it raw."""
    message = {"result": {"kind": "send_message",
                          "data": {"message": "<!--<script>alert(1)</script></script>"}}}  # fmt: skip
    await call.reply(f"<thoughts><!--<script>x</thoughts><action>{json.dumps(message)}</action>")


async def _length_cut(call: Call) -> None:
    """The model ran out of output tokens mid-answer."""
    await call.reply('<thoughts>long</thoughts><action>{"result": {"kind": "int', finish="length")


async def _null_content(call: Call) -> None:
    """``"content": null`` and no tool call (the API allows it): the model said nothing."""
    await call.reply(None)


def _with_usage(usage: object) -> Handler:
    """A valid answer whose usage report is ``usage`` (absurd, null, of the wrong kind): the
    reply counts, its tokens and cost are unknown, never a fortune or a free call."""

    async def answer(call: Call) -> None:
        document = completion(WAIT)
        document["usage"] = usage
        await call.json(200, document)

    return answer


async def _reasoning_huge(call: Call) -> None:
    """A valid answer with ARG MB (10) of ``reasoning_content`` beside it."""
    await call.reply(WAIT, reasoning_content="r" * int((call.arg or 10) * 1_000_000))


async def _many_tools(call: Call) -> None:
    """ARG (5000) tool calls in one answer (no tools were offered)."""
    tool = {"type": "function", "function": {"name": "press", "arguments": '{"label": "A"}'}}
    calls = [{"id": f"t{i}", **tool} for i in range(int(call.arg or 5000))]
    await call.reply(None, finish="tool_calls", tool_calls=calls)


async def _null_message(call: Call) -> None:
    document = completion(WAIT)
    document["choices"][0]["message"] = None  # type: ignore[index]
    await call.json(200, document)


async def _content_number(call: Call) -> None:
    document = completion(WAIT)
    document["choices"][0]["message"]["content"] = 42  # type: ignore[index]
    await call.json(200, document)


async def _forbidden(call: Call) -> None:
    await call.json(403, _error(403, "this key may not use this model"))


async def _headers_hang(call: Call) -> None:
    """Headers promising a body, then nothing, for ever."""
    await call.send(200, b"", length=5000)
    await asyncio.sleep(3600)


async def _ids_huge(call: Call) -> None:
    """A valid answer whose ``id`` and ``model`` are 5 MB each."""
    document = completion(WAIT)
    document["id"] = document["model"] = "i" * 5_000_000
    await call.json(200, document)


def _big_completion(megabytes: float) -> bytes:
    size = int(megabytes * 1_000_000)
    return json.dumps(completion("<think>" + "hmm " * (size // 4) + "</think>" + WAIT)).encode()


async def _huge_body(call: Call) -> None:
    """A completion of ARG MB (30), its Content-Length saying so."""
    await call.send(200, _big_completion(call.arg if call.arg is not None else 30))


async def _chunks(call: Call, chunks: AsyncIterator[bytes], *, gzip: bool = False) -> None:
    """A chunked body (no Content-Length: nothing says how long it is)."""
    head = ["HTTP/1.1 200 X", "Content-Type: application/json", "Transfer-Encoding: chunked",
            "Connection: close", *(["Content-Encoding: gzip"] if gzip else [])]  # fmt: skip
    call.writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
    async for chunk in chunks:
        call.writer.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
        await call.writer.drain()
    call.writer.write(b"0\r\n\r\n")
    await call.writer.drain()


async def _huge_chunked(call: Call) -> None:
    """A completion of ARG MB (30), chunked: only reading it tells its size."""
    body = _big_completion(call.arg if call.arg is not None else 30)

    async def pieces() -> AsyncIterator[bytes]:
        for i in range(0, len(body), 65536):
            yield body[i : i + 65536]

    await _chunks(call, pieces())


async def _endless(call: Call) -> None:
    """A completion that never ends: spaces at full speed, chunked."""

    async def forever() -> AsyncIterator[bytes]:
        yield b'{"id": "hostile", "choices": [{"message": {"content": "'
        while True:
            yield b" " * 65536

    await _chunks(call, forever())


async def _endless_trickle(call: Call) -> None:
    """A body that never ends, one byte every ARG s (0.5): each read is quick, the whole never."""

    async def drip() -> AsyncIterator[bytes]:
        while True:
            yield b" "
            await asyncio.sleep(call.arg if call.arg is not None else 0.5)

    await _chunks(call, drip())


async def _gzip_bomb(call: Call) -> None:
    """ARG MB (100) of JSON whitespace gzipped to a few hundred KB, sent though not asked for."""
    body = _gzipped_spaces(int(call.arg if call.arg is not None else 100))

    async def once() -> AsyncIterator[bytes]:
        yield body

    await _chunks(call, once(), gzip=True)


@functools.cache
def _gzipped_spaces(megabytes: int) -> bytes:
    squeeze = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: a gzip header
    block = b" " * 1_000_000
    return b"".join(squeeze.compress(block) for _ in range(megabytes)) + squeeze.flush()


@dataclass(frozen=True)
class Behaviour:
    handler: Handler
    garbage: bool
    """True: no model's reply (the episode must crash as the provider's); False: a model's."""
    doc: str


BEHAVIOURS: dict[str, Behaviour] = {
    "ok": Behaviour(_ok, False, "a valid answer (control)"),
    "slow": Behaviour(_slow, False, "a valid answer after ARG s (7.5)"),
    "trickle": Behaviour(_trickle, False, "a valid answer one byte every ARG s (0.01)"),
    "rate-limited": Behaviour(_rate_limited, False, "429 Retry-After ARG (1) every other call"),
    "rate-limited-always": Behaviour(_rate_limited_always, True, "429 Retry-After ARG (50)"),
    "server-error": Behaviour(_server_error, True, "HTTP ARG (500) every call"),
    "auth": Behaviour(_auth, True, "401 every call"),
    "html": Behaviour(_html, True, "200 with an HTML login page"),
    "bad-json": Behaviour(_bad_json, True, "200 with JSON cut short"),
    "empty-body": Behaviour(_empty_body, True, "200 with no body"),
    "no-choices": Behaviour(_no_choices, True, '200 with "choices": []'),
    "wrong-shape": Behaviour(_wrong_shape, True, "200 with an error object"),
    "truncated": Behaviour(_truncated, True, "a body shorter than its Content-Length"),
    "drop": Behaviour(_drop, True, "closes the connection without answering"),
    "reset": Behaviour(_reset, True, "resets the connection"),
    "hang": Behaviour(_hang, True, "never answers"),
    "flaky": Behaviour(_flaky, False, "503 and a valid answer in turn"),
    "tool-call": Behaviour(_tool_call, False, "a tool call instead of text"),
    "think-huge": Behaviour(
        _think_huge,
        False,
        "a think block of ARG MB (2), then an action "
        "(past the client's body cap, 16 MiB, it is huge-body)",
    ),
    "other-language": Behaviour(_other_language, False, "prose in Chinese, no action"),
    "unknown-label": Behaviour(_unknown_label, False, "a click on a label that is not shown"),
    "whitespace": Behaviour(_whitespace, False, "only whitespace"),
    "empty-text": Behaviour(_empty_text, False, "an empty answer"),
    "length-cut": Behaviour(_length_cut, False, "an action cut off by the token limit"),
    "key-echo": Behaviour(_key_echo, False, "the sent key echoed in the model's text"),
    "key-echo-error": Behaviour(_key_echo_error, True, "the sent key echoed in a 400 error"),
    "script": Behaviour(_script, False, "<!--<script> in the thoughts and a message"),
    "null-content": Behaviour(_null_content, False, '"content": null, no tool call'),
    "huge-body": Behaviour(_huge_body, True, "a completion of ARG MB (30), Content-Length set"),
    "huge-chunked": Behaviour(_huge_chunked, True, "a completion of ARG MB (30), chunked"),
    "endless": Behaviour(_endless, True, "a body that never ends, at full speed"),
    "endless-trickle": Behaviour(_endless_trickle, True, "a body that never ends, a byte / ARG s"),
    "gzip-bomb": Behaviour(_gzip_bomb, True, "ARG MB (200) gzipped, not asked for"),
    "usage-negative": Behaviour(
        _with_usage({"prompt_tokens": -1000, "completion_tokens": -5, "total_tokens": -1005}),
        False,
        "a valid answer with negative token counts",
    ),
    "usage-huge": Behaviour(
        _with_usage({"prompt_tokens": 10**15, "completion_tokens": 10**15, "total_tokens": 0}),
        False,
        "a valid answer claiming 10^15 tokens",
    ),
    "usage-null": Behaviour(_with_usage(None), False, 'a valid answer with "usage": null'),
    "usage-string": Behaviour(
        _with_usage({"prompt_tokens": "lots", "completion_tokens": 1, "total_tokens": 1}),
        True,
        "token counts that are not numbers",
    ),
    "reasoning-huge": Behaviour(_reasoning_huge, False, "ARG MB (10) of reasoning_content"),
    "many-tools": Behaviour(_many_tools, False, "ARG (5000) tool calls in one answer"),
    "null-message": Behaviour(_null_message, True, '"message": null'),
    "content-number": Behaviour(_content_number, True, '"content": 42'),
    "forbidden": Behaviour(_forbidden, True, "403 every call"),
    "headers-hang": Behaviour(_headers_hang, True, "headers, then no body, for ever"),
    "ids-huge": Behaviour(_ids_huge, False, "a valid answer with 5 MB id and model"),
}


@dataclass
class Hostile:
    """The server; ``calls`` counts requests per behaviour, ``keys`` the keys it was sent."""

    calls: dict[str, int] = field(default_factory=dict)
    keys: set[str] = field(default_factory=set)
    url: str = ""

    async def _handle(self, reader: asyncio.StreamReader, writer: Writer) -> None:
        try:
            call = await self._read(reader, writer)
            if call is None:
                return
            if call.path.endswith("/models"):
                await call.json(200, {"object": "list", "data": [{"id": "hostile"}]})
                return
            behaviour = BEHAVIOURS.get(call.behaviour)
            if behaviour is None:
                await call.json(404, _error(404, f"no behaviour {call.behaviour!r}"))
                return
            await behaviour.handler(call)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def _read(self, reader: asyncio.StreamReader, writer: Writer) -> Call | None:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        _, path, _ = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        name, _, arg = path.strip("/").split("/", 1)[0].partition("~")
        number = self.calls.get(name, 0)
        self.calls[name] = number + 1
        call = Call(name, float(arg) if arg else None, path, headers, body, writer, number)
        if call.key:
            self.keys.add(call.key)
        return call

    async def serve(self, port: int = 0) -> AsyncIterator[Hostile]:
        """Serve on loopback while the iteration lasts; ``url`` is the root (a player's
        ``base_url`` is ``{url}/{behaviour}/v1``, with ``~ARG`` after the name for its
        argument: ``{url}/slow~30/v1``)."""
        server = await asyncio.start_server(self._handle, "127.0.0.1", port)
        self.url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        try:
            yield self
        finally:
            server.close()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(2):
                    await server.wait_closed()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--list", action="store_true", help="print the behaviours and exit")
    args = parser.parse_args()
    if args.list:
        for name, b in BEHAVIOURS.items():
            print(f"{name:<20} {'garbage' if b.garbage else 'model  '}  {b.doc}")
        return

    async def run() -> None:
        async for hostile in Hostile().serve(args.port):
            print(f"serving on {hostile.url}/<behaviour>/v1", flush=True)
            await asyncio.Event().wait()

    asyncio.run(run())


if __name__ == "__main__":
    main()
