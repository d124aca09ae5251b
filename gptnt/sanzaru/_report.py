"""SANZARU results as the paper tabulates them, one team per row, never pooled across teams.

- ``team_x_family`` — Table 3: each team's success per family, Core, Plus and All;
- ``variant_x_team`` — Table 12: success per variant, a column per team and their mean;
- ``trio_solo_gap`` — Table 4: per team, family and subset, Trio beside Solo and the Gap;
- ``by_hints`` — Table 10: per team and hint level, Core / Plus / All, the difference from
  None, and the losses by simulator ending;
- ``by_thinking`` — Table 11: per team and thinking budget, Core / Plus / All and the
  difference from Off;
- ``endings`` — Figure 6: the four mutually exclusive endings per team and condition;
- ``failures_by_team`` — Figure 4: each team's losses by stage and mode, with who coded them;
- ``failures_by_family`` — Figure 13: per team and family, the losses by stage and mode;
- ``flags_by_team`` — Table 6: the share of each team's losses carrying each flag.

A team is its name with every condition that is not the paper's default (solo, a hint level
other than Weak, a thinking budget, a turn order other than Deaf, Mute, Blind); Tables 10 and
11 set the hint level and the thinking budget in their own column instead. Crashed episodes
(the harness's failure) are counted apart and kept out of every n.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from typing import get_args

from gptnt.analysis import Cell, Rate, Table, rate_bars
from gptnt.records import SanzaruEnding, SanzaruResult
from gptnt.sanzaru._bomb import FAMILIES, variants
from gptnt.sanzaru._coding import FAILURE_MODES, FLAGS, STAGES

ENDINGS: tuple[SanzaruEnding, ...] = get_args(SanzaruEnding)
SCORED = ("defused", "timed_out", "wrong_action")
"""The outcomes that are a team's results; crashed and interrupted never are."""
_NOTE = ("defused [95 % Wilson interval] (n); a crashed episode (the harness's failure) is "
         "kept out of n.")  # fmt: skip


def _scored(summaries: Iterable[SanzaruResult]) -> list[SanzaruResult]:
    return [s for s in summaries if s.outcome in SCORED]


def _rate(
    summaries: Iterable[SanzaruResult], keep: Callable[[SanzaruResult], bool] = lambda s: True
) -> Rate:
    chosen = [s for s in _scored(summaries) if keep(s)]
    return Rate(sum(s.outcome == "defused" for s in chosen), len(chosen))


def _group(
    summaries: Iterable[SanzaruResult], key: Callable[[SanzaruResult], str]
) -> dict[str, list[SanzaruResult]]:
    groups: dict[str, list[SanzaruResult]] = defaultdict(list)
    for s in summaries:
        groups[key(s)].append(s)
    return dict(groups)


def _points(a: Rate, b: Rate) -> str:
    """``b − a`` in percentage points, signed (the paper's Gap and differences)."""
    if not a.n or not b.n:
        return "–"
    return f"{100 * ((b.value or 0) - (a.value or 0)):+.1f}"


def _family_is(family: str) -> Callable[[SanzaruResult], bool]:
    return lambda s: s.family == family


def _variant_is(variant: str) -> Callable[[SanzaruResult], bool]:
    return lambda s: s.variant == variant


def _families(summaries: list[SanzaruResult]) -> list[str]:
    present = {s.family for s in summaries}
    return [f for f in FAMILIES if f in present]


# ----------------------------------------------------------------------------- success


def team_x_family(summaries: list[SanzaruResult]) -> Table:
    families = _families(summaries)
    rows: list[tuple[Cell, ...]] = []
    for name, group in sorted(_group(summaries, SanzaruResult.label).items()):
        rows.append((name, *(_rate(group, _family_is(f)) for f in families),
                     _rate(group, lambda s: s.subset == "core"),
                     _rate(group, lambda s: s.subset == "plus"), _rate(group),
                     sum(s.outcome == "crashed" for s in group)))  # fmt: skip
    return Table("team_x_family", "SANZARU success by team and family", "Table 3",
                 ("team", *families, "Core", "Plus", "All", "crashed (not scored)"), tuple(rows),
                 _NOTE + " Family columns combine the family's Core and Plus variants.")  # fmt: skip


