"""An async client for the game's HTTP protocol (docs/protocol.md §2), any backend.

Every call has a deadline (per route, overridable per call) and a connect timeout; the mod
serves one request at a time, so a long ``/timestep`` delays everything queued behind it, and the
deadlines are generous accordingly. Failures are translated at this boundary::

    non-2xx status                         → GameHTTPError (route, status, body)
    HTTP 200 with "Error: …", "Unknown route.", "Please enter …" (the shipped mod's way of
    failing) or "invalid direction…" on /action
                                           → GameRefusedError (route, body)
    deadline or httpx timeout              → GameTimeoutError (route)
    connection refused / reset             → ProtocolError (route)
    /state that is not a BombState,
    /health that is not a lifecycle token  → ProtocolError (route, body)
    /buffer bytes that do not fit          → FrameBufferError

``buffer(fmt="png")`` asks for our ``GPTNTPNG`` container (see ``_buffer``); a backend that
ignores the extension (the shipped mod) answers raw, which is detected by the missing magic and
decoded the same way. ``last`` is likewise applied on the client if the backend ignored it.
The other extensions are only called where the backend advertises them: ``extensions`` holds
the names its last answer listed in ``EXTENSIONS_HEADER`` (none from the shipped mod).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from types import TracebackType
from typing import Literal, Self

import httpx
from pydantic import Field, TypeAdapter, ValidationError

from gptnt import telemetry
from gptnt.errors import (
    ConfigError,
    GameHTTPError,
    GameRefusedError,
    GameTimeoutError,
    ProtocolError,
    first_problem,
)
from gptnt.protocol._actions import GameAction
from gptnt.protocol._buffer import (
    PNG_MAGIC,
    FrameBuffer,
    PngBuffer,
    decode_buffer,
    decode_png_buffer,
    encode_png,
    unpack_png_buffer,
)
from gptnt.protocol._mission import Lifecycle, MissionConfig
from gptnt.protocol._query import format_float
from gptnt.protocol._state import BombState, WireModel

DEFAULT_URL = "http://localhost:8085"
CONNECT_TIMEOUT = 5.0
# Seconds of wall time per route. /timestep runs three phases of up to 10 s each in the mod;
# /action and /state wait up to 50 s for the game's main thread.
DEFAULT_DEADLINES: dict[str, float] = {
    "/health": 5.0,
    "/startmission": 60.0,
    "/settimescale": 10.0,
    "/setstepunit": 10.0,
    "/timestep": 120.0,
    "/action": 60.0,
    "/state": 60.0,
    "/buffer": 60.0,
    "/reset": 30.0,
    "/detonate": 10.0,
    "/solve": 10.0,
    "/random": 60.0,
    "/modules": 10.0,
    "/debug": 10.0,
    "/fastforward": 30.0,
}
FALLBACK_DEADLINE = 30.0
MAX_BODY_BYTES = 16 * 1024 * 1024
"""The most any route but ``/buffer`` may answer (a bomb state is a few KB)."""
MAX_BUFFER_BYTES = 512 * 1024 * 1024
"""The most ``/buffer`` may answer: a ring of 16 raw 4K frames and a mask (the shipped mod
sends raw RGB) is 421 MB."""
_EXCERPT = 200
# Bodies the shipped mod sends with HTTP 200 when it failed (docs/protocol.md §1.2, §2.7).
_REFUSAL_PREFIXES = (b"Error:", b"Unknown route.", b"Please enter")
_ACTION_REFUSAL = b"invalid direction"


class ModuleInfo(WireModel):
    """One entry of ``/modules``: a module type the game can spawn."""

    id: str = Field(description="ComponentTypeEnum name, or a modded module's type id.")
    display_name: str
    is_mod: bool = False


_MODULE_LIST = TypeAdapter(list[ModuleInfo])


def excerpt(body: bytes | str, limit: int = _EXCERPT) -> str:
    """A body as one short line for error messages."""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


TOKEN_HEADER = "X-Gptnt-Token"
"""Extension header: the per-run token a simulator started with one requires on every request
(``gptnt sim serve --token``, ``GPTNT_GAME_TOKEN``). The shipped mod ignores it."""
TOKEN_ENV = "GPTNT_GAME_TOKEN"
"""The token the game service presents to a game at a URL, and ``gptnt sim serve`` requires."""
EXTENSIONS_HEADER = "X-Gptnt-Extensions"
"""Response header naming a backend's additive extensions, comma separated (our simulator's)."""
FAST_FORWARD = "fast-forward"
"""The extension ``/fastforward?until=`` (docs/protocol.md §4.3)."""


def lifecycle_token(body: str) -> Lifecycle:
    """``/health``'s body as a lifecycle token; ``ProtocolError`` if it is none."""
    text = body.strip()
    try:
        return Lifecycle(text)
    except ValueError:
        raise ProtocolError(
            f"/health: {excerpt(text)!r} is not a lifecycle token", route="/health", body=text
        ) from None


