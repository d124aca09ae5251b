"""The report's unit: a titled table of cells, each a plain value or an estimate with its CI."""

from __future__ import annotations

from dataclasses import dataclass

from gptnt.analysis._stats import Mean, Rate

Cell = str | int | float | Rate | Mean | None


@dataclass(frozen=True)
class Table:
    key: str  # file stem of its CSV, anchor of its HTML section
    title: str
    source: str  # where the paper reports it, e.g. "Tables 2–3"
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    note: str = ""


def text(cell: Cell) -> str:
    """A cell as Markdown and HTML print it."""
    if cell is None:
        return "–"
    if isinstance(cell, Rate | Mean):
        return cell.text()
    if isinstance(cell, float):
        return f"{cell:.4g}"
    return str(cell)


def csv_header(table: Table) -> list[str]:
    """CSV columns: an estimate column ``c`` becomes ``c``, ``c_ci_low``, ``c_ci_high``, ``c_n``
    (and ``c_k`` for a rate), so every number is its own field."""
    kinds = _kinds(table)
    header: list[str] = []
    for column, kind in zip(table.columns, kinds, strict=True):
        if kind == "rate":
            header += [
                column,
                f"{column}_k",
                f"{column}_n",
                f"{column}_ci_low",
                f"{column}_ci_high",
            ]
        elif kind == "mean":
            header += [column, f"{column}_n", f"{column}_ci_low", f"{column}_ci_high"]
        else:
            header.append(column)
    return header


def csv_rows(table: Table) -> list[list[str]]:
    kinds = _kinds(table)
    out = []
    for row in table.rows:
        line: list[str] = []
        for cell, kind in zip(row, kinds, strict=True):
            if kind == "rate":
                assert isinstance(cell, Rate)
                ci = cell.ci
                line += [_num(cell.value), str(cell.k), str(cell.n),
                         _num(ci[0] if ci else None), _num(ci[1] if ci else None)]  # fmt: skip
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
    """Per column: ``rate``, ``mean`` or ``plain`` (a column holds one kind of estimate)."""
    kinds = []
    for i, _ in enumerate(table.columns):
        cells = [row[i] for row in table.rows]
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
