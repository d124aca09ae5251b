"""SANZARU results: success by family, variant, subset and hint level with 95 % intervals, the
Trio-versus-Solo coordination cost, and the failure modes and perspective flags of the losses
(the paper's Tables 3, 4, 5, 6, 10 and 12)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from gptnt.analysis import Rate, Table, rate_bars, wilson
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


# ----------------------------------------------------------------------------- report files

_SOURCES = {
    "family": "Table 3",
    "variant": "Table 12",
    "subset": "Tables 3–4 (Core / Plus)",
    "hints": "Table 10",
    "thinking": "Table 11",
    "team": "Table 3",
    "family × team": "Table 4 (Trio vs Solo)",
}


def tables(summaries: list[Summary]) -> list[Table]:
    """The report tables (``gptnt.analysis``): success per grouping of ``KEYS``, then the
    failure modes and flags of the losses."""
    out = []
    for by, key in KEYS.items():
        rows = tuple((line.group, Rate(line.defused, line.n), line.timed_out, line.wrong_action,
                      line.crashed) for line in lines(summaries, key))  # fmt: skip
        out.append(
            Table(
                key="by_" + by.replace(" × ", "_x_"),
                title=f"SANZARU success by {by}",
                source=_SOURCES[by],
                columns=(by, "defused", "timed out", "wrong action", "crashed (not scored)"),
                rows=rows,
                note="defused [95 % Wilson interval] (n); a crashed episode (the harness's "
                "failure) is shown and kept out of n.",
            )
        )
    out.append(_failures(summaries))
    return out


def _failures(summaries: list[Summary]) -> Table:
    modes, flags, lost = failure_table(summaries)
    coders: dict[str, Counter[str]] = defaultdict(Counter)
    for s in summaries:
        if s.outcome in ("timed_out", "wrong_action"):
            coders[s.failure_mode or "uncoded"][s.coded_by or "uncoded"] += 1
    rows = [("mode", name, Rate(k, lost), _counts(coders[name])) for name, k in modes.most_common()]
    rows += [("flag", name, Rate(k, lost), "") for name, k in flags.most_common()]
    return Table(
        key="failure_modes",
        title=f"Failure modes and perspective flags of {lost} lost episodes",
        source="Tables 5 and 6",
        columns=("kind", "coded as", "share of losses", "coded by"),
        rows=tuple(rows),
        note="Each loss has one mode and any number of flags. coded by: ground_truth (the "
        "record decides), heuristic (a guess a model judge may revisit), judge:<model> (`gptnt sanzaru judge`).",
    )


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{name} {k}" for name, k in counter.most_common())


def figures(tables_: list[Table]) -> dict[str, str]:
    """Success by family and by family × team as bars with their 95 % whiskers."""
    out = {}
    for table in tables_:
        if table.key == "by_family":
            bars = [(str(r[0]), "all", r[1]) for r in table.rows if isinstance(r[1], Rate)]
        elif table.key == "by_family_x_team":
            bars = [(str(r[0]), str(r[0]).split("(")[-1].rstrip(")"), r[1])
                    for r in table.rows if isinstance(r[1], Rate)]  # fmt: skip
        else:
            continue
        if bars:
            out[table.key] = rate_bars(table.title, bars)
    return out
