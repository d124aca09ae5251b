"""The backend against every behaviour of the hostile stand-in (``scripts/hostile_standin.py``):
provider garbage is a provider failure, a model's text of any kind is a reply; every wait is
within the call's deadline; ``Retry-After`` is honoured while the deadline allows; the key
never comes back out."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import tracemalloc
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from hostile_standin import BEHAVIOURS, Hostile

from gptnt.players import Conversation
from gptnt.players._body import MAX_RESPONSE_BYTES
from gptnt.players.backends import ModelBackend
from gptnt.players.config import PlayerConfig

KEY_ENV = "GPTNT_HOSTILE_KEY"
KEY = "sk-hostile-canary-4f1c2e"
FAST = {
    "slow": "slow~0.2",
    "trickle": "trickle~0.0005",
    "hang": "hang",
    "huge-chunked": "huge-chunked~20",
    "gzip-bomb": "gzip-bomb~20",
}
"""Short arguments, so that each case takes a fraction of a second."""


@pytest.fixture
async def hostile(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Hostile]:
    monkeypatch.setenv(KEY_ENV, KEY)
    async for running in Hostile().serve():
        yield running


@pytest.fixture(scope="module")
def standin() -> Iterator[str]:
    """The stand-in as its own process (``scripts/hostile_standin.py --port``): its root URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    script = Path(__file__).resolve().parents[2] / "scripts" / "hostile_standin.py"
    server = subprocess.Popen([sys.executable, str(script), "--port", str(port)],
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert server.stdout is not None and "serving on" in server.stdout.readline()
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def _backend(hostile: Hostile, path: str, **extra: object) -> ModelBackend:
    settings: dict[str, object] = {"transport_retries": 0, **extra}
    config = PlayerConfig(model="openai:hostile", base_url=f"{hostile.url}/{path}/v1",
                          api_key_env=KEY_ENV, **settings)  # type: ignore[arg-type]  # fmt: skip
    return ModelBackend(config, prices={})


@pytest.mark.parametrize("name", sorted(BEHAVIOURS))
async def test_each_behaviour_is_the_provider_s_or_the_model_s(hostile: Hostile, name: str) -> None:
    """One retry, as the flaky and the rate-limited behaviours need to be any use."""
    reply = await _backend(hostile, FAST.get(name, name), transport_retries=1).complete(
        Conversation("s").request("hi"), deadline_s=3.0
    )
    garbage = BEHAVIOURS[name].garbage
    assert (reply.failure == "provider_error") == garbage, (name, reply.record.error)
    if not garbage:
        assert reply.record.error is None
    assert KEY not in reply.text and KEY not in (reply.record.error or "")
    assert hostile.keys == {KEY}  # it was sent, and came back out nowhere


async def test_retry_after_is_waited_for_then_the_answer_counts(hostile: Hostile) -> None:
    backend = _backend(hostile, "rate-limited~1.5", transport_retries=1)
    t0 = time.monotonic()
    reply = await backend.complete(Conversation("s").request("hi"), deadline_s=10.0)
    assert reply.failure is None and time.monotonic() - t0 >= 1.5
    assert reply.record.attempts == (429,)
    assert hostile.calls["rate-limited"] == 2


async def test_a_retry_after_past_the_deadline_is_not_waited_for(hostile: Hostile) -> None:
    backend = _backend(hostile, "rate-limited-always~50", transport_retries=3)
    t0 = time.monotonic()
    reply = await backend.complete(Conversation("s").request("hi"), deadline_s=5.0)
    assert time.monotonic() - t0 < 2.0
    assert reply.failure == "provider_error" and reply.record.status == 429
    assert "Retry-After 50 s leaves no time" in (reply.record.error or "")
    assert reply.record.attempts == (429,)


async def test_retries_stop_at_the_deadline_and_every_status_is_kept(hostile: Hostile) -> None:
    backend = _backend(hostile, "server-error~502", transport_retries=5)
    t0 = time.monotonic()
    reply = await backend.complete(Conversation("s").request("hi"), deadline_s=2.5)
    assert time.monotonic() - t0 < 2.5
    # backoffs of 0.5 and 1 s fit in 2.5 s with 1 s to spare for the next attempt; 2 s does not
    assert reply.record.attempts == (502, 502)
    assert reply.record.status == 502


async def test_a_hung_provider_is_cut_at_the_call_s_deadline(hostile: Hostile) -> None:
    t0 = time.monotonic()
    reply = await _backend(hostile, "hang", transport_retries=2).complete(
        Conversation("s").request("hi"), deadline_s=0.8
    )
    assert 0.7 < time.monotonic() - t0 < 1.5
    assert reply.failure == "provider_error" and reply.record.attempts == (None,)


async def test_a_slow_answer_within_the_deadline_is_not_cut(hostile: Hostile) -> None:
    """The old per-call timeout_s (120 s under a 180 s turn) cut a 125 s answer; now the call
    has what its turn leaves it."""
    reply = await _backend(hostile, "slow~1.2").complete(
        Conversation("s").request("hi"), deadline_s=1.5
    )
    assert reply.failure is None and reply.text


def test_timeout_s_is_refused_with_the_fix() -> None:
    from gptnt.errors import PlayerConfigError
    from gptnt.players.config import _validated

    with pytest.raises(PlayerConfigError, match="timeout_s is no longer a setting.*drop"):
        _validated({"model": "openai:x", "timeout_s": 120}, "p.yaml")


@pytest.mark.parametrize(("path", "says"), [
    ("huge-body~30", "30,0"),  # refused from its Content-Length, before a byte of the body
    ("huge-chunked~30", "over 16 MiB; the read stopped there"),
    ("endless", "over 16 MiB; the read stopped there"),
    ("gzip-bomb~100", "over 16 MiB once inflated"),
])  # fmt: skip
async def test_a_body_past_the_cap_is_cut_there_never_read_whole(
    standin: str, monkeypatch: pytest.MonkeyPatch, path: str, says: str
) -> None:
    """A 30 MB, an endless or a decompression-bomb body: the read stops at MAX_RESPONSE_BYTES
    (the error says so, not the deadline), it is the provider's failure, not retried (the same
    request would get the same body), and this process never held much more than the cap (the
    stand-in runs in a process of its own, so its 30 MB are not counted here)."""
    monkeypatch.setenv(KEY_ENV, KEY)
    config = PlayerConfig(model="openai:hostile", base_url=f"{standin}/{path}/v1",
                          api_key_env=KEY_ENV, transport_retries=2)  # fmt: skip
    backend = ModelBackend(config, prices={})
    tracemalloc.start()
    try:
        reply = await backend.complete(Conversation("s").request("hi"), deadline_s=60.0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert reply.failure == "provider_error", reply.record
    assert says in (reply.record.error or ""), reply.record.error
    assert reply.record.attempts == (200,) or reply.record.attempts == (None,)
    assert peak < 4 * MAX_RESPONSE_BYTES, peak  # the server's 30 MB body is built here too


async def test_an_endless_trickle_is_cut_at_the_call_s_deadline(hostile: Hostile) -> None:
    """Every read answers within a moment and the body never ends: the call's one deadline,
    over the whole call, cuts it (a per-read timeout never would)."""
    t0 = time.monotonic()
    reply = await _backend(hostile, "endless-trickle~0.05").complete(
        Conversation("s").request("hi"), deadline_s=1.0
    )
    assert time.monotonic() - t0 < 3.0
    assert reply.failure == "provider_error" and "no answer within" in (reply.record.error or "")


async def test_null_content_is_the_model_saying_nothing(hostile: Hostile) -> None:
    reply = await _backend(hostile, "null-content").complete(
        Conversation("s").request("hi"), deadline_s=5.0
    )
    assert reply.failure is None and reply.text == "" and reply.record.error is None
