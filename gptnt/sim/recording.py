"""Record a protocol session and replay it: the recorded-game stub for CI smoke tests.

A recording is a zip file (deflate) holding ``recording.json`` (what and when), one JSON line
per exchange in ``exchanges.jsonl`` (method, path+query, status, the headers that matter) and
each response body as raw bytes under ``bodies/`` (frames compress far better raw than as
base64). ``RecordingTransport`` records any httpx exchange, so a real game can be recorded as
well as the simulator.

Replay rules (``Replay``, served by ``create_stub_app``):

- Requests must arrive in the recorded order. A request matches when its lower-cased path and
  its query parameters (order-free; numbers compared as numbers; ``sessionId`` ignored because
  clients make a fresh one per run) equal the next expected exchange. The HTTP method is
  ignored, as the mod ignores it.
- A divergent request gets **409** with a body naming the expected and the received request,
  and a warning in the log; the replay position does not move, so the expected request still
  succeeds afterwards.
- The read-only routes (``/health``, ``/state``, ``/buffer``, ``/old-buffer``, ``/modules``)
  are answered at any time without moving the position: with the latest response to the same
  request recorded *before the next expected request* (after the last request, the latest one
  in the recording). So a client may poll as often or as rarely as it likes and sees the state
  the game had reached when the recorded client made its next call: a harness whose polling
  follows the wall clock replays a paused (sync) session exactly. ``/health`` falls back to the
  first one recorded; a read-only request never recorded that early is divergent. Request
  numbers in 409 bodies count only the other, positional, requests.
- ``OPTIONS`` (CORS preflight) is answered with an empty 200, as by the simulator.
- After the last exchange every other request is divergent (409).
"""

from __future__ import annotations

import logging
import math
import os
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal
from urllib.parse import parse_qsl, urlsplit

import httpx
import numpy as np
from pydantic import BaseModel, Field
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from gptnt.bounded import MAX_LINE_BYTES, open_zip, parse_json, zip_member
from gptnt.errors import ConfigError, GameTimeoutError, UnreadableError
from gptnt.sim.server import CORS_HEADERS

if TYPE_CHECKING:
    from gptnt.protocol import MissionConfig
    from gptnt.protocol.client import GameClient

__all__ = [
    "Exchange",
    "Recording",
    "RecordingInfo",
    "RecordingTransport",
    "Replay",
    "create_stub_app",
    "mask_point",
    "play_session",
    "read_recording",
    "write_recording",
]

log = logging.getLogger(__name__)

FORMAT: Final = "gptnt-recording"
VERSION: Final = 1
# Response headers worth replaying; CORS headers are constant and added on replay.
KEPT_HEADERS = ("content-type", "x-gptnt-extensions")
# Hop-by-hop framing headers that no longer fit a body read whole (and decoded) by httpx.
_TRANSFER_HEADERS = frozenset({"content-length", "content-encoding", "transfer-encoding"})
# Query parameters that legitimately differ between the recorded run and the replayed one.
VOLATILE_PARAMS = frozenset({"sessionId"})
HEALTH = "/health"
# Routes that read the game without changing it: replayed by request, not by position.
READ_ONLY = frozenset({HEALTH, "/state", "/buffer", "/old-buffer", "/modules"})


class RecordingInfo(BaseModel):
    """``recording.json``: what was recorded, from where, when."""

    format: Literal["gptnt-recording"] = FORMAT
    version: Literal[1] = VERSION
    created: datetime = Field(description="When the recording was written (UTC).")
    source: str = Field(description="The backend recorded: a URL, or 'simulator (in-process)'.")
    note: str = Field(default="", description="Free text: mission, size, script.")