class LifecycleWait:
    """One wait, by polling ``/health``, for the game to reach one of ``wanted`` within
    ``timeout_s`` wall seconds. The check and the deadline are here once; ``until_async`` is
    ``GameClient.wait_for``'s loop, ``until`` the same for callers holding a synchronous HTTP
    client (the contract tests, the benchmarks) or calling an in-process game."""

    def __init__(self, *wanted: Lifecycle, timeout_s: float) -> None:
        self.wanted = wanted
        self.timeout_s = timeout_s
        self._end = time.monotonic() + timeout_s

    def reached(self, health: str) -> Lifecycle | None:
        """The state, once ``health`` (a token or ``/health``'s body) is one of ``wanted``;
        ``None`` to poll again; ``GameTimeoutError`` once the deadline has passed."""
        state = lifecycle_token(health)
        if state in self.wanted:
            return state
        if time.monotonic() > self._end:
            raise GameTimeoutError(
                f"/health: still {state.value} after {self.timeout_s:g} s, waiting for "
                + "/".join(w.value for w in self.wanted),
                route="/health",
            )
        return None

    def until(self, health: Callable[[], str], *, poll_s: float = 0.05) -> Lifecycle:
        while (state := self.reached(health())) is None:
            time.sleep(poll_s)
        return state

    async def until_async(
        self, health: Callable[[], Awaitable[str]], *, poll_s: float = 0.05
    ) -> Lifecycle:
        while (state := self.reached(await health())) is None:
            await asyncio.sleep(poll_s)
        return state


