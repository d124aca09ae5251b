"""The paper's markers that a table's layout carries whatever its data (review of issue 29):
Table 6's ★ on the strongest Defuser and Expert (the Average column and row) and its best
single pairing; the sync and ablation tables' change column present even when nothing
changed, so every run's CSV has the same columns."""

from __future__ import annotations

from pathlib import Path

from gptnt.analysis import load_run, paper_tables
from gptnt.analysis._paper import BEST, STAR
from gptnt.analysis._table import csv_header

RUN = Path(__file__).resolve().parents[1] / "data" / "paper-run"


def _table(key: str):  # type: ignore[no-untyped-def]
    return next(t for t in paper_tables(load_run(RUN).episodes) if t.key == key)


def test_table6_stars_the_strongest_role_averages_and_marks_the_best_pairing() -> None:
    table = _table("paper_table6_sync")
    rows = {str(r[0]): r for r in table.rows}
    # The oracle Defuser averages 50 % over its Experts, the random one 0 %.
    assert f"oracle (privileged, scripted) {STAR}" in rows
    assert f"random (scripted) {STAR}" not in rows and "random (scripted)" in rows
    assert f"oracle (scripted) {STAR}" in table.columns
    assert f"random (scripted) {STAR}" not in table.columns
    best = [(r[0], c) for r in table.rows if r[0] != "Average"
            for c, cell in zip(table.columns[1:-1], r[1:-1], strict=True)
            if getattr(cell, "mark", "") == BEST]  # fmt: skip
    assert best == [(f"oracle (privileged, scripted) {STAR}", f"oracle (scripted) {STAR}")]
    assert STAR in table.note and BEST in table.note


def test_a_marked_tables_csv_has_its_change_columns_with_no_change() -> None:
    # The committed run's sync self-play equals its async self-play: no arrow anywhere.
    table = _table("paper_table5_sync")
    assert not any(getattr(c, "mark", "") for row in table.rows for c in row)
    header = csv_header(table)
    assert "wires_change" in header and "avg_change" in header
    assert not any(h.endswith("_change") for h in csv_header(_table("paper_table4_async")))
