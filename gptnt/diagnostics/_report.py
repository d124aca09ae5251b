"""Accuracy of a diagnostics run per category and per module kind, with 95 % CIs and chance;
and the same as report tables (``gptnt.analysis``), several results folders side by side.

A question whose call failed (the provider's fault, ``Answer.failure``) is counted apart, never
as a wrong answer: accuracy is over the questions that got a reply. A reply without an
``<answer>`` is the model's: it is wrong, and counted in an ``unparsed`` column of its own.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gptnt.analysis import Rate, Table, rate_bars, wilson
from gptnt.diagnostics._run import Answer, RunSpec, read_answers, read_spec

GROUPINGS = ("category", "module")
"""The two groupings of every task: the paper's categories (Tables G.20–21) and module kind."""


@dataclass(frozen=True)
class Row:
    """Accuracy of one group of answers."""

    group: str
    n: int
    correct: int
    vanilla: int
    chance: float | None
    failures: int
    unparsed: int = 0

    @property
    def scored(self) -> int:
        """Questions that got a reply (a failed call is not the model's wrong answer)."""
        return self.n - self.failures

    @property
    def accuracy(self) -> float:
        return self.correct / self.scored if self.scored else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.correct, self.scored)


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
        unparsed=sum(a.unparsed for a in answers),
    )


# ----------------------------------------------------------------------------- report files


@dataclass(frozen=True)
class Results:
    """One results folder of ``diag run``: what was asked of whom, and the answers."""

    folder: Path
    spec: RunSpec
    answers: list[Answer]

    @property
    def label(self) -> str:
        s = self.spec
        return f"{s.answerer} ({s.paradigm}{'' if s.manual else ', no manual'})"


def read_results(folders: Sequence[Path]) -> list[Results]:
    return [Results(f, read_spec(f), read_answers(f)) for f in folders]


def tables(results: Sequence[Results]) -> list[Table]:
    """The ``runs`` table, then per task and grouping one table with every results folder of
    that task side by side (one accuracy column each, and the v1-answer share under
    contamination)."""
    labels = _labels(results)
    out = [_runs_table(results, labels)]
    tasks = list(dict.fromkeys(r.spec.task for r in results))
    for task in tasks:
        of_task = [r for r in results if r.spec.task == task]
        for by in GROUPINGS:
            out.append(_task_table(task, by, of_task, labels))
    return out


def figures(tables_: Sequence[Table]) -> dict[str, str]:
    """Accuracy by category per task as bars with their 95 % whiskers."""
    out = {}
    for table in tables_:
        if not table.key.endswith("_by_category"):
            continue
        bars = [
            (f"{row[0]} · {column}", column, cell)
            for row in table.rows
            for column, cell in zip(table.columns[2:], row[2:], strict=True)
            if isinstance(cell, Rate) and cell.n and not column.endswith("v1 answer")
        ]
        if bars:
            out[table.key] = rate_bars(table.title, bars)
    return out


def _labels(results: Sequence[Results]) -> dict[Path, str]:
    """A column name per results folder; the folder's name is added where two would clash."""
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for r in results:
        counts[(r.spec.task, r.label)] += 1
    return {
        r.folder: r.label if counts[(r.spec.task, r.label)] == 1 else f"{r.label} [{r.folder.name}]"
        for r in results
    }


def _runs_table(results: Sequence[Results], labels: dict[Path, str]) -> Table:
    lines = []
    for r in results:
        (overall,) = [x for x in rows(r.answers, "category") if x.group == "all"]
        lines.append(
            (
                labels[r.folder],
                r.folder.name,
                r.spec.task,
                r.spec.dataset,
                r.spec.answerer,
                r.spec.paradigm,
                "yes" if r.spec.manual else "no",
                overall.n,
                Rate(overall.correct, overall.scored),
                overall.unparsed,
                overall.failures,
            )
        )
    return Table(
        key="runs",
        title="Diagnostics results folders",
        source="(bookkeeping)",
        columns=(
            "column",
            "results",
            "task",
            "dataset",
            "answerer",
            "paradigm",
            "manual",
            "questions",
            "accuracy",
            "unparsed (wrong)",
            "failed calls (not scored)",
        ),
        rows=tuple(lines),
        note="A failed call (the provider's error) is counted apart, not as a wrong answer; an "
        "unparsed reply (no <answer>) is the model's, scored wrong and counted here too.",
    )


_SOURCES = {
    "manual_vqa": "Manual VQA, Table G.20",
    "sim_vqa": "Simulator VQA, Table G.21",
    "localisation": "Localisation, Appendix G",
    "contamination": "contamination probes, §9",
}


def _task_table(task: str, by: str, results: Sequence[Results], labels: dict[Path, str]) -> Table:
    per = [{row.group: row for row in rows(r.answers, by)} for r in results]
    groups = list(dict.fromkeys(g for p in per for g in p if g != "all")) + ["all"]
    chance = _chance(results, by)
    vanilla = task == "contamination"
    columns = [by, "chance"]
    for r in results:
        columns.append(labels[r.folder])
        if vanilla:
            columns.append(f"{labels[r.folder]}: v1 answer")
    body = []
    for g in groups:
        line: list = [g, chance.get(g)]
        for p in per:
            row = p.get(g)
            line.append(Rate(row.correct, row.scored) if row else Rate(0, 0))
            if vanilla:
                line.append(Rate(row.vanilla, row.scored) if row else Rate(0, 0))
        body.append(tuple(line))
    note = "accuracy [95 % Wilson interval] (n answered) per results folder; chance: the mean chance of the questions"
    if vanilla:
        note += "; v1 answer: the share answered with the rule-seed-1 rules (a sign of recall under another seed; always 0 under seed 1)"
    return Table(
        key=f"{task}_by_{by}",
        title=f"{task} by {by}",
        source=_SOURCES.get(task, task),
        columns=tuple(columns),
        rows=tuple(body),
        note=note,
    )


def _chance(results: Sequence[Results], by: str) -> dict[str, float | None]:
    """The mean chance level per group, over the distinct questions asked."""
    seen: dict[str, Answer] = {}
    for r in results:
        for a in r.answers:
            seen.setdefault(a.id, a)
    return {row.group: row.chance for row in rows(list(seen.values()), by)}


def write_report(results: Sequence[Results], out: Path) -> Path:
    """``report.md``, ``report.html`` (offline) and ``tables/<table>.csv`` of every results
    folder side by side, under ``out``; returns the HTML page."""
    from gptnt.analysis import write_tables

    found = tables(results)
    write_tables(
        found,
        out,
        title="gptnt diagnostics — " + ", ".join(r.folder.name for r in results),
        intro=["n counts the questions that got a reply; a failed call is counted apart."],
        figures=figures(found),
    )
    return out / "report.html"
