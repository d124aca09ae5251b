"""Query-string values as the mod parses them.

The mod reads every parameter from the query string with .NET parsers: integers with
``int.Parse``, booleans with ``bool.Parse`` (``true``/``false``, any case) and floats with
``double.Parse``. We write values those parsers accept on any locale (no exponent, no
thousands separator) and read them back with the same rules, so the simulator server and the
client agree with the real mod.
"""

from __future__ import annotations

import math
from decimal import Decimal

from gptnt.errors import ConfigError, QueryError


def format_float(value: float) -> str:
    """Shortest exact decimal text without an exponent (``1e-05`` → ``0.00001``)."""
    if not math.isfinite(value):
        raise ConfigError(f"cannot send non-finite number {value!r} to the game")
    return format(Decimal(repr(float(value))), "f")


def format_bool(value: bool) -> str:
    return "true" if value else "false"


def parse_int(name: str, text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise QueryError(
            f"query parameter {name}={text!r} is not an integer", parameter=name
        ) from None


def parse_float(name: str, text: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        raise QueryError(
            f"query parameter {name}={text!r} is not a number", parameter=name
        ) from None
    if not math.isfinite(value):
        raise QueryError(f"query parameter {name}={text!r} is not a finite number", parameter=name)
    return value


def parse_bool(name: str, text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    raise QueryError(f"query parameter {name}={text!r} must be true or false", parameter=name)
