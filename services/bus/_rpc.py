"""Request/reply over Redis lists, with a deadline on every call and typed remote errors.

A caller pushes an ``RpcRequest`` onto the server's request list for that caller and blocks on a
one-shot reply list (its own, named by the request id) until its deadline: the one deadline
of the call, which the server also applies to the handler. The server answers *every* request it takes: a result,
or an ``RpcFault`` naming the exception. A fault arrives at the caller as ``gptnt.errors.RemoteError``; no
reply before the deadline raises ``DeadlineExceeded``.

Params and results are pydantic models serialised to JSON strings, so the envelope never holds
an untyped payload.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal, TypeVar

import redis.asyncio as aioredis
from pydantic import BaseModel

from gptnt import telemetry
from gptnt.errors import BusError, DeadlineExceeded, GptntError, RemoteError
from gptnt.records import disk_problem
from gptnt.services.bus._deadline import REDIS_CALL_S, within
from gptnt.services.bus._keys import GameKeys, Service
from gptnt.services.bus._server import decoded
from gptnt.waits import patient_timeout

DISK_FAULT = "disk"
"""``RpcFault.kind`` of a write refused for want of space (``gptnt.records.disk_problem``)."""
_DEADLINE_FAULT = "deadline"
"""``RpcFault.kind`` of a handler cut by the call's deadline: the caller raises
``DeadlineExceeded`` for it, as when it sees the deadline pass first (a ``DeadlineExceeded``
raised *inside* a handler, by a call of its own, stays a ``RemoteError``)."""

log = logging.getLogger(__name__)

Req = TypeVar("Req", bound=BaseModel)
Res = TypeVar("Res", bound=BaseModel)

_REPLY_TTL_S = 60
_POLL_S = 0.5  # how often a server's blocking read wakes up to notice it was stopped
_WAKE = "wake"  # pushed onto its own request list by a stopping server (not a request)


class RpcRequest(BaseModel):
    kind: Literal["rpc_request"] = "rpc_request"
    id: str
    method: str
    timeout_s: float  # wall seconds the caller waits for the reply
    params: str  # JSON of the method's request model
    traceparent: str | None = None  # W3C trace context of the caller's span (gptnt.telemetry)


class RpcFault(BaseModel):
    """An exception raised by the server while handling a request."""

    kind: str  # exception class name, e.g. "SimulatorError"
    message: str
    service: str


class RpcReply(BaseModel):
    kind: Literal["rpc_reply"] = "rpc_reply"
    id: str
    result: str | None = None  # JSON of the method's response model
    fault: RpcFault | None = None
    elapsed_s: float = 0.0  # wall seconds the handler took


class RpcClient:
    """Calls methods of the services of one game as ``caller``."""

    def __init__(self, redis: aioredis.Redis, keys: GameKeys, caller: Service) -> None:
        self._redis = redis
        self._keys = keys
        self._caller = caller

    async def call(
        self,
        server: Service,
        method: str,
        params: BaseModel,
        result_type: type[Res],
        *,
        timeout_s: float,
    ) -> Res:
        """Call ``server.method(params)``; raise ``RemoteError`` or ``DeadlineExceeded``."""
        with telemetry.span(f"bus {server}.{method}", rpc__system="redis",
                            rpc__service=server, rpc__method=method):  # fmt: skip
            return await self._call(server, method, params, result_type, timeout_s)

    async def _call(
        self, server: Service, method: str, params: BaseModel, result_type: type[Res],
        timeout_s: float,
    ) -> Res:  # fmt: skip
        request = RpcRequest(
            id=uuid.uuid4().hex, method=method, timeout_s=timeout_s,
            params=params.model_dump_json(), traceparent=telemetry.carrier(),
        )  # fmt: skip
        reply_key = self._keys.reply(self._caller, server, request.id)
        what = f"{server}.{method}"
        try:
            # One deadline for the whole call. BLPOP blocks without a server-side timeout: the
            # deadline cancels it (redis-py then drops the connection, which ends the BLPOP).
            async with within(timeout_s, what):
                await self._redis.rpush(
                    self._keys.rpc(server, self._caller), request.model_dump_json()
                )
                popped = await self._redis.blpop([reply_key], timeout=0)
        except DeadlineExceeded:
            # Whatever the server sends later expires with its reply list.
            raise DeadlineExceeded(
                f"{what}: no reply within {timeout_s:g} s "
                "(is the service running? raise the timeout if the work is legitimately slow)"
            ) from None
        assert popped is not None  # timeout=0: BLPOP waits until the reply is there
        reply = RpcReply.model_validate_json(popped[1])
        if reply.fault is not None and reply.fault.kind == _DEADLINE_FAULT:
            raise DeadlineExceeded(f"{what}: {reply.fault.message}")
        if reply.fault is not None:
            raise RemoteError(reply.fault.kind, reply.fault.message, reply.fault.service)
        assert reply.result is not None
        return result_type.model_validate_json(reply.result)


Handler = Callable[[BaseModel], Awaitable[BaseModel]]


@dataclass
class _Method:
    params_type: type[BaseModel]
    handler: Handler
    callers: frozenset[Service]


@dataclass
class RpcServer:
    """Serves methods of one service; each method lists the callers allowed to use it."""

    redis: aioredis.Redis
    keys: GameKeys
    service: Service
    _methods: dict[str, _Method] = field(default_factory=dict)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def method(
        self,
        name: str,
        params_type: type[Req],
        handler: Callable[[Req], Awaitable[BaseModel]],
        *,
        callers: tuple[Service, ...] = ("manager",),
    ) -> None:
        # ``handler`` takes ``Req``; ``_handle`` gives it only ``params_type``'s instances
        self._methods[name] = _Method(params_type, handler, frozenset(callers))  # type: ignore[arg-type]

    def _lists(self) -> dict[str, Service]:
        callers = sorted({c for m in self._methods.values() for c in m.callers})
        return {self.keys.rpc(self.service, c): c for c in callers}

    async def serve(self, stop: asyncio.Event | None = None) -> None:
        """Take requests until ``stop`` is set (or the task is cancelled); each request runs as
        its own task under its deadline. Stopping by the event lets the blocking read end on
        its own: the requests in flight are then answered before ``serve`` returns."""
        lists = self._lists()
        waker = asyncio.create_task(self._wake_on(stop, next(iter(lists)))) if stop else None
        try:
            while stop is None or not stop.is_set():
                async with within(_POLL_S + REDIS_CALL_S, f"{self.service}: reading requests"):
                    popped = await self.redis.blpop(list(lists), timeout=_POLL_S)
                if popped is None or popped[1] == _WAKE:
                    continue
                key, raw = popped
                task = asyncio.create_task(self._handle(lists[decoded(key)], decoded(raw)))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            if self._tasks:
                await asyncio.wait(set(self._tasks), timeout=_POLL_S)
        finally:
            if waker is not None:
                waker.cancel()
            for task in list(self._tasks):
                task.cancel()

    async def _wake_on(self, stop: asyncio.Event, key: str) -> None:
        """Once ``stop`` is set, end the blocking read at once (not up to ``_POLL_S`` later)."""
        await stop.wait()
        with contextlib.suppress(aioredis.RedisError, BusError):
            async with within(REDIS_CALL_S, f"{self.service}: waking its reader"):
                await self.redis.rpush(key, _WAKE)

    async def _handle(self, caller: Service, raw: str) -> None:
        received = time.monotonic()
        try:
            request = RpcRequest.model_validate_json(raw)
        except ValueError:
            log.warning("%s: dropped a malformed request from %s", self.service, caller)
            return
        reply = RpcReply(id=request.id)
        try:
            method = self._methods.get(request.method)
            if method is None or caller not in method.callers:
                raise PermissionError(f"method {request.method!r} is not offered to {caller}")
            params = method.params_type.model_validate_json(request.params)
            with (
                telemetry.continued(request.traceparent),
                telemetry.span(f"serve {self.service}.{request.method}"),
            ):
                # The caller's deadline, kept as the caller keeps it: a stall of this loop
                # does not cut an answer that is there (``gptnt.waits.patient_timeout``).
                async with patient_timeout(request.timeout_s):
                    result = await method.handler(params)
            reply.result = result.model_dump_json()
        except TimeoutError:
            reply.fault = RpcFault(
                kind=_DEADLINE_FAULT, service=self.service,
                message=f"{request.method} overran its {request.timeout_s:g} s deadline",
            )  # fmt: skip
        except asyncio.CancelledError:
            raise
        except Exception as err:  # every failure is answered, never swallowed
            if not isinstance(err, GptntError):
                log.exception("%s.%s failed", self.service, request.method)
            reply.fault = self._fault(err)
        reply.elapsed_s = time.monotonic() - received
        key = self.keys.reply(caller, self.service, request.id)
        with contextlib.suppress(aioredis.RedisError, BusError):
            async with (
                within(REDIS_CALL_S, f"{self.service}: replying"),
                self.redis.pipeline(transaction=True) as pipe,
            ):
                pipe.rpush(key, reply.model_dump_json())
                pipe.expire(key, _REPLY_TTL_S)
                await pipe.execute()

    def _fault(self, err: BaseException) -> RpcFault:
        problem = disk_problem(err)
        if problem is not None:  # the caller must tell a full disk from a bug
            return RpcFault(kind=DISK_FAULT, message=problem, service=self.service)
        return RpcFault(kind=type(err).__name__, message=str(err), service=self.service)
