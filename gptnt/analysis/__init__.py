"""Results from records: the paper's tables with their intervals, plots, the HTML report, the
episode viewer and tidy exports.

Reads only the records (``gptnt.records``): nothing here talks to a game, a model or Redis, so
a report can be rebuilt anywhere from a copied run directory.
"""

from __future__ import annotations

from gptnt.analysis._export import FORMATS, export
from gptnt.analysis._load import RecordedEpisode, Run, load_run, load_runs
from gptnt.analysis._paper import all_tables, paper_tables
from gptnt.analysis._plots import rate_bars
from gptnt.analysis._report import (
    REPORT_HTML,
    REPORT_MD,
    Written,
    episode_page,
    write_report,
    write_tables,
)
from gptnt.analysis._stats import Mean, Rate, cluster_interval, mean, wilson
from gptnt.analysis._table import Cell, Table, text
from gptnt.analysis._tables import ANALYSES, wall_time

__all__ = [
    "ANALYSES",
    "FORMATS",
    "REPORT_HTML",
    "REPORT_MD",
    "Cell",
    "Mean",
    "Rate",
    "RecordedEpisode",
    "Run",
    "Table",
    "Written",
    "all_tables",
    "cluster_interval",
    "episode_page",
    "export",
    "load_run",
    "load_runs",
    "mean",
    "paper_tables",
    "rate_bars",
    "text",
    "wall_time",
    "wilson",
    "write_report",
    "write_tables",
]
