"""The simulator's protocol HTTP server: the shipped mod's routes over an in-process ``Game``.

Every route, parameter and body text of the shipped GPTNT mod (docs/protocol.md §1–§3) is
served here, with two deliberate differences that cost old clients nothing:

- **Honest status codes** (``status_codes="honest"``, the default). Where the mod answers a
  failure with HTTP 200 (unknown route, unparsable parameter, ``/startmission`` validation), we
  answer 404 / 400 with the *same* body text, so an old client that reads bodies still
  understands and a new one can trust the status. ``status_codes="mod"`` answers exactly as the
  shipped mod does: those failures, and any exception a handler raises (``Error: …``), come
  back with 200, so a client's detection of error *bodies* can be tested against a live server.
- **Additive extensions.** ``/buffer?last=N`` (only the newest N frames),
  ``/buffer?format=png`` (the PNG container of ``gptnt.protocol``) and
  ``/fastforward?until=Setup|LightsOff|LightsOn`` (the startup's waits at once, ``Game.fast_forward``).
  Every response advertises them in ``X-Gptnt-Extensions`` so a client uses them only where
  they exist, and black-box tests can tell a simulator from a real game.

The game is synchronous and cheap, so one lock keeps requests strictly sequential like the mod's
single listener thread; the work itself runs in a worker thread so the event loop stays free (or,
for a client in the same process and loop, in the loop itself: ``create_app(inline=True)``).
A CORS preflight (``OPTIONS``) is answered without touching the game (the mod would run the
handler and drop the body; running e.g. ``/detonate`` for a preflight helps nobody).

Nothing a client sends may kill the server: a ``SimulatorError`` becomes its status and
message; any other exception becomes a 500 whose body names it, and is logged.
"""

from __future__ import annotations

import base64
import functools
import hmac
import json
import logging
import math
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, get_args

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from gptnt.errors import ConfigError, QueryError, QueryValueError, SimulatorError
from gptnt.protocol import WireModel, parse_float, parse_int
from gptnt.protocol.client import EXTENSIONS_HEADER, FAST_FORWARD, TOKEN_HEADER

if TYPE_CHECKING:
    import numpy as np

    from gptnt.sim.game import Game

__all__ = [
    "CORS_HEADERS",
    "EXTENSIONS",
    "EXTENSIONS_HEADER",
    "STATUS_CODES",
    "StatusCodes",
    "create_app",
]

log = logging.getLogger(__name__)

CORS_HEADERS: dict[str, str] = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type, traceparent, tracestate",
}
EXTENSIONS = f"buffer-last, buffer-png, {FAST_FORWARD}"

TEXT = "text/plain; charset=utf-8"
JSON = "application/json"
BINARY = "application/octet-stream"
UNKNOWN_ROUTE = "Unknown route."

StatusCodes = Literal["honest", "mod"]
STATUS_CODES: tuple[StatusCodes, ...] = get_args(StatusCodes)

# The shipped mod's failures that carry HTTP 200 (docs/protocol.md §1.2): a handler's exception
# (``Error: …``, e.g. a missing or unparsable parameter), ``/startmission`` validation
# (``Please enter …``), an unknown route and an unknown ``/action`` name (its text is returned
# as the handler's answer). Its other refusals (wrong state, bad coordinates, a bad time scale)
# carry 400, and 408/500 stay as they are.
_MOD_200_PREFIXES = (b"Error:", b"Please enter", UNKNOWN_ROUTE.encode(), b"invalid direction")


@dataclass(frozen=True)
class Reply:
    """What a route answers: status, body bytes and the Content-Type it sets."""

    body: bytes
    status: int = 200
    media_type: str = TEXT


Query = Mapping[str, str]
Handler = Callable[["Game", Query], Reply]


# ------------------------------------------------------------------ query parameter parsing


def _param(query: Query, name: str) -> str:
    """A required parameter; missing → the mod's ``Error: …`` body, but with status 400."""
    value = query.get(name)
    if value is None:
        raise SimulatorError(f"Error: query parameter '{name}' is missing; add ?{name}=<value>")
    return value


def _int_param(query: Query, name: str) -> int:
    """An integer parameter, read as the mod reads it (``gptnt.protocol``'s query rules)."""
    text = _param(query, name)
    try:
        return parse_int(name, text)
    except QueryError:
        raise SimulatorError(
            f"Error: query parameter '{name}'={text!r} is not an integer; send e.g. {name}=3000"
        ) from None


