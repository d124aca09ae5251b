"""Money: a recorded cost is dollars, or ``None`` when the model has no price
(``configs/prices.yaml``). An unknown cost is shown as "unknown", never as $0.00, and a sum
with an unknown part is unknown."""

from __future__ import annotations

from collections.abc import Iterable

UNKNOWN = "unknown"


def add_costs(costs: Iterable[float | None]) -> float | None:
    """The sum; ``None`` when any part is unknown."""
    total = 0.0
    for cost in costs:
        if cost is None:
            return None
        total += cost
    return total


def known_cost(costs: Iterable[float | None]) -> tuple[float, bool]:
    """The sum of the known parts, and whether any part was unknown (a budget counts what it
    knows, and says that more was spent)."""
    total, unknown = 0.0, False
    for cost in costs:
        if cost is None:
            unknown = True
        else:
            total += cost
    return total, unknown


def usd(value: float | None, *, digits: int = 2, partly_unknown: bool = False) -> str:
    """``$1.23`` (``$1,234`` from 100 on when ``digits`` is 2), ``unknown`` for ``None``, and
    ``$1.23 + unknown`` when a known sum leaves out unpriced calls."""
    if value is None:
        return UNKNOWN
    text = f"${value:,.0f}" if value >= 100 and digits == 2 else f"${value:,.{digits}f}"
    return f"{text} + {UNKNOWN}" if partly_unknown else text