def variant_x_team(summaries: list[SanzaruResult]) -> Table:
    groups = _group(summaries, SanzaruResult.label)
    names = sorted(groups)
    order = list(variants())
    present = sorted({s.variant for s in summaries}, key=order.index)
    rows: list[tuple[Cell, ...]] = []
    for vid in present:
        rates = [_rate(groups[n], _variant_is(vid)) for n in names]
        values = [r.value for r in rates if r.value is not None]
        mean = f"{100 * sum(values) / len(values):.0f}" if values else "–"
        source = variants()[vid].source
        rows.append((vid, source, *rates, mean))
    return Table("variant_x_team", "SANZARU success by variant and team", "Table 12",
                 ("variant", "source", *names, "mean (%)"), tuple(rows),
                 _NOTE + " source: 'paper' where the paper states the variant, 'ours' where "
                 "the design is ours. mean: the teams' rates averaged, in %.")  # fmt: skip


def trio_solo_gap(summaries: list[SanzaruResult]) -> Table:
    """Per model: Trio (the team under its hint level) beside Solo, and Solo − Trio."""
    by_model = _group(summaries, lambda s: " · ".join(
        p for p in s.label(hints=False).split(" · ") if p != "solo"))  # fmt: skip
    rows = []
    for model, group in sorted(by_model.items()):
        trio = [s for s in group if not s.solo and s.hints == "weak"]
        solo = [s for s in group if s.solo]
        if not trio or not solo:
            continue
        for subset in ("core", "plus"):
            for family in [*_families(group), "All"]:

                def keep(s: SanzaruResult, sub: str = subset, fam: str = family) -> bool:
                    return s.subset == sub and fam in ("All", s.family)

                t, o = _rate(trio, keep), _rate(solo, keep)
                if t.n or o.n:
                    rows.append((model, subset.capitalize(), family, t, o, _points(t, o)))
    return Table("trio_solo_gap", "Coordination cost: Trio beside Solo, and the Gap", "Table 4",
                 ("model", "subset", "family", "Trio", "Solo", "Gap (points)"), tuple(rows),
                 _NOTE + " Trio: the team of three under Weak hints; Solo: one agent with every "
                 "view, no hints. Gap = Solo − Trio. A model needs both runs to appear.")  # fmt: skip


def _against(group: list[SanzaruResult], base: list[SanzaruResult]) -> list[Cell]:
    """Core, Plus and All of ``group``, each followed by its points from ``base`` (``–``
    without a base: the base condition itself, or a team that never played it)."""
    cells: list[Cell] = []
    for keep in (lambda s: s.subset == "core", lambda s: s.subset == "plus", lambda s: True):
        r = _rate(group, keep)
        cells += [r, _points(_rate(base, keep), r) if base else "–"]
    return cells


def by_hints(summaries: list[SanzaruResult]) -> Table:
    trio = [s for s in summaries if not s.solo]
    rows: list[tuple[Cell, ...]] = []
    for name, group in sorted(_group(trio, lambda s: s.label(hints=False)).items()):
        levels = _group(group, lambda s: s.hints)
        base = levels.get("none", [])
        for level in ("none", "weak", "strong", "playbook"):
            if level not in levels:
                continue
            g = levels[level]
            cells = _against(g, base if level != "none" else [])
            lost = Counter(s.outcome for s in _scored(g))
            rows.append((name, level, *cells, lost["timed_out"], lost["wrong_action"]))
    return Table("by_hints", "SANZARU success by hint level", "Table 10",
                 ("team", "hints", "Core", "Δ Core", "Plus", "Δ Plus", "All", "Δ All",
                  "timed out", "wrong action"), tuple(rows),
                 _NOTE + " Δ: points from the same team under no hints.")  # fmt: skip


def by_thinking(summaries: list[SanzaruResult]) -> Table:
    rows: list[tuple[Cell, ...]] = []
    for name, group in sorted(_group(summaries, lambda s: s.label(thinking=False)).items()):
        budgets = _group(group, lambda s: s.thinking or "default")
        base = budgets.get("off", [])
        for budget in ("off", "on", "max", "default"):
            if budget not in budgets:
                continue
            cells = _against(budgets[budget], base if budget != "off" else [])
            rows.append((name, budget, *cells))
    return Table("by_thinking", "SANZARU success by thinking budget", "Table 11",
                 ("team", "thinking", "Core", "Δ Core", "Plus", "Δ Plus", "All", "Δ All"),
                 tuple(rows), _NOTE + " on: thinking capped at 4,096 tokens where the provider "
                 "takes a budget (docs/sanzaru.md); default: the provider's own setting. Δ: "
                 "points from the same team with thinking off.")  # fmt: skip