def _coordinate(query: Query, name: str) -> float | None:
    """``x_pos``/``y_pos``: absent is allowed (the mod reads it as 0); junk is a 400."""
    text = query.get(name)
    if text is None:
        return None
    try:
        return parse_float(name, text)
    except QueryError:
        raise SimulatorError(
            f"Could not parse x and y coordinates: {name}={text!r} is not a number; "
            "send floats in [0, 1] (top-left origin)"
        ) from None


# ------------------------------------------------------------------ encoders


def _text(body: str) -> Reply:
    return Reply(body.encode("utf-8"))


class IndentedJson:
    """``json.dumps(document, indent=2)``, the same text, faster for ``/state``, whose widgets
    never change and whose modules rarely do. A value in the document may be a wire model
    (``BombState.wire_parts``): it is written as its ``to_wire()`` object, and its text is
    kept for that very model object, as is the text of a list of models for those very models
    (models are frozen, and the game hands out the same object while a module's export stays
    the same), at most ``size`` texts (then the store starts afresh). The rest is written
    afresh, by a writer for JSON's own types that does per value what ``json``'s pure-Python
    encoder (which ``indent`` selects) does per document."""

    def __init__(self, size: int = 1024) -> None:
        self._size = size
        # (depth, id of a model or ids of a list's models): the objects (kept alive, so that
        # their ids are not reused meanwhile) and their text
        self._texts: dict[tuple[int, int | tuple[int, ...]], tuple[object, str]] = {}

    def dumps(self, document: object) -> str:
        return self._text(document, 0)

    def _text(self, value: object, depth: int) -> str:
        kind = type(value)  # the exact types first: a model's isinstance is slow
        if kind is str:
            return json.dumps(value)
        if kind in _SCALARS:
            return _scalar(value)
        if kind is dict:
            return self._object(value, depth)  # type: ignore[arg-type]
        if kind is list:
            return self._array(value, depth)  # type: ignore[arg-type]
        if isinstance(value, WireModel):
            return self._model(value, depth)
        if isinstance(value, dict):
            return self._object(value, depth)
        if isinstance(value, (list, tuple)):
            return self._array(value, depth)
        return _scalar(value)

    def _object(self, value: dict[object, object], depth: int) -> str:
        if not value:
            return "{}"
        pad = "\n" + "  " * (depth + 1)
        members = (f"{pad}{_key(k)}: {self._text(v, depth + 1)}" for k, v in value.items())
        return "{" + ",".join(members) + "\n" + "  " * depth + "}"

    def _array(self, value: list[object] | tuple[object, ...], depth: int) -> str:
        if not value:
            return "[]"
        key = (depth, tuple(map(id, value)))
        kept = self._texts.get(key)
        if kept is not None:
            return kept[1]
        pad = "\n" + "  " * (depth + 1)
        items = (f"{pad}{self._text(item, depth + 1)}" for item in value)
        text = "[" + ",".join(items) + "\n" + "  " * depth + "]"
        if all(isinstance(item, WireModel) for item in value):
            self._keep(key, tuple(value), text)
        return text

    def _model(self, model: WireModel, depth: int) -> str:
        key = (depth, id(model))
        kept = self._texts.get(key)
        if kept is not None:
            return kept[1]
        text = self._text(model.to_wire(), depth)
        self._keep(key, model, text)
        return text

    def _keep(self, key: tuple[int, int | tuple[int, ...]], kept: object, text: str) -> None:
        if len(self._texts) >= self._size:
            self._texts.clear()
        self._texts[key] = (kept, text)


_SCALARS = frozenset({int, float, bool, type(None)})


def _scalar(value: object) -> str:
    """A number, boolean or null as ``json.dumps`` writes it (anything else: what it raises)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (math.inf, -math.inf):
            return "Infinity" if value > 0 else "-Infinity"
        return float.__repr__(value)
    return json.dumps(value)


@functools.lru_cache(maxsize=256)
def _key(key: object) -> str:
    """An object key as ``json.dumps`` writes it (strings, and numbers, booleans and null as
    their text)."""
    return json.dumps(key if isinstance(key, str) else _scalar(key))


_TEXTS = IndentedJson()  # shared by every server of the process: a text is its model's alone


def _json(document: object) -> Reply:
    """Indented JSON, as the mod's Newtonsoft serialiser writes it."""
    return Reply(_TEXTS.dumps(document).encode("utf-8"), media_type=JSON)


def _png_base64(image: np.ndarray) -> str:
    from gptnt.protocol import encode_png

    return base64.b64encode(encode_png(image)).decode("ascii")


# ------------------------------------------------------------------ routes


