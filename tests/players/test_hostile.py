"""The backend against every behaviour of the hostile stand-in (``scripts/hostile_standin.py``):
provider garbage is a provider failure, a model's text of any kind is a reply; every wait is
within the call's deadline; ``Retry-After`` is honoured while the deadline allows; the key
never comes back out."""

from __future__ import annotations

import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from hostile_standin import BEHAVIOURS, Hostile

from gptnt.players import Conversation
from gptnt.players.backends import ModelBackend
from gptnt.players.config import PlayerConfig

KEY_ENV = "GPTNT_HOSTILE_KEY"
KEY = "sk-hostile-canary-4f1c2e"
FAST = {"slow": "slow~0.2", "trickle": "trickle~0.0005", "hang": "hang"}
"""Short arguments, so that each case takes a fraction of a second."""


@pytest.fixture
async def hostile(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Hostile]:
    monkeypatch.setenv(KEY_ENV, KEY)
    async for running in Hostile().serve():
        yield running


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
