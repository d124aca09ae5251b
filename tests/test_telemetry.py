"""OpenTelemetry: a stand-in-model episode's spans arrive at a loopback OTLP/HTTP receiver (the
protobuf ``ExportTraceServiceRequest`` a collector takes) as one tree: one root, the episode;
every other span's parent is in the tree; turns, bus calls and their handlers, model calls
with the GenAI attributes, and game calls all in it. Without an endpoint nothing is sent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gptnt import telemetry
from gptnt.cli import app
from gptnt.players.cassette import ChatServer, Script, loopback, write_player_configs

pytest.importorskip("opentelemetry.sdk")


class Receiver:
    """``POST /v1/traces``: every span received, as plain dicts."""

    def __init__(self) -> None:
        self.spans: list[dict] = []

    def app(self):  # type: ignore[no-untyped-def]
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
            ExportTraceServiceRequest,
            ExportTraceServiceResponse,
        )
        from starlette.applications import Starlette
        from starlette.requests import Request
        from starlette.responses import Response
        from starlette.routing import Route

        async def traces(request: Request) -> Response:
            export = ExportTraceServiceRequest.FromString(await request.body())
            for resource in export.resource_spans:
                for scope in resource.scope_spans:
                    for s in scope.spans:
                        attributes = {a.key: _value(a.value) for a in s.attributes}
                        self.spans.append({
                            "name": s.name, "trace": s.trace_id.hex(), "id": s.span_id.hex(),
                            "parent": s.parent_span_id.hex() or None, "attributes": attributes,
                        })  # fmt: skip
            body = ExportTraceServiceResponse().SerializeToString()
            return Response(body, media_type="application/x-protobuf")

        return Starlette(routes=[Route("/v1/traces", traces, methods=["POST"])])


def _value(value):  # type: ignore[no-untyped-def]
    kind = value.WhichOneof("value")
    return getattr(value, kind) if kind else None


def test_an_episodes_spans_form_one_tree_at_an_otlp_receiver(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    receiver = Receiver()
    server = ChatServer(Script())
    with loopback(receiver.app()) as otlp, server.running():
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", otlp)
        configs = write_player_configs(tmp_path / "players", server.url)
        result = CliRunner().invoke(
            app,
            ["run", "--mission", "Wires-234", "--mode", "sync", "--defuser",
             str(configs["defuser"]), "--expert", str(configs["expert"]), "--launch", "task",
             "--quiet", "--out", str(tmp_path / "runs")],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    spans = receiver.spans
    assert {s["trace"] for s in spans} == {spans[0]["trace"]}  # one trace for the episode
    roots = [s for s in spans if s["parent"] is None]
    assert [r["name"] for r in roots] == ["episode"]
    ids = {s["id"] for s in spans}
    assert all(s["parent"] in ids for s in spans if s["parent"])  # nothing hangs loose
    names = [s["name"] for s in spans]
    summary = json.loads(next((tmp_path / "runs").rglob("summary.json")).read_text())
    turns = sum(summary["turns"].values())
    assert names.count("turn") == turns
    assert names.count("serve defuser.turn") + names.count("serve expert.turn") == turns
    chats = [s for s in spans if s["name"].startswith("chat ")]
    assert len(chats) == len(server.received)
    for chat in chats:
        a = chat["attributes"]
        assert a["gen_ai.request.model"] in ("fake-defuser", "fake-expert")
        assert a["gen_ai.usage.input_tokens"] > 0 and a["gen_ai.usage.output_tokens"] > 0
    assert any(n.startswith("game /") for n in names)  # the game service's HTTP calls
    assert roots[0]["attributes"]["gptnt.outcome"] == summary["outcome"]


def test_without_an_endpoint_tracing_stays_off(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in telemetry.ENDPOINT_ENVS:
        monkeypatch.delenv(name, raising=False)
    assert telemetry.start("x") is False
    assert telemetry.carrier() is None
    with telemetry.span("anything") as span:
        assert not span.is_recording()