# The mod's /startmission validation sentences (§2.3), by the parameter they are about.
PLEASE_ENTER: dict[str, str] = {
    "seed": "Please enter valid seed. e.g. seed=123",
    "timeLimit": "Please enter a valid time limit. e.g. timeLimit=90",
    "numStrikes": "Please enter a valid number of strikes. e.g. numStrikes=3",
    "needyTime": "Please enter valid time delay for needy module activation. e.g. needyTime=30",
    "optWidgets": "Please enter a valid number of optional widgets. e.g. optWidgets=3",
    "components": "Please enter a valid list of components to be present on the bomb. "
    "e.g. components=Wires,BigButton",
}


def _mission_refusal(err: ConfigError) -> str:
    """The body for a refused ``/startmission``, from ``MissionConfig.from_query``'s error.

    A missing or unparsable parameter is the mod's ``Error: …``; a value out of bounds is its
    ``Please enter …`` sentence for that parameter, followed by our reason.
    """
    sentence = PLEASE_ENTER.get(err.parameter or "") if isinstance(err, QueryValueError) else None
    return f"{sentence} ({err})" if sentence else f"Error: {err}"


def _start_mission(game: Game, query: Query) -> Reply:
    from gptnt.protocol import MissionConfig

    try:
        config = MissionConfig.from_query(query)
    except ConfigError as err:
        raise SimulatorError(_mission_refusal(err)) from None
    return _text(game.start_mission(config))


def _set_time_scale(game: Game, query: Query) -> Reply:
    try:
        value = parse_float("value", query.get("value", ""))
    except QueryError:
        raise SimulatorError("Could not parse request") from None
    return _text(game.set_time_scale(value))


def _action(game: Game, query: Query) -> Reply:
    action = _param(query, "action")
    x_pos = _coordinate(query, "x_pos")
    y_pos = _coordinate(query, "y_pos")
    return _text(game.action(action, x_pos, y_pos))


def _buffer(game: Game, query: Query) -> Reply:
    """The binary frame buffer (§3.2); extensions ``last`` and ``format=png``."""
    from gptnt.protocol import encode_buffer, encode_png_buffer

    last: int | None = None
    if "last" in query:
        last = _int_param(query, "last")
        if last < 0:
            raise SimulatorError(f"Error: last={last} must be >= 0; send e.g. last=2")
    fmt = query.get("format", "raw").lower()
    if fmt not in ("raw", "png"):
        raise SimulatorError(f"Error: format={fmt!r} is unknown; send format=raw or format=png")
    frames = game.buffer(last)
    if fmt == "png":
        return Reply(encode_png_buffer(frames.frames, frames.mask), media_type=BINARY)
    # The header names the frame size in every state (Setup included), as the mod's does.
    body = encode_buffer(frames.frames, frames.mask, size=game.size)
    return Reply(body, media_type=BINARY)


def _old_buffer(game: Game, query: Query) -> Reply:
    """Legacy JSON form; Content-Type ``image/png`` as the shipped mod (oddly) sends it."""
    frames = game.buffer()
    document = {
        "frames": [_png_base64(frame) for frame in frames.frames],
        "segmentation": "" if frames.mask is None else _png_base64(frames.mask),
    }
    return Reply(json.dumps(document).encode("utf-8"), media_type="image/png")


def _fast_forward(game: Game, query: Query) -> Reply:
    """Our extension: reach the lifecycle state ``until`` at once (docs/protocol.md §4.3)."""
    from gptnt.sim.game import FAST_FORWARD_TO

    text = _param(query, "until")
    wanted = next((state for state in FAST_FORWARD_TO if state.value.lower() == text.lower()), None)
    if wanted is None:
        names = ", ".join(state.value for state in FAST_FORWARD_TO)
        raise SimulatorError(
            f"Error: until={text!r} is not a state to fast-forward to; send one of {names}"
        )
    return _text(game.fast_forward(wanted))


# Routes whose work is a brief hold of the game's lock (stepping captures scenes, it does not
# render them; only a change that falls inside a step, a scheduled one or the clock reaching
# zero, renders the frames waiting, at most the ring's 16): a served game runs them in the
# event loop itself, as the hop to a worker thread and back costs more than their work. The
# others (frames, the mission's build, an input that renders the waiting scenes) keep the hop.
# Each route is declared once, in one of the two tables.
_BRIEF: dict[str, Handler] = {
    "/health": lambda game, query: _text(game.health()),
    "/settimescale": _set_time_scale,
    "/setstepunit": lambda game, query: _text(game.set_step_unit(_int_param(query, "value"))),
    "/timestep": lambda game, query: _text(game.timestep()),
    "/state": lambda game, query: _json(game.state().wire_parts()),
    "/modules": lambda game, query: _json(game.modules()),
    "/debug": lambda game, query: _text(game.debug()),
}
_WORKED: dict[str, Handler] = {
    "/startmission": _start_mission,
    "/action": _action,
    "/buffer": _buffer,
    "/old-buffer": _old_buffer,
    "/reset": lambda game, query: _text(game.reset()),
    "/detonate": lambda game, query: _text(game.detonate()),
    "/solve": lambda game, query: _text(game.solve()),
    "/random": lambda game, query: _text(game.random_solve(_int_param(query, "value"))),
    "/fastforward": _fast_forward,
}
ROUTES: dict[str, Handler] = {**_BRIEF, **_WORKED}
BRIEF_ROUTES = frozenset(_BRIEF)

