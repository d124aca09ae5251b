"""SANZARU results: success by family, variant, subset and hint level with 95 % intervals, the
Trio-versus-Solo coordination cost, and the failure modes and perspective flags of the losses
(the paper's Tables 3, 4, 5, 6, 10 and 12)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from gptnt.analysis import wilson
from gptnt.sanzaru._bomb import FAMILIES
from gptnt.sanzaru._run import Summary


@dataclass(frozen=True)
class Line:
    group: str
    n: int
    defused: int
    timed_out: int
    wrong_action: int
    crashed: int

    @property
    def rate(self) -> float:
        return self.defused / self.n if self.n else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.defused, self.n)


def lines(summaries: list[Summary], key: Callable[[Summary], str]) -> list[Line]:
    """One line per group; crashed episodes are shown and kept out of n."""
    groups: dict[str, list[Summary]] = defaultdict(list)
    for s in summaries:
        groups[key(s)].append(s)
    order = {f: i for i, f in enumerate(FAMILIES)}
    out = []
    for name in sorted(groups, key=lambda g: (order.get(g.split("-")[0], 99), g)):
        group = groups[name]
        counted = [s for s in group if s.outcome != "crashed"]
        c = Counter(s.outcome for s in group)
        out.append(Line(name, len(counted), c["defused"], c["timed_out"], c["wrong_action"],
                        c["crashed"]))  # fmt: skip
    return out


def failure_table(summaries: list[Summary]) -> tuple[Counter[str], Counter[str], int]:
    """Modes and flags over the lost episodes, and the number of losses."""
    lost = [s for s in summaries if s.outcome in ("timed_out", "wrong_action")]
    modes = Counter(s.failure_mode or "uncoded" for s in lost)
    flags = Counter(f for s in lost for f in s.failure_flags)
    return modes, flags, len(lost)


KEYS: dict[str, Callable[[Summary], str]] = {
    "family": lambda s: s.family,
    "variant": lambda s: s.variant,
    "subset": lambda s: s.subset,
    "hints": lambda s: s.hints,
    "thinking": lambda s: s.thinking or "default",
    "team": lambda s: f"{s.team}{' (solo)' if s.solo else ''}",
    "family × team": lambda s: f"{s.family} · {s.team}{' (solo)' if s.solo else ' (trio)'}",
}
"""Groupings of the report; ``family × team`` sets Trio beside Solo (the paper's Table 4)."""
