"""Endpoint URLs a user gives (the game, Redis, a model server), checked for form up front.

``urllib`` accepts almost anything (``localhost:8085`` parses as scheme ``localhost``; a port of
99999 fails only when read), so a typo would otherwise surface minutes later, deep inside a
service. ``url_problem`` says in a few words what is wrong, for a one-line error.
"""

from __future__ import annotations

from collections.abc import Collection
from urllib.parse import urlsplit


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