# ------------------------------------------------------------------ the ASGI app


def _normalise_path(path: str) -> str:
    """The mod lower-cases the path before lookup; a trailing slash is tolerated."""
    path = path.lower()
    return path.rstrip("/") or "/"


class _ProtocolEndpoint:
    """One ASGI endpoint for every path and method: the mod ignores the HTTP method."""

    def __init__(
        self, game: Game, status_codes: StatusCodes, token: str | None = None, inline: bool = False
    ) -> None:
        self._game = game
        self._token = token
        self._lock = threading.Lock()
        self._mod_status = status_codes == "mod"
        self._inline = inline

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        response = await self.respond(request)
        await response(scope, receive, send)

    async def respond(self, request: Request) -> Response:
        path = _normalise_path(request.url.path)
        handler = ROUTES.get(path)
        if self._token and not hmac.compare_digest(
            request.headers.get(TOKEN_HEADER, "").encode(), self._token.encode()
        ):
            reply = Reply(
                f"Forbidden: this game needs the run's {TOKEN_HEADER} header".encode(), 403
            )
        elif request.method == "OPTIONS":
            reply = Reply(b"") if handler is not None else Reply(UNKNOWN_ROUTE.encode(), 404)
        elif handler is None:
            reply = Reply(UNKNOWN_ROUTE.encode(), 404)
        else:
            query = dict(request.query_params)
            # In the loop only if the game is free: waiting there for a worker thread's /buffer
            # to finish would stall every other request (and the loop) meanwhile.
            if (self._inline or path in BRIEF_ROUTES) and self._lock.acquire(blocking=False):
                try:
                    reply = self._answer(handler, query)
                finally:
                    self._lock.release()
            else:
                reply = await run_in_threadpool(self._run, handler, query)
        if self._mod_status:
            reply = _as_mod(reply, request.method)
        headers = {**CORS_HEADERS, EXTENSIONS_HEADER: EXTENSIONS}
        return Response(reply.body, reply.status, headers=headers, media_type=reply.media_type)

    def _run(self, handler: Handler, query: Query) -> Reply:
        with self._lock:
            return self._answer(handler, query)

    def _answer(self, handler: Handler, query: Query) -> Reply:
        """``handler``'s reply (the caller holds the lock)."""
        try:
            return handler(self._game, query)
        except SimulatorError as err:
            return Reply(str(err).encode("utf-8"), err.status)
        except Exception as err:  # the server must survive anything a request triggers
            log.exception("request failed: %s", handler)
            return Reply(f"Error: {type(err).__name__}: {err}".encode(), 500)


def _as_mod(reply: Reply, method: str) -> Reply:
    """``reply`` with the status the shipped mod gives it: 200 for the failures it answers
    with 200 (and then, like every 200 text answer to ``OPTIONS``, an empty body)."""
    if reply.status == 200 or not reply.body.startswith(_MOD_200_PREFIXES):
        return reply
    return Reply(b"" if method == "OPTIONS" else reply.body, 200, reply.media_type)


def create_app(
    game: Game,
    *,
    status_codes: StatusCodes = "honest",
    token: str | None = None,
    inline: bool = False,
) -> Starlette:
    """The protocol server for ``game``: serve with uvicorn or call via ``httpx.ASGITransport``.

    With ``token``, every request without ``TOKEN_HEADER: token`` is refused (403): only the
    run's game service, which was handed the token, can drive the game.

    ``inline=True`` runs the game's work in the event loop itself, for a client in the same
    process and loop (``httpx.ASGITransport``): that client waits for the answer anyway, and
    the hop to a worker thread and back costs a loaded machine milliseconds per call (a served
    game keeps the default, so that its loop stays free while one request works).

    ``status_codes="mod"`` answers failures with the shipped mod's status codes (module doc).
    """
    if status_codes not in STATUS_CODES:
        raise ValueError(f"status_codes={status_codes!r}: use one of {', '.join(STATUS_CODES)}")
    endpoint = _ProtocolEndpoint(game, status_codes, token, inline)
    return Starlette(routes=[Route("/{path:path}", endpoint)])
