"""OpenTelemetry traces of every episode, through the standard SDK; off unless asked for.

Set the standard ``OTEL_EXPORTER_OTLP_ENDPOINT`` (or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``)
and every process of a run sends its spans over OTLP/HTTP (protobuf) to that collector:
Jaeger, Grafana Tempo, Honeycomb, an OpenTelemetry Collector, or logfire (endpoint
``https://logfire-api.pydantic.dev``, header ``OTEL_EXPORTER_OTLP_HEADERS=Authorization=<write
token>``; docs/telemetry.md). The exporter reads the other standard variables itself
(headers, timeout, ``OTEL_SERVICE_NAME``). Unset, nothing is configured and every span below
is OpenTelemetry's no-op: no cost, no network.

Spans: ``suite`` (a suite run's root: its episodes are its children, in the workers'
processes, the suite's ``traceparent`` handed to each with its task), ``episode`` (the root of
a single ``gptnt run``), ``turn`` (one player turn, by the manager), ``bus <service>.
<method>`` (an RPC over Redis, client side) and ``serve <service>.<method>`` (its handler, in
the service's process: the W3C ``traceparent`` travels in the RPC envelope, so the tree spans
processes), ``chat <model>`` (a model call, with the GenAI semantic-convention attributes
``gen_ai.*`` and our ``gptnt.cost_usd``), ``game <route>`` (an HTTP call to the game).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from opentelemetry import context, propagate, trace

ENDPOINT_ENVS = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
"""The standard variables that switch tracing on (the first names the traces URL itself)."""
_provider: Any = None
"""This process's SDK ``TracerProvider`` while tracing is on, else ``None``."""


def enabled() -> bool:
    """Tracing was asked for (an OTLP endpoint is set)."""
    return any(os.environ.get(name) for name in ENDPOINT_ENVS)


def start(service: str) -> bool:
    """Switch tracing on in this process as ``service`` (``gptnt-manager``, ``gptnt-player``,
    …) when an OTLP endpoint is set; ``False`` (nothing done) otherwise or when already on."""
    global _provider
    if _provider is not None or not enabled():
        return False
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    name = os.environ.get("OTEL_SERVICE_NAME") or service
    # no exit hook: ``stop`` ends it, bounded (the SDK's hook waits up to 30 s on a collector)
    provider = TracerProvider(
        resource=Resource.create({SERVICE_NAME: name}), shutdown_on_exit=False
    )
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    _provider = provider
    return True


def stop() -> None:
    """Send what is buffered and switch tracing off (the end of a run or a service)."""
    global _provider
    provider, _provider = _provider, None
    if provider is not None:
        _bounded(provider.shutdown)


FLUSH_MS = 5000
"""The longest ``flush`` or ``stop`` waits for the exporter (a collector that does not answer):
what is not sent by then is dropped."""


def flush() -> None:
    """Send what is buffered now, waiting at most ``FLUSH_MS`` (a long-lived process, e.g. a
    suite's worker, after each episode: it may be ended without ``stop``)."""
    if _provider is not None:
        _bounded(_provider.force_flush)


def _bounded(work: Callable[[], object]) -> None:
    """Run ``work`` (the SDK's flush or shutdown) in a daemon thread, waiting at most
    ``FLUSH_MS``: the SDK's force_flush does not keep its timeout (each batch waits the
    exporter's, 10 s by default, on a collector that never answers), and a trace must never
    hold an episode."""
    thread = threading.Thread(target=work, name="gptnt-otel-flush", daemon=True)
    thread.start()
    thread.join(FLUSH_MS / 1000)


@contextmanager
def running(service: str) -> Iterator[None]:
    """Tracing on for the block, if asked for (and not already on): flushed at its end."""
    started = start(service)
    try:
        yield
    finally:
        if started:
            stop()


def tracer() -> trace.Tracer:
    """Our tracer: the SDK's while tracing is on, else a no-op one."""
    if _provider is None:
        return trace.NoOpTracer()
    return _provider.get_tracer("gptnt")


def span(name: str, **attributes: Any) -> Any:
    """A span named ``name`` as the current span's child (a context manager); with tracing
    off, a span that records nothing, at no cost (one is opened per turn)."""
    if _provider is None:
        return nullcontext(trace.INVALID_SPAN)
    clean = {k.replace("__", "."): v for k, v in attributes.items() if v is not None}
    return tracer().start_as_current_span(name, attributes=clean)


def call_attributes(call: Any) -> dict[str, Any]:
    """A model call's record (``CallRecord``) as GenAI semantic-convention attributes."""
    attributes = {
        "gen_ai.usage.input_tokens": call.usage.input_tokens,
        "gen_ai.usage.output_tokens": call.usage.output_tokens,
        "gen_ai.usage.cache_read.input_tokens": call.usage.cache_read_tokens,
        "gptnt.latency_s": call.latency_s,
    }
    if call.finish_reason:
        attributes["gen_ai.response.finish_reasons"] = (call.finish_reason,)
    if call.cost_usd is not None:
        attributes["gptnt.cost_usd"] = call.cost_usd
    if call.failure:
        attributes["error.type"] = call.failure
    return attributes


def carrier() -> str | None:
    """The current span's W3C ``traceparent``, for an envelope (``None`` when tracing is off)."""
    if _provider is None:
        return None
    headers: dict[str, str] = {}
    propagate.inject(headers)
    return headers.get("traceparent")


TRACEPARENT_ENV = "TRACEPARENT"
"""The environment variable that hands a child process its parent span (OpenTelemetry's
environment carrier): a service process started for an episode runs inside its span."""


def child_carrier() -> dict[str, str]:
    """The environment a child process needs to continue the current span (empty when
    tracing is off)."""
    parent = carrier()
    return {TRACEPARENT_ENV: parent} if parent else {}


@contextmanager
def inherited() -> Iterator[None]:
    """The block runs as a child of the span its parent process handed over (``TRACEPARENT``),
    so a service's own work (heartbeats, polling the game) is in the episode's trace too."""
    with continued(os.environ.get(TRACEPARENT_ENV)):
        yield


@contextmanager
def continued(traceparent: str | None) -> Iterator[None]:
    """The block runs as a child of the span ``traceparent`` names (from another process)."""
    if not traceparent:
        yield
        return
    token = context.attach(propagate.extract({"traceparent": traceparent}))
    try:
        yield
    finally:
        context.detach(token)
