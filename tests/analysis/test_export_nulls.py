"""The tidy exports hold data, not display marks (review of issue 29): an episode no model read a
manual in has a null ``manual_read`` (Parquet null, empty CSV field), never the tables' ``–``."""

from __future__ import annotations

import csv
from pathlib import Path

import pyarrow.parquet as pq

from gptnt.analysis import load_run
from gptnt.analysis._export import export

RUN = Path(__file__).resolve().parents[1] / "data" / "paper-run"


def test_manual_read_is_null_where_no_model_read_a_manual(tmp_path: Path) -> None:
    runs = [load_run(RUN)]
    export(runs, tmp_path / "csv", "csv")
    export(runs, tmp_path / "pq", "parquet")
    with (tmp_path / "csv" / "episodes.csv").open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    # Scripted players only: no model read a manual; the solo-no-manual ones played without.
    with_manual = [r for r in rows if r["no_manual"] == "False"]
    assert with_manual and {r["manual_read"] for r in with_manual} == {""}
    assert {r["manual_read"] for r in rows if r["no_manual"] == "True"} == {"none"}
    column = pq.read_table(tmp_path / "pq" / "episodes.parquet").column("manual_read")
    assert column.null_count == len(with_manual)
    assert not any("–" in value for r in rows for value in r.values())