class Exchange(BaseModel):
    """One request and its response. ``body`` lives in the zip under ``bodies/``, not the line."""

    index: int = Field(ge=0, description="Position in the session, from 0.")
    method: str
    target: str = Field(description="Path and query exactly as sent, e.g. '/action?action=out'.")
    status: int
    headers: dict[str, str] = Field(default_factory=dict, description="Kept response headers.")
    body: bytes = Field(default=b"", exclude=True)

    @property
    def member(self) -> str:
        return f"bodies/{self.index:05d}"

    @property
    def path(self) -> str:
        return _route(self.target)


@dataclass
class Recording:
    """A whole recorded session, in order."""

    info: RecordingInfo
    exchanges: list[Exchange] = field(default_factory=list)


# ------------------------------------------------------------------ files


def write_recording(path: Path, recording: Recording) -> None:
    """Write atomically: a crash leaves no half-written recording behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("recording.json", recording.info.model_dump_json(indent=2))
        lines = "".join(ex.model_dump_json() + "\n" for ex in recording.exchanges)
        zf.writestr("exchanges.jsonl", lines)
        for ex in recording.exchanges:
            zf.writestr(ex.member, ex.body)
    os.replace(partial, path)


def read_recording(path: Path) -> Recording:
    """Load a recording; a file that is not one raises ``ConfigError`` naming the file. Each
    member's compression method and size are checked before it is inflated
    (``gptnt.bounded.zip_member``), so a small zip cannot make us read gigabytes."""
    where = f"recording {path}"
    hint = "record one with `gptnt sim record`"
    try:
        with open_zip(path, where=where) as zf:
            info = parse_json(
                zip_member(zf, "recording.json", where=where),
                RecordingInfo.model_validate_json,
                where=f"{where}: recording.json",
            )
            exchanges = []
            bodies: dict[str, bytes] = {}  # each member inflated once, however often it is named
            lines = zip_member(zf, "exchanges.jsonl", where=where, limit=MAX_LINE_BYTES)
            for number, line in enumerate(lines.splitlines(), start=1):
                ex = parse_json(line, Exchange.model_validate_json,
                                where=f"{where}: exchanges.jsonl line {number}")  # fmt: skip
                if ex.member not in bodies:
                    bodies[ex.member] = zip_member(zf, ex.member, where=where)
                exchanges.append(ex.model_copy(update={"body": bodies[ex.member]}))
    except FileNotFoundError:
        raise ConfigError(f"{where}: no such file; {hint}") from None
    except UnreadableError as err:
        detail = str(err).removeprefix(f"{where}: ")
        raise UnreadableError(f"{where}: not a gptnt recording ({detail}); {hint}") from None
    return Recording(info, exchanges)


# ------------------------------------------------------------------ recording


class RecordingTransport(httpx.AsyncBaseTransport):
    """An httpx transport that passes requests on to ``inner`` and keeps every exchange."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self._inner = inner
        self.exchanges: list[Exchange] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        body = await response.aread()
        await response.aclose()
        headers = {k: response.headers[k] for k in KEPT_HEADERS if k in response.headers}
        target = request.url.raw_path.decode("ascii")
        self.exchanges.append(
            Exchange(
                index=len(self.exchanges),
                method=request.method,
                target=target,
                status=response.status_code,
                headers=headers,
                body=body,
            )
        )
        kept = [(k, v) for k, v in response.headers.multi_items() if k not in _TRANSFER_HEADERS]
        return httpx.Response(response.status_code, headers=kept, content=body, request=request)

    async def aclose(self) -> None:
        await self._inner.aclose()


# ------------------------------------------------------------------ replay

RequestKey = tuple[str, tuple[tuple[str, str], ...]]


def _route(target: str) -> str:
    path = urlsplit(target).path.lower()
    return path.rstrip("/") or "/"


def _normalise_value(text: str) -> str:
    """Numbers compare as numbers, so ``0.50`` and ``0.5`` are the same request."""
    try:
        value = float(text)
    except ValueError:
        return text
    return repr(value) if math.isfinite(value) else text


