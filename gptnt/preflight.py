"""Preflight: what a run needs from outside, checked before any service starts.

Bad input used to reach the services first and surface 9–70 s later as a crashed episode, a
traceback, or a line in a service log, with a run directory left behind. Here every input is
checked up front and each failure is one ``ConfigError`` line naming the flag or config field
and the fix:

1. ``check_inputs`` — instant, no network: ``--out`` can hold run directories, ``--game`` is
   ``sim``/``sim-process`` or a well-formed http(s) URL, ``--redis-url`` is a well-formed Redis
   URL, every model player has its API key (never printed) — a config's own fields (base_url
   form, vLLM's base_url) are checked when it is loaded (``PlayerConfig``);
2. ``probe`` — one cheap request to each endpoint, all at once, each with its own deadline of
   ``PROBE_S``: the model server's model list (which also tells a rejected key), the game's
   ``/health``, and a Redis ``PING``.

``preflight`` does both. The embedded simulator and the embedded Redis need no probe.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gptnt.endpoints import scrub_text, scrub_url, url_problem
from gptnt.errors import ConfigError
from gptnt.players.backends import api_key, check_endpoint
from gptnt.players.config import PlayerConfig
from gptnt.players.providers import (
    OWN_PROVIDERS,
    build_model,
    env_base_url,
    model_base_url,
    openai_client,
)

if TYPE_CHECKING:
    from gptnt.missions import Mission

PROBE_S = 3.0
"""Wall seconds each endpoint gets to answer its probe."""
SIM_BACKENDS = ("sim", "sim-process")
GAME_SCHEMES = ("http", "https")
REDIS_SCHEMES = ("redis", "rediss", "unix")

_DEFAULT_BASE = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
    "google": "https://generativelanguage.googleapis.com",
}
_ANTHROPIC_VERSION = "2023-06-01"


@dataclass(frozen=True)
class Needs:
    """What one run (or suite) will use."""

    players: Sequence[PlayerConfig] = ()
    """The model players (scripted ones need nothing)."""
    game: str = "sim"
    """``--game``: ``sim``, ``sim-process`` or the URL of a protocol server."""
    redis_url: str | None = None
    """``--redis-url`` or ``$GPTNT_REDIS_URL``; ``None``: an embedded server is started."""
    out: Path | None = None
    """``--out``: the directory that receives run directories (created if missing)."""


def preflight(needs: Needs) -> None:
    """``check_inputs`` then ``probe``; raises the first problem found as a ``ConfigError``."""
    check_inputs(needs)
    asyncio.run(probe(needs))


def check_inputs(needs: Needs) -> None:
    """The checks that need no network (instant)."""
    if needs.out is not None:
        check_out(needs.out)
    check_game(needs.game)
    if needs.redis_url is not None:
        check_redis_url(needs.redis_url)
    for config in needs.players:
        api_key(config)
        check_endpoint(config)


def check_out(out: Path) -> None:
    """``--out`` is a directory, or can be created as one (nothing is created here)."""
    if out.exists():
        if not out.is_dir():
            raise ConfigError(
                f"--out {out}: is a file, not a directory; name a directory (it is created "
                "if missing)"
            )
        if not os.access(out, os.W_OK | os.X_OK):
            raise ConfigError(f"--out {out}: the directory is not writable; choose another")
        return
    _check_parent(out, "--out", "create it")


def check_out_file(out: Path, *, flag: str = "--out") -> None:
    """``flag`` names a file that can be written (replaced if there): not a directory, not a
    FIFO or a device, in a directory that exists or can be made (nothing is created here)."""
    if not out.name or out.name in (".", ".."):
        raise ConfigError(f"{flag} {str(out)!r}: names no file; give a file's path")
    if out.exists() and not out.is_file():
        kind = "a directory" if out.is_dir() else "not a regular file"
        raise ConfigError(f"{flag} {out}: is {kind}; give the path of a file to write")
    if out.exists() and not os.access(out, os.W_OK):
        raise ConfigError(f"{flag} {out}: the file is not writable; choose another path")
    _check_parent(out, flag, "write")


def _check_parent(out: Path, flag: str, verb: str) -> None:
    """The nearest existing ancestor of ``out`` is a directory we may ``verb`` inside."""
    parent = out.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise ConfigError(f"{flag} {out}: {parent} is a file, not a directory; choose another path")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ConfigError(f"{flag} {out}: cannot {verb} inside {parent} (not writable)")


def check_game(game: str) -> None:
    """``--game`` is a simulator backend or a well-formed http(s) URL."""
    if game in SIM_BACKENDS:
        return
    problem = url_problem(game, GAME_SCHEMES)
    if problem:
        raise ConfigError(
            f"--game {game!r}: {problem}; give the game's URL (e.g. http://localhost:8085), "
            "or sim / sim-process"
        )


def check_redis_url(url: str) -> None:
    """A URL redis-py can connect with (``redis://[user:password@]host:port/db``)."""
    scheme = url.partition("://")[0]
    problem = url_problem(url, REDIS_SCHEMES, needs_host=scheme != "unix")
    if problem is None:
        from redis.asyncio import ConnectionPool

        try:
            ConnectionPool.from_url(url)
        except ValueError as err:
            problem = f"is not a Redis URL ({err})"
    if problem:
        raise ConfigError(
            f"--redis-url {scrub_url(url)!r}: {problem}; e.g. redis://:password@127.0.0.1:6379/0, "
            "or leave it out for an embedded server"
        )


# ----------------------------------------------------------------------------- probes


async def probe(needs: Needs) -> None:
    """One cheap request per endpoint, concurrently; raises the first problem (in the order
    Redis, game, players) as a ``ConfigError``."""
    probes = []
    if needs.redis_url is not None:
        probes.append(_probe_redis(needs.redis_url))
    if needs.game not in SIM_BACKENDS:
        probes.append(_probe_game(needs.game))
    for config in needs.players:
        probes.append(_probe_model(config, api_key(config)))
    results = await asyncio.gather(*probes, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            raise result


async def _probe_redis(url: str) -> None:
    import redis.asyncio as aioredis
    from redis.exceptions import AuthenticationError, RedisError, ResponseError

    client = aioredis.Redis.from_url(
        url, socket_connect_timeout=PROBE_S, socket_timeout=PROBE_S, retry_on_timeout=False
    )
    where = f"--redis-url {scrub_url(url)!r}"
    try:
        async with asyncio.timeout(PROBE_S):
            await client.ping()
    except (AuthenticationError, ResponseError) as err:
        raise ConfigError(
            f"{where}: the server refused the login ({_line(err)}); put the right "
            "user:password in the URL"
        ) from None
    except (RedisError, OSError, TimeoutError) as err:
        reason = _no_answer() if isinstance(err, TimeoutError) else _line(err)
        raise ConfigError(
            f"{where}: no Redis answering ({reason}); start it, or leave --redis-url out "
            "for an embedded server"
        ) from None
    finally:
        await client.aclose()


async def _probe_game(url: str) -> None:
    from gptnt.errors import ProtocolError
    from gptnt.protocol.client import TOKEN_ENV, GameClient

    # The game service presents the run's token to a game at a URL; so does its probe.
    client = GameClient(url, connect_timeout=PROBE_S, token=os.environ.get(TOKEN_ENV) or None)
    try:
        await client.health(deadline=PROBE_S)
    except ProtocolError as err:
        raise ConfigError(
            f"--game {scrub_url(url)}: /health did not answer ({scrub_text(_line(err))}); start "
            "the game with the "
            "mod (or the stub), or use --game sim"
        ) from None
    finally:
        await client.aclose()


async def _probe_model(config: PlayerConfig, key: str) -> None:
    """GET the provider's model list: free, fast, and it needs a valid key."""
    import httpx

    if config.provider not in OWN_PROVIDERS:
        await _probe_inferred(config, key)
        return
    base = (config.base_url or env_base_url(config) or _DEFAULT_BASE[config.provider]).rstrip("/")
    headers: dict[str, str]
    if config.provider == "anthropic":
        url = f"{base}/v1/models"
        headers = {"x-api-key": key, "anthropic-version": _ANTHROPIC_VERSION}
    elif config.provider == "google":
        url, headers = f"{base}/v1beta/models", {"x-goog-api-key": key}
    else:
        url, headers = f"{base}/models", {"Authorization": f"Bearer {key}"}
    who = f"player {config.name or config.model}"
    shown = scrub_url(base)
    try:
        async with httpx.AsyncClient(timeout=PROBE_S) as http, asyncio.timeout(PROBE_S):
            response = await http.get(url, headers=headers)
    except (httpx.HTTPError, OSError, TimeoutError) as err:
        timed_out = isinstance(err, (TimeoutError, httpx.TimeoutException))
        reason = _no_answer() if timed_out else _line(err)
        raise ConfigError(
            f"{who}: base_url: {shown} is not answering ({scrub_text(reason)}); start the server "
            "or fix base_url"
        ) from None
    if response.status_code in (401, 403):
        env = config.api_key_env or "the provider's key variable"
        raise ConfigError(
            f"{who}: {shown} rejected the API key from ${env} (HTTP {response.status_code}); "
            "check the key"
        )
    # Any other answer (even 404 from a server without a model list) shows it is up.


async def _probe_inferred(config: PlayerConfig, key: str) -> None:
    """A provider pydantic-ai builds: its model list through its own OpenAI client (Azure's
    ``/openai/models?api-version=…``, OpenRouter's, Ollama's ``/v1/models``). A provider with
    another SDK (Bedrock's boto3, Groq's, Mistral's) is built (so its endpoint and credentials
    are checked) but not probed."""
    import openai

    model = build_model(config, key or None)
    client = openai_client(model)
    if client is None:
        return
    who = f"player {config.name or config.model}"
    base = model_base_url(model) or "its endpoint"
    try:
        async with asyncio.timeout(PROBE_S):
            await client.with_options(timeout=PROBE_S, max_retries=0).models.list()
    except (openai.AuthenticationError, openai.PermissionDeniedError) as err:
        raise ConfigError(
            f"{who}: {base} rejected the API key (HTTP {err.status_code}); check the key"
        ) from None
    except (openai.APIConnectionError, TimeoutError) as err:
        reason = (
            _no_answer() if isinstance(err, (TimeoutError, openai.APITimeoutError)) else _line(err)
        )
        raise ConfigError(
            f"{who}: base_url: {base} is not answering ({reason}); start the server or fix base_url"
        ) from None
    except openai.APIStatusError:
        pass  # any other answer (even 404 from a server without a model list) shows it is up


def _no_answer() -> str:
    return f"no answer within {PROBE_S:g} s"


def _line(err: BaseException) -> str:
    """An exception's message on one line, short."""
    text = " ".join(str(err).split())
    return text[:200] or type(err).__name__


# ----------------------------------------------------------------------------- rule seed


def share_pools(pools: Path) -> None:
    """Check the word pools file, then hand it to every service this process starts (through
    the inherited ``GPTNT_RULESEED_POOLS``)."""
    from gptnt.rules.ruleseed import ENV, read_pools

    read_pools(pools)
    os.environ[ENV] = str(pools.resolve())


def use_rule_seed(
    flag: int | None, pools: Path | None, missions: list[Mission], *, name: str = "--rule-seed"
) -> int:
    """The rule seed in force (``flag``: ``--rule-seed`` or ``game.rule_seed`` set in a layer,
    named ``name`` in errors; else the missions' ``ruleSeed``, else 1), checked up front: it
    agrees with every mission naming one and has tables for their modules.
    The word pools file given goes to every service this process starts (``share_pools``)."""
    from gptnt.rules.ruleset import ruleset

    named = sorted({m.config.rule_seed for m in missions if m.config.rule_seed is not None})
    seed = flag if flag is not None else (named[0] if named else 1)
    clash = next((m for m in missions if m.config.rule_seed not in (None, seed)), None)
    if clash is not None:
        raise ConfigError(
            f"{name} {seed}: mission {clash.id} names ruleSeed {clash.config.rule_seed}; "
            "drop it or pick missions of one rule seed"
        )
    if pools is not None:
        share_pools(pools)
    rules = ruleset(seed, pools=pools)
    rules.require({kind for m in missions for kind in m.config.components})
    return seed
