"""The environment of every child process: built from an allow-list, never inherited whole.

A child of the manager (a service, the warm server, the simulator a game service starts) gets
only what it needs to run, plus what its own job needs:

- every child: the variables of ``PASS`` (the interpreter, the locale, the user's home, the
  offline switch of the tests, the rule-seed pools, the missions folder) and of the prefixes
  ``PASS_PREFIXES`` (the locale's ``LC_*``, OpenTelemetry's ``OTEL_*``: each service exports
  its own spans);
- a child that calls out over HTTP (a model player, a game service with a game at a URL):
  the proxy and CA-bundle variables of ``NETWORK``;
- what the caller adds (``extra``): a service's own Redis user URL and its config, a model
  player's own API key variable, the game service's game token.

Never the admin Redis URL (``GPTNT_REDIS_URL`` of the manager), never a key a child does not
call its provider with, never the game token for a player: a variable not named here does not
reach a child.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

PASS = frozenset(
    {"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TERM",
     "PYTHONPATH", "PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE", "PYTHONFAULTHANDLER",
     "VIRTUAL_ENV", "XDG_DATA_HOME", "XDG_CACHE_HOME",
     "GPTNT_OFFLINE", "GPTNT_RULESEED_POOLS", "GPTNT_MISSIONS_DIR"}
)  # fmt: skip
"""Variables every child gets, as the parent has them."""
PASS_PREFIXES = ("LC_", "OTEL_")
"""Prefixes of the variables every child gets."""
NETWORK = frozenset(
    {"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy",
     "all_proxy", "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE",
     "CURL_CA_BUNDLE"}
)  # fmt: skip
"""Variables a child that makes HTTP calls out also gets."""
CONFIG_ENV = "GPTNT_SERVICE_CONFIG"
"""A service's own config section as JSON: in its environment, which only its user can read,
not on its command line, which every user of the machine can (``/proc/PID/cmdline``)."""


def child_env(
    extra: Mapping[str, str] | None = None,
    *,
    network: bool = False,
    source: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """A child's whole environment: the allowed variables of ``source`` (default: this
    process's), the network ones if ``network``, then ``extra``; always unbuffered output."""
    source = os.environ if source is None else source
    allowed = PASS | NETWORK if network else PASS
    env = {k: v for k, v in source.items() if k in allowed or k.startswith(PASS_PREFIXES)}
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra or {})
    return env
