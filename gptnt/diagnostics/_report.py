"""Accuracy of a diagnostics run per category and per module kind, with 95 % CIs and chance."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from gptnt.analysis import wilson
from gptnt.diagnostics._run import Answer


@dataclass(frozen=True)
class Row:
    """Accuracy of one group of answers."""

    group: str
    n: int
    correct: int
    vanilla: int
    chance: float | None
    failures: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.n if self.n else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.correct, self.n)


def rows(answers: list[Answer], by: str) -> list[Row]:
    """One row per value of ``by`` (``category`` or ``module``), then the overall row."""
    groups: dict[str, list[Answer]] = defaultdict(list)
    for a in answers:
        groups[getattr(a, by)].append(a)
    out = [_row(name, group) for name, group in groups.items()]
    out.append(_row("all", answers))
    return out


def _row(name: str, answers: list[Answer]) -> Row:
    chances = [a.chance for a in answers if a.chance is not None]
    return Row(
        group=name,
        n=len(answers),
        correct=sum(a.correct for a in answers),
        vanilla=sum(a.vanilla for a in answers),
        chance=sum(chances) / len(chances) if chances else None,
        failures=sum(a.failure is not None for a in answers),
    )
