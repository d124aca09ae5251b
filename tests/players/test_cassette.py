"""The loopback model stand-in: scripted and replayed replies, divergence, prefix counting."""

from __future__ import annotations

import httpx

from gptnt.players.backends import ModelBackend
from gptnt.players.cassette import (
    Cassette,
    ChatServer,
    Replay,
    Script,
    digested,
    newest_text,
    wire_prefix,
)
from gptnt.players.config import PlayerConfig
from gptnt.players.conversation import Attachment, Conversation


def _body(model: str, text: str) -> dict:
    return {"model": model, "messages": [{"role": "user", "content": text}]}


def _post(url: str, body: dict) -> httpx.Response:
    return httpx.post(f"{url}/chat/completions", json=body, timeout=5)


def test_script_serves_each_model_its_own_moves_and_records_a_cassette(tmp_path) -> None:
    server = ChatServer(Script())
    with server.running():
        first = _post(server.url, _body("fake-defuser", "turn 0")).json()
        _post(server.url, _body("fake-expert", "turn 0"))
        second = _post(server.url, _body("fake-defuser", "turn 1")).json()
    said = [r["choices"][0]["message"]["content"] for r in (first, second)]
    assert '"location": "A"' in said[0] and '"location": "B"' in said[1]
    cassette = server.record(mission="1")
    path = tmp_path / "c.json"
    cassette.save(path)
    again = Cassette.load(path)
    assert [c.model for c in again.calls] == ["fake-defuser", "fake-expert", "fake-defuser"]
    assert again.about == {"mission": "1"} and again.calls[2].newest_text == "turn 1"


def test_replay_serves_in_order_and_refuses_a_divergent_request() -> None:
    recorder = ChatServer(Script())
    with recorder.running():
        for text in ("a", "b"):
            _post(recorder.url, _body("fake-defuser", text))
    replay = ChatServer(Replay(recorder.record()))
    with replay.running():
        ok = _post(replay.url, _body("fake-defuser", "a"))
        assert ok.status_code == 200
        assert ok.json()["choices"][0]["message"]["content"] == recorder.calls[0].reply
        wrong = _post(replay.url, _body("fake-defuser", "not b"))
        assert wrong.status_code == 409 and "diverged" in wrong.json()["error"]["message"]
        assert _post(replay.url, _body("fake-defuser", "b")).status_code == 200
        assert "no call #2" in _post(replay.url, _body("fake-defuser", "c")).text


async def test_images_are_digested_and_prefix_is_counted() -> None:
    server = ChatServer(Script())
    with server.running():
        config = PlayerConfig(model="vllm:fake-defuser", base_url=server.url)
        backend = ModelBackend(config)
        conversation = Conversation("S" * 400)
        for turn in range(2):
            request = conversation.request(f"turn {turn}", [Attachment("now:", b"png%d" % turn)])
            conversation.record((await backend.complete(request)).text)
    first, second = server.received
    image = second["messages"][-1]["content"][-1]["image_url"]["url"]
    assert image.startswith("sha256:") and newest_text(second).startswith("turn 1")
    shared, total = wire_prefix(first, second, tokens_per_image=100)
    # The system prompt and the first turn's text are shared; the new images are not.
    assert 100 + 1 < shared < total - 100
    assert wire_prefix(second, second, tokens_per_image=100) == (total, total)
    assert digested(second) == second  # already digested: idempotent