def endings(summaries: list[SanzaruResult]) -> Table:
    rows: list[tuple[Cell, ...]] = []
    for name, group in sorted(_group(summaries, SanzaruResult.label).items()):
        scored = _scored(group)
        c = Counter(s.ending or s.outcome for s in scored)
        rows.append((name, *(Rate(c[e], len(scored)) for e in ENDINGS),
                     len(group) - len(scored)))  # fmt: skip
    return Table("endings", "How the episodes end", "Figure 6",
                 ("team", *ENDINGS, "crashed (not scored)"), tuple(rows),
                 "Each ending's share of the team's episodes (mutually exclusive): never_acted "
                 "is a timeout in which no action was ever attempted.")  # fmt: skip


# ----------------------------------------------------------------------------- failures


def _lost(summaries: Iterable[SanzaruResult]) -> list[SanzaruResult]:
    return [s for s in summaries if s.outcome in ("timed_out", "wrong_action")]


def _stage_and_mode_cells(lost: list[SanzaruResult]) -> list[Rate]:
    n = len(lost)
    stages = Counter(
        FAILURE_MODES[s.failure_mode].stage for s in lost if s.failure_mode in FAILURE_MODES
    )
    modes = Counter(s.failure_mode for s in lost)
    return [*(Rate(stages[st], n) for st in STAGES), *(Rate(modes[m], n) for m in FAILURE_MODES)]


def failures_by_team(summaries: list[SanzaruResult]) -> Table:
    rows: list[tuple[Cell, ...]] = []
    for name, group in sorted(_group(summaries, SanzaruResult.label).items()):
        lost = _lost(group)
        coders = Counter((s.coded_by or "uncoded").split(":")[0] for s in lost)
        rows.append((name, len(lost), *_stage_and_mode_cells(lost),
                     ", ".join(f"{k} {v}" for k, v in sorted(coders.items()))))  # fmt: skip
    return Table("failures_by_team", "Failure stages and modes of each team's losses",
                 "Table 5, Figure 4",
                 ("team", "losses", *STAGES, *FAILURE_MODES, "coded by"), tuple(rows),
                 "Each loss has one mode; shares of the team's losses. Modes and stage 'action' "
                 "marked ours in docs/sanzaru.md. coded by: ground_truth (the record decides), "
                 "heuristic (the gestures' meaning decides; `gptnt sanzaru judge`), judge (a "
                 "model decided).")  # fmt: skip


def failures_by_family(summaries: list[SanzaruResult]) -> Table:
    rows: list[tuple[Cell, ...]] = []
    for name, group in sorted(_group(summaries, SanzaruResult.label).items()):
        for family in _families(group):
            lost = _lost(s for s in group if s.family == family)
            if lost:
                rows.append((name, family, len(lost), *_stage_and_mode_cells(lost)))
    return Table("failures_by_family", "Failure stages and modes by family, per team",
                 "Figure 13", ("team", "family", "losses", *STAGES, *FAILURE_MODES), tuple(rows),
                 "Each family's losses of one team, by stage (the paper's inner ring) and mode "
                 "(outer ring).")  # fmt: skip


def flags_by_team(summaries: list[SanzaruResult]) -> Table:
    rows: list[tuple[Cell, ...]] = []
    for name, group in sorted(_group(summaries, SanzaruResult.label).items()):
        lost = _lost(group)
        rows.append((name, len(lost), *(Rate(sum(f in s.failure_flags for s in lost), len(lost))
                                        for f in FLAGS)))  # fmt: skip
    return Table("flags_by_team", "Perspective failures: share of losses carrying each flag",
                 "Table 6", ("team", "losses", *FLAGS), tuple(rows),
                 "A loss carries any number of flags.")  # fmt: skip


TABLES: tuple[Callable[[list[SanzaruResult]], Table], ...] = (
    team_x_family, variant_x_team, trio_solo_gap, by_hints, by_thinking, endings,
    failures_by_team, failures_by_family, flags_by_team,
)  # fmt: skip


def tables(summaries: list[SanzaruResult]) -> list[Table]:
    """Every report table of ``TABLES``, in order."""
    return [make(summaries) for make in TABLES]


def figures(tables_: list[Table]) -> dict[str, str]:
    """Figure 3's profile as bars: each team's success per family, with 95 % whiskers."""
    out = {}
    for table in tables_:
        if table.key != "team_x_family":
            continue
        families = [c for c in table.columns[1:] if c in FAMILIES]
        bars = [(f"{f} · {row[0]}", str(row[0]), cell)
                for row in table.rows for i, f in enumerate(families)
                if isinstance(cell := row[1 + i], Rate)]  # fmt: skip
        if bars:
            out[table.key] = rate_bars(table.title, bars)
    return out
