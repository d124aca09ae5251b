"""OpenTelemetry: a suite played by separate processes (its Dask worker, and each episode's game
and player services, ``--launch process``) is one trace at the receiver, the ``suite`` span its
root and each episode one tree under it. A stand-in-model episode's spans arrive at a loopback OTLP/HTTP receiver (the
protobuf ``ExportTraceServiceRequest`` a collector takes) as one tree: one root, the episode;
every other span's parent is in the tree; turns, bus calls and their handlers, model calls
with the GenAI attributes, and game calls all in it. Without an endpoint nothing is sent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
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
                labels = {a.key: _value(a.value) for a in resource.resource.attributes}
                for scope in resource.scope_spans:
                    for s in scope.spans:
                        attributes = {a.key: _value(a.value) for a in s.attributes}
                        self.spans.append({
                            "name": s.name, "trace": s.trace_id.hex(), "id": s.span_id.hex(),
                            "parent": s.parent_span_id.hex() or None, "attributes": attributes,
                            "service": labels.get("service.name"),
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


def _subtree(root: dict, spans: list[dict]) -> list[dict]:
    children: dict[str, list[dict]] = defaultdict(list)
    for s in spans:
        if s["parent"]:
            children[s["parent"]].append(s)
    found, todo = [], [root]
    while todo:
        node = todo.pop()
        found.append(node)
        todo += children[node["id"]]
    return found


@pytest.mark.slow
def test_a_suite_played_by_separate_processes_is_one_trace_one_tree_per_episode(
    tmp_path: Path,
) -> None:
    receiver = Receiver()
    gptnt = Path(sys.executable).parent / "gptnt"
    with loopback(receiver.app()) as otlp:
        env = {
            **os.environ,
            "OTEL_EXPORTER_OTLP_ENDPOINT": otlp,
            "GPTNT_OFFLINE": "1",
            "GPTNT_GAME_STARTUP_TIMEOUT_S": "240",
        }  # a loaded machine starts services slowly
        done = subprocess.run(
            [str(gptnt), "suite", "run", "single", "--only", "Wires-234,BigButton-234",
             "--modes", "sync", "--players", "oracle", "--launch", "process", "--games", "1",
             "--yes", "--retries", "0", "--run", "traced", "--out", str(tmp_path)],
            capture_output=True, text=True, timeout=900, env=env, check=False,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    spans = receiver.spans
    loose = sorted({(s["service"], s["name"]) for s in spans if s["trace"] != spans[0]["trace"]})
    assert {s["trace"] for s in spans} == {spans[0]["trace"]}, loose  # the whole suite: one trace
    roots = [s for s in spans if s["parent"] is None]
    assert [(r["name"], r["service"]) for r in roots] == [("suite", "gptnt-suite")]
    ids = {s["id"] for s in spans}
    assert all(s["parent"] in ids for s in spans if s["parent"])  # nothing hangs loose
    episodes = [s for s in spans if s["name"] == "episode"]
    assert len(episodes) == 2 and all(e["parent"] == roots[0]["id"] for e in episodes)
    summaries = {json.loads(p.read_text())["episode_id"]: json.loads(p.read_text())
                 for p in (tmp_path / "traced").rglob("summary.json")}  # fmt: skip
    assert len(summaries) == 2
    for episode in episodes:
        tree = _subtree(episode, spans)
        key = episode["attributes"]["gptnt.episode"]
        (summary,) = [v for k, v in summaries.items() if k.startswith(key)]
        assert episode["service"] == "gptnt-worker"
        assert episode["attributes"]["gptnt.outcome"] == summary["outcome"]
        names = [s["name"] for s in tree]
        turns = sum(summary["turns"].values())
        assert names.count("turn") == turns
        serve = [s for s in tree if s["name"] in ("serve defuser.turn", "serve expert.turn")]
        assert len(serve) == turns and {s["service"] for s in serve} == {"gptnt-player"}
        games = [s for s in tree if s["name"].startswith("game /")]
        assert games and {s["service"] for s in games} == {"gptnt-game"}


def test_a_collector_that_never_answers_holds_no_flush_or_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A collector that takes the connection and never answers (a hung Tempo, a firewall that
    drops): ``flush`` (after each of a suite's episodes) and ``stop`` (a run's end) return while
    it still holds the export, so no episode waits on it. The SDK's own flush ignores its
    timeout, and its shutdown waits 30 s."""
    import socket
    import threading

    held: list[socket.socket] = []
    release = threading.Event()
    listener = socket.create_server(("127.0.0.1", 0))

    def accept() -> None:
        listener.settimeout(0.2)
        while not release.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    monkeypatch.setattr(telemetry, "FLUSH_MS", 300)
    monkeypatch.setenv(
        "OTEL_EXPORTER_OTLP_ENDPOINT", f"http://127.0.0.1:{listener.getsockname()[1]}"
    )
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "600")  # the exporter alone would wait
    try:
        assert telemetry.start("gptnt-test")
        for n in range(1200):  # three batches of the SDK's 512
            with telemetry.span("x", gptnt__n=n):
                pass
        telemetry.flush()
        assert held and not release.is_set()  # returned with the export still held
        telemetry.stop()
        assert not release.is_set()
    finally:
        release.set()
        thread.join()
        for conn in held:
            conn.close()
        listener.close()
        telemetry.stop()