def request_key(target: str) -> RequestKey:
    """What must match between a recorded and a replayed request (see the module docstring)."""
    params = parse_qsl(urlsplit(target).query, keep_blank_values=True)
    kept = sorted((k, _normalise_value(v)) for k, v in params if k not in VOLATILE_PARAMS)
    return _route(target), tuple(kept)


@dataclass(frozen=True)
class ReplayAnswer:
    status: int
    headers: dict[str, str]
    body: bytes


class Replay:
    """The replay position over a recording; ``answer`` is called once per incoming request."""

    def __init__(self, recording: Recording) -> None:
        self._steps: list[Exchange] = []
        # request key → [(positional requests before it, exchange)], in recording order
        self._reads: dict[RequestKey, list[tuple[int, Exchange]]] = {}
        for ex in recording.exchanges:
            if ex.path in READ_ONLY:
                self._reads.setdefault(request_key(ex.target), []).append((len(self._steps), ex))
            else:
                self._steps.append(ex)
        self.position = 0

    @property
    def finished(self) -> bool:
        return self.position >= len(self._steps)

    def answer(self, method: str, target: str) -> ReplayAnswer:
        if method == "OPTIONS":
            return ReplayAnswer(200, {}, b"")
        if _route(target) in READ_ONLY:
            return self._read(method, target)
        if self.finished or request_key(self._steps[self.position].target) != request_key(target):
            return self._diverged(method, target)
        expected = self._steps[self.position]
        self.position += 1
        return ReplayAnswer(expected.status, dict(expected.headers), expected.body)

    def _read(self, method: str, target: str) -> ReplayAnswer:
        recorded = self._reads.get(request_key(target), [])
        before = [ex for steps, ex in recorded if steps <= self.position]
        if before:
            chosen: Exchange | None = before[-1]
        elif _route(target) == HEALTH and recorded:
            chosen = recorded[0][1]
        else:
            chosen = None
        if chosen is None:
            if _route(target) == HEALTH:
                return ReplayAnswer(409, {}, b"Replay: the recording holds no /health exchange.")
            return self._diverged(method, target)
        return ReplayAnswer(chosen.status, dict(chosen.headers), chosen.body)

    def _diverged(self, method: str, target: str) -> ReplayAnswer:
        if self.finished:
            expected, received = "the end of the recording", f"{method} {target}"
        else:
            wanted = self._steps[self.position]
            expected, received = _difference(wanted.method, wanted.target, method, target)
        message = (
            f"Replay diverged at request #{self.position + 1}: expected {expected}, "
            f"received {received}"
        )
        log.warning(message)
        return ReplayAnswer(409, {"content-type": "text/plain; charset=utf-8"}, message.encode())


def _difference(expected_method: str, expected: str, method: str, received: str) -> tuple[str, str]:
    """Both requests, short enough for one line: on the same route only the query parameters
    that differ (``sessionId`` aside), else the whole targets."""
    route, want = request_key(expected)
    got_route, got = request_key(received)
    if route != got_route:
        return f"{expected_method} {expected}", f"{method} {received}"
    a, b = dict(want), dict(got)
    keys = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))

    def query(target: str) -> str:
        raw = dict(parse_qsl(urlsplit(target).query, keep_blank_values=True))
        return "&".join(f"{k}={raw[k]}" for k in keys if k in raw) or "(none)"

    return f"{expected_method} {route}?{query(expected)}", f"{method} {route}?{query(received)}"


class _ReplayEndpoint:
    """Every path and method goes to the replay (the mod ignores the method too)."""

    def __init__(self, replay: Replay) -> None:
        self._replay = replay

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        target = scope["raw_path"].decode("ascii") if scope.get("raw_path") else scope["path"]
        if scope.get("query_string"):
            target = f"{target.split('?')[0]}?{scope['query_string'].decode('ascii')}"
        reply = self._replay.answer(request.method, target)
        headers = {**CORS_HEADERS, **reply.headers}
        response = Response(reply.body, reply.status, headers=headers)
        await response(scope, receive, send)


