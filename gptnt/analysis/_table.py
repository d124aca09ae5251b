"""The report's unit: a titled table of cells, each a plain value or an estimate with its CI."""

from __future__ import annotations

from dataclasses import dataclass

from gptnt.analysis._stats import Mean, Rate
from gptnt.records import UNKNOWN

Cell = str | int | float | Rate | Mean | None


@dataclass(frozen=True)
class Table:
    key: str  # file stem of its CSV, anchor of its HTML section
    title: str
    source: str  # where the paper reports it, e.g. "Tables 2–3"
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    note: str = ""
    marked: bool = False
    """Its rates carry change markers (↑, ↓): every rate column gets a ``_change`` CSV column,
    whether or not anything changed, so every run's CSV of the table has the same columns."""


def text(cell: Cell) -> str:
    """A cell as Markdown and HTML print it."""
    if cell is None:
        return "–"
    if isinstance(cell, Rate | Mean):
        return cell.text()
    if isinstance(cell, float):
        return f"{cell:.4g}"
    return str(cell)


def snake(column: str) -> str:
    """A column title as a CSV/SQL name: lower case, every run of other characters one ``_``
    ("modules solved on multi-module bombs" → ``modules_solved_on_multi_module_bombs``)."""
    out: list[str] = []
    gap = False
    for ch in column.lower():
        if ch.isascii() and ch.isalnum():
            out.append(("_" if gap and out else "") + ch)
            gap = False
        else:
            gap = True
    return "".join(out) or "column"


def csv_header(table: Table) -> list[str]:
    """CSV columns, snake_case (``snake``): an estimate column ``c`` becomes ``c``, ``c_ci_low``,
    ``c_ci_high``, ``c_n`` (and ``c_k`` for a rate), so every number is its own field; in a
    ``marked`` table every rate also gets ``c_change`` (``↑``, ``↓`` or empty)."""
    kinds = _kinds(table)
    kind_marked = table.marked
    header: list[str] = []
    for column, kind in zip(map(snake, table.columns), kinds, strict=True):
        if kind == "rate":
            header += [
                column,
                f"{column}_k",
                f"{column}_n",
                f"{column}_ci_low",
                f"{column}_ci_high",
            ]
            if kind_marked:
                header.append(f"{column}_change")
        elif kind == "mean":
            header += [column, f"{column}_n", f"{column}_ci_low", f"{column}_ci_high"]
        else:
            header.append(column)
    return header


def csv_rows(table: Table) -> list[list[str]]:
    kinds = _kinds(table)
    marked = table.marked
    out = []
    for row in table.rows:
        line: list[str] = []
        for cell, kind in zip(row, kinds, strict=True):
            if cell == UNKNOWN and kind != "plain":  # an unpriced cost: no number at all
                line += [UNKNOWN] + [""] * ((4 + marked) if kind == "rate" else 3)
            elif kind == "rate":
                assert isinstance(cell, Rate)
                ci = cell.ci
                line += [_num(cell.value), str(cell.k), str(cell.n),
                         _num(ci[0] if ci else None), _num(ci[1] if ci else None)]  # fmt: skip
                if marked:
                    line.append(cell.mark)
            elif kind == "mean":
                assert isinstance(cell, Mean)
                line += [_num(cell.value), str(cell.n), _num(cell.low), _num(cell.high)]
            else:
                line.append(
                    "" if cell is None else _num(cell) if isinstance(cell, float) else str(cell)
                )
        out.append(line)
    return out


def _kinds(table: Table) -> list[str]:
    """Per column: ``rate``, ``mean`` or ``plain`` (a column holds one kind of estimate; a
    cost column may say ``unknown`` where a model had no price)."""
    kinds = []
    for i, _ in enumerate(table.columns):
        cells = [row[i] for row in table.rows if row[i] != UNKNOWN]
        if cells and all(isinstance(c, Rate) for c in cells):
            kinds.append("rate")
        elif cells and all(isinstance(c, Mean) for c in cells):
            kinds.append("mean")
        else:
            if any(isinstance(c, Rate | Mean) for c in cells):
                raise TypeError(f"table {table.key}: column {table.columns[i]} mixes estimates")
            kinds.append("plain")
    return kinds


def _num(value: float | str | None) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)
