"""Endpoint URLs a user gives (the game, Redis, a model server), checked for form up front.

``urllib`` accepts almost anything (``localhost:8085`` parses as scheme ``localhost``; a port of
99999 fails only when read), so a typo would otherwise surface minutes later, deep inside a
service. ``url_problem`` says in a few words what is wrong, for a one-line error.

A URL may also carry a secret (``http://user:SECRET@proxy/v1``, ``?key=…``): ``scrub_url`` and
``scrub_text`` are the one place such secrets are removed before a URL or a provider's message
reaches a record, a log line, a command line or the report.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Collection
from urllib.parse import unquote, urlsplit, urlunsplit


def url_problem(url: str, schemes: Collection[str], *, needs_host: bool = True) -> str | None:
    """What is wrong with ``url`` as an address with one of ``schemes``, or ``None``."""
    if "://" not in url:
        return f"has no scheme; write it as {next(iter(schemes))}://{url}"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as err:
        reason = str(err)
        if "out of range" in reason:
            return "has a port outside 1–65535"
        if "Port" in reason:
            return "has a port that is not a number"
        return f"is not a URL ({reason})"
    if parts.scheme not in schemes:
        return f"has scheme {parts.scheme!r}; use {' or '.join(sorted(schemes))}"
    if needs_host and not parts.hostname:
        return "has no host name"
    if port == 0:
        return "has a port outside 1–65535"
    return None


# ----------------------------------------------------------------------------- secrets

SECRET_PARAMS = frozenset(
    {"key", "api_key", "apikey", "api-key", "token", "access_token", "auth", "secret",
     "password", "sig", "signature", "code"}
)  # fmt: skip
"""Query parameters whose value is taken for a credential (``?key=…`` is Google's API key)."""
HIDDEN = "***"

_USERINFO = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.-]*://)[^/\s@\"'<>]+@")
_QUERY_SECRET = re.compile(
    r"(?P<name>[?&;](?:" + "|".join(re.escape(p) for p in sorted(SECRET_PARAMS)) + r")=)"
    r"[^&#\s\"'<>]+",
    re.IGNORECASE,
)
_CREDENTIAL = re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9*_\-]{4,}|\b(?:Bearer|Basic)\s+[^\s\"',]+")
"""Anything shaped like an API key or an ``Authorization`` value in free text."""


def scrub_url(url: str) -> str:
    """``url`` fit for records, logs and messages: its password (``user:***@``), a lone user
    name (a token: ``***@``) and credential query values (``?key=***``) hidden; the rest as
    given."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return scrub_text(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, host = netloc.rpartition("@")
        user, sep, _ = userinfo.partition(":")
        netloc = f"{user}:{HIDDEN}@{host}" if sep else f"{HIDDEN}@{host}"
    rebuilt = urlunsplit(parts._replace(netloc=netloc))
    return _QUERY_SECRET.sub(lambda m: f"{m['name']}{HIDDEN}", rebuilt)


def url_secrets(url: str | None) -> tuple[str, ...]:
    """The secret parts of ``url`` (its userinfo and credential query values), to scrub from
    any text that might repeat them."""
    if not url:
        return ()
    try:
        parts = urlsplit(url)
    except ValueError:
        return ()
    # A lone user name is a token (``https://TOKEN@host``); beside a password it is a name.
    found = [parts.password] if parts.password else [parts.username] if parts.username else []
    if parts.password:  # HTTP clients send userinfo as Basic auth: its encoded form too
        pair = f"{unquote(parts.username or '')}:{unquote(parts.password)}"
        found.append(base64.b64encode(pair.encode()).decode())
    for pair in re.split(r"[&;]", parts.query):
        name, _, value = pair.partition("=")
        if name.lower() in SECRET_PARAMS and value:
            found.append(value)
    return tuple(found)


def scrub_text(text: str, known: Collection[str] = ()) -> str:
    """``text`` with every secret in ``known`` (a key, a URL's password) and anything shaped like
    one (URL userinfo, ``key=`` parameters, ``sk-…``, ``Bearer …``) replaced by ``***``."""
    for secret in sorted((s for s in known if len(s) >= 4), key=len, reverse=True):
        text = text.replace(secret, HIDDEN)
    text = _USERINFO.sub(lambda m: f"{m['scheme']}{HIDDEN}@", text)
    text = _QUERY_SECRET.sub(lambda m: f"{m['name']}{HIDDEN}", text)
    return _CREDENTIAL.sub(HIDDEN, text)