def create_stub_app(recording: Recording) -> Starlette:
    """The recorded-game stub: serve with uvicorn or call via ``httpx.ASGITransport``."""
    return Starlette(routes=[Route("/{path:path}", _ReplayEndpoint(Replay(recording)))])


def new_recording(exchanges: Sequence[Exchange], *, source: str, note: str = "") -> Recording:
    """Wrap recorded exchanges with their info, stamped now."""
    info = RecordingInfo(created=datetime.now(UTC), source=source, note=note)
    return Recording(info, list(exchanges))


def summarise(exchanges: Iterable[Exchange]) -> str:
    """One line per exchange, for the CLI: status, size and request."""
    return "\n".join(
        f"{ex.status} {len(ex.body):>9} B  {ex.method} {ex.target}" for ex in exchanges
    )


# ------------------------------------------------------------------ the scripted session


def mask_point(mask: np.ndarray) -> tuple[float, float] | None:
    """Relative (x, y) of the centroid of the largest flat-coloured region of a mask.

    Each pixel's colour is min-max stretched first, so the darker anti-aliased edges of a
    region count as that region (the mod blends edges with black).
    """
    lit = mask.max(axis=2) > 0
    if not lit.any():
        return None
    pixels = mask[lit].astype(np.int32)
    low, high = pixels.min(axis=1, keepdims=True), pixels.max(axis=1, keepdims=True)
    stretched = (pixels - low) * 255 // np.maximum(high - low, 1)
    _, inverse, counts = np.unique(stretched, axis=0, return_inverse=True, return_counts=True)
    ys, xs = np.nonzero(lit)
    chosen = inverse.reshape(-1) == int(np.argmax(counts))
    height, width = lit.shape
    return float(xs[chosen].mean() + 0.5) / width, float(ys[chosen].mean() + 0.5) / height


async def play_session(client: GameClient, config: MissionConfig, *, steps: int = 2) -> None:
    """A short session touching every route the harness uses, in the harness's order (docs/protocol.md §4.2).

    Setup → start → pause in the dark → one step to lights-on → state and frames (raw and PNG)
    → click the largest region of the mask (a module: zoom in) → ``steps`` more steps → zoom
    out → turn left and back → ``/solve`` → ``PostGame`` → ``/reset``.
    """
    from gptnt.config import GameConfig
    from gptnt.protocol import ActionKind, GameAction, Lifecycle

    # Lifecycle changes are waited for as long as the game service waits for them.
    wait_s = GameConfig.model_fields["startup_timeout_s"].default
    await client.wait_for(Lifecycle.SETUP, timeout_s=wait_s)
    await client.modules()
    await client.start_mission(config)
    await client.wait_for(Lifecycle.LIGHTS_OFF, timeout_s=wait_s)
    await client.set_time_scale(0)
    for _ in range(5):  # lights come on within a few seconds of game time
        await client.timestep()
        if await client.health() == Lifecycle.LIGHTS_ON:
            break
    else:
        raise GameTimeoutError("/timestep: five steps after LightsOff, still no LightsOn")
    await client.state()
    frames = await client.buffer()
    await client.buffer(last=2, fmt="png")
    point = None if frames.mask is None else mask_point(frames.mask)
    if point is not None:
        await client.action(GameAction.checked(ActionKind.CLICK, *point))
    for _ in range(max(1, steps)):
        await client.timestep()
        await client.state()
    await client.buffer(last=1, fmt="png")
    for kind in (ActionKind.OUT, ActionKind.LEFT, ActionKind.RIGHT):
        await client.action(GameAction.checked(kind))
        await client.timestep()
        await client.state()
    await client.debug()
    await client.solve()
    await client.wait_for(Lifecycle.POST_GAME, timeout_s=wait_s)
    await client.state()
    await client.reset()
    await client.wait_for(Lifecycle.SETUP, timeout_s=wait_s)