class GameClient:
    """Async client for one game backend (real mod, simulator or replay stub)."""

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        *,
        deadlines: Mapping[str, float] | None = None,
        connect_timeout: float = CONNECT_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
        token: str | None = None,
    ) -> None:
        """``transport`` lets the simulator's ASGI app be reached in-process; ``token`` is sent
        as ``TOKEN_HEADER`` on every request (an extension our simulator can require)."""
        self.base_url = base_url.rstrip("/")
        self.deadlines = {**DEFAULT_DEADLINES, **(deadlines or {})}
        self.connect_timeout = connect_timeout
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            timeout=httpx.Timeout(max(self.deadlines.values()), connect=connect_timeout),
            transport=transport,
            # identity: a body is capped as it arrives (``_fetch``), not after it is inflated
            headers={"Accept-Encoding": "identity", **({TOKEN_HEADER: token} if token else {})},
        )
        self.extensions: frozenset[str] = frozenset()
        """The extensions the backend listed in its last answer (``EXTENSIONS_HEADER``)."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    # ------------------------------------------------------------------ transport

    async def _get(
        self, route: str, params: Mapping[str, str] | None = None, deadline: float | None = None
    ) -> bytes:
        """GET ``route``; the body of a successful answer, or a typed error (a ``game`` span)."""
        with telemetry.span(f"game {route}", http__request__method="GET", url__path=route):
            return await self._get_once(route, params, deadline)

    async def _get_once(
        self, route: str, params: Mapping[str, str] | None, deadline: float | None
    ) -> bytes:
        limit = deadline if deadline is not None else self.deadlines.get(route, FALLBACK_DEADLINE)
        cap = MAX_BUFFER_BYTES if route == "/buffer" else MAX_BODY_BYTES
        try:
            async with asyncio.timeout(limit):
                response, body = await self._fetch(route, params, limit, cap)
        except (TimeoutError, httpx.TimeoutException):
            raise GameTimeoutError(
                f"{route}: no answer from {self.base_url} within {limit:g} s", route=route
            ) from None
        except httpx.TransportError as err:
            raise ProtocolError(
                f"{route}: cannot reach the game at {self.base_url}: {err!r}", route=route
            ) from None
        advertised = response.headers.get(EXTENSIONS_HEADER, "")
        self.extensions = frozenset(p.strip() for p in advertised.split(",") if p.strip())
        if not response.is_success:
            raise GameHTTPError(
                f"{route}: HTTP {response.status_code}: {excerpt(body) or '(empty body)'}",
                route=route,
                body=excerpt(body),
                status=response.status_code,
            )
        head = body[:64].lstrip()
        if head.startswith(_REFUSAL_PREFIXES) or (
            route == "/action" and head.startswith(_ACTION_REFUSAL)
        ):
            raise GameRefusedError(
                f"{route}: the game refused: {excerpt(body)}", route=route, body=excerpt(body)
            )
        return body

    async def _fetch(
        self, route: str, params: Mapping[str, str] | None, limit: float, cap: int
    ) -> tuple[httpx.Response, bytes]:
        """The answer and its body, read as it arrives and refused (``ProtocolError``) once it
        passes ``cap`` bytes: a server at the game's address that streams without end must not
        fill our memory before the deadline ends the read."""
        timeout = httpx.Timeout(limit, connect=min(self.connect_timeout, limit))
        request = self._http.build_request("GET", route, params=dict(params or {}),
                                           timeout=timeout)  # fmt: skip
        response = await self._http.send(request, stream=True)
        try:
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > cap:
                raise self._too_large(route, cap, f"its Content-Length says {int(declared)}")
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > cap:
                    raise self._too_large(route, cap, "the read stopped there")
                chunks.append(chunk)
        finally:
            await response.aclose()
        return response, b"".join(chunks)

    def _too_large(self, route: str, cap: int, detail: str) -> ProtocolError:
        return ProtocolError(
            f"{route}: the answer from {self.base_url} is over the {cap // (1024 * 1024)} MiB "
            f"the route may send ({detail}); is that address the game?",
            route=route,
        )

    async def _text(
        self, route: str, params: Mapping[str, str] | None = None, deadline: float | None = None
    ) -> str:
        return (await self._get(route, params, deadline)).decode("utf-8", "replace")

    # ------------------------------------------------------------------ routes

    async def health(self, *, deadline: float | None = None) -> Lifecycle:
        """The lifecycle token (``Setup``, ``LightsOn``, …)."""
        return lifecycle_token(await self._text("/health", deadline=deadline))

    async def wait_for(
        self, *wanted: Lifecycle, timeout_s: float, poll_s: float = 0.05
    ) -> Lifecycle:
        """Poll ``/health`` until it reports one of ``wanted``; ``GameTimeoutError`` naming the
        state it is stuck in once ``timeout_s`` (wall seconds) have passed."""
        return await LifecycleWait(*wanted, timeout_s=timeout_s).until_async(
            self.health, poll_s=poll_s
        )

    async def start_mission(self, config: MissionConfig, *, deadline: float | None = None) -> str:
        """Start a mission (only in ``Setup``); returns the seed the game echoes."""
        return (await self._text("/startmission", config.to_query(), deadline)).strip()

    async def set_time_scale(self, value: float, *, deadline: float | None = None) -> str:
        """0 pauses game time, 1 is real time."""
        return await self._text("/settimescale", {"value": format_float(value)}, deadline)

    async def set_step_unit(self, milliseconds: int, *, deadline: float | None = None) -> str:
        """Game milliseconds one ``/timestep`` advances."""
        return await self._text("/setstepunit", {"value": str(int(milliseconds))}, deadline)

    async def timestep(self, *, deadline: float | None = None) -> str:
        """Run game time for one step, wait for animations, pause again."""
        return await self._text("/timestep", deadline=deadline)

    async def action(self, action: GameAction, *, deadline: float | None = None) -> str:
        """Send one action; returns the game's description of what happened."""
        return await self._text("/action", action.to_query(), deadline)

    async def state(self, *, deadline: float | None = None) -> BombState:
        """The whole bomb (available from the first lights-on until back in ``Setup``)."""
        body = await self._get("/state", deadline=deadline)
        try:
            return BombState.model_validate_json(body)
        except ValidationError as err:
            raise ProtocolError(
                f"/state: not a bomb state ({first_problem(err, whole='body')}): {excerpt(body)}",
                route="/state",
                body=excerpt(body),
            ) from None

    async def buffer(
        self,
        *,
        last: int | None = None,
        fmt: Literal["raw", "png"] = "raw",
        deadline: float | None = None,
    ) -> FrameBuffer:
        """Recent frames (oldest first, top-down) and the segmentation mask of the current view.

        ``last`` keeps the newest N frames; ``fmt="png"`` asks for the compact PNG container.
        """
        body = await self._get("/buffer", _buffer_params(last, fmt), deadline)
        decoded = decode_png_buffer(body) if body.startswith(PNG_MAGIC) else decode_buffer(body)
        if last is not None and decoded.count > last:
            decoded = FrameBuffer(frames=decoded.frames[decoded.count - last :], mask=decoded.mask)
        return decoded

    async def buffer_png(
        self, *, last: int | None = None, deadline: float | None = None
    ) -> PngBuffer:
        """Like ``buffer(fmt="png")`` but the images stay PNG bytes (to store or forward)."""
        body = await self._get("/buffer", _buffer_params(last, "png"), deadline)
        if body.startswith(PNG_MAGIC):
            packed = unpack_png_buffer(body)
            if last is not None and len(packed.frames) > last:
                packed = PngBuffer(frames=packed.frames[-last:], mask=packed.mask)
            return packed
        # A backend without the extension: keep the newest ``last`` frames, encode only those.
        raw = decode_buffer(body)
        kept = raw.frames if last is None else raw.frames[max(0, len(raw.frames) - last) :]
        return PngBuffer(
            frames=[encode_png(frame) for frame in kept],
            mask=None if raw.mask is None else encode_png(raw.mask),
        )

    async def reset(self, *, deadline: float | None = None) -> str:
        """Back to the setup room (ends any mission)."""
        return await self._text("/reset", deadline=deadline)

    async def detonate(self, *, deadline: float | None = None) -> str:
        return await self._text("/detonate", deadline=deadline)

    async def solve(self, *, deadline: float | None = None) -> str:
        """Force-solve every module (testing only)."""
        return await self._text("/solve", deadline=deadline)

    async def random(self, count: int, *, deadline: float | None = None) -> list[str]:
        """Force-solve up to ``count`` random modules; the names of those solved."""
        return (await self._text("/random", {"value": str(int(count))}, deadline)).split()

    async def modules(self, *, deadline: float | None = None) -> list[ModuleInfo]:
        """The module types the game can spawn."""
        body = await self._get("/modules", deadline=deadline)
        try:
            return _MODULE_LIST.validate_json(body)
        except ValidationError as err:
            raise ProtocolError(
                f"/modules: not a module list ({err.errors()[0]['msg']}): {excerpt(body)}",
                route="/modules",
                body=excerpt(body),
            ) from None

    async def fast_forward(self, until: Lifecycle, *, deadline: float | None = None) -> str:
        """Our extension (only where ``FAST_FORWARD`` is in ``extensions``): reach ``until``
        (``Setup``, ``LightsOff`` or ``LightsOn``, then paused) at once instead of waiting."""
        return await self._text("/fastforward", {"until": until.value}, deadline)

    async def debug(self, *, deadline: float | None = None) -> str:
        """``Current face is Front|Rear``."""
        return await self._text("/debug", deadline=deadline)


def _buffer_params(last: int | None, fmt: str) -> dict[str, str]:
    params: dict[str, str] = {}
    if last is not None:
        if last < 1:
            raise ConfigError(f"/buffer: last={last} must be at least 1")
        params["last"] = str(last)
    if fmt == "png":
        params["format"] = "png"
    elif fmt != "raw":
        raise ConfigError(f"/buffer: fmt={fmt!r} must be 'raw' or 'png'")
    return params
