"""``gptnt report RUN_DIR``: the outcome of every episode of a run and the success rates.

Reads only the records: the ledger says which attempt of each episode counts (the latest), its
``summary.json`` says how it ended. Success rates carry 95 % Wilson score intervals, which stay
inside [0, 1] and behave at 0 or n successes, unlike the normal approximation.
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from rich.table import Table

    from gptnt.records import Summary

ICONS = {"solved": "✅", "timeout": "⏰", "strikeout": "💥", "crashed": "⚠️"}
Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (0, 0 for n = 0)."""
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def summaries(run_dir: Path) -> list[Summary]:
    """The summary of the counted attempt of every episode in the run (latest per key)."""
    from gptnt.errors import ConfigError
    from gptnt.records import Ledger, read_summary

    ledger = Ledger(run_dir)
    if not ledger.path.exists():
        raise ConfigError(f"RUN_DIR {run_dir}: no ledger.jsonl here; pass a run directory")
    found = []
    for entry in ledger.latest().values():
        summary = read_summary(run_dir / entry.episode_dir)
        if summary is not None:
            found.append(summary)
    return found


def outcome_table(run_dir: Path) -> Table:
    """One row per mission, one column per mode: outcome icon and modules solved (● / ○)."""
    from rich.table import Table

    by_mission: dict[str, dict[str, list[Summary]]] = defaultdict(lambda: defaultdict(list))
    modes: list[str] = []
    for s in summaries(run_dir):
        by_mission[s.mission_id][s.mode].append(s)
        if s.mode not in modes:
            modes.append(s.mode)
    table = Table(title=f"Outcomes — {run_dir.name}")
    table.add_column("mission")
    for mode in modes:
        table.add_column(mode)

    def catalogue_order(mission: str) -> tuple[bool, int, str]:
        return (not mission.isdigit(), int(mission) if mission.isdigit() else 0, mission)

    for mission, cells in sorted(by_mission.items(), key=lambda kv: catalogue_order(kv[0])):
        row = [mission]
        for mode in modes:
            row.append("  ".join(
                f"{ICONS[s.outcome]} {''.join('●' if m.solved else '○' for m in s.modules)}"
                for s in cells.get(mode, [])
            ))  # fmt: skip
        table.add_row(*row)
    table.caption = "✅ solved ⏰ timeout 💥 strikeout ⚠️ crashed; ● solved ○ unsolved module"
    table.caption_justify = "left"
    return table


def rate_table(run_dir: Path) -> Table:
    """Success rate with a 95 % Wilson interval per mode, overall and per module type of the
    single-module missions; crashed episodes are counted apart (they are not outcomes)."""
    from rich.table import Table

    groups: dict[tuple[str, str], list[Summary]] = defaultdict(list)
    for s in summaries(run_dir):
        groups[(s.mode, "all")].append(s)
        if len(s.modules) == 1:
            groups[(s.mode, s.modules[0].name)].append(s)
    table = Table(title="Success rates (95 % Wilson interval)")
    for column in (
        "mode",
        "group",
        "n",
        "solved",
        "rate",
        "95 % CI",
        "timeout",
        "strikeout",
        "crashed",
    ):
        table.add_column(column)
    for (mode, group), items in sorted(
        groups.items(), key=lambda kv: (kv[0][0], kv[0][1] != "all", kv[0][1])
    ):
        valid = [s for s in items if s.outcome != "crashed"]
        solved = sum(s.outcome == "solved" for s in valid)
        low, high = wilson(solved, len(valid))
        rate = f"{solved / len(valid):.0%}" if valid else "–"
        table.add_row(
            mode, group, str(len(valid)), str(solved), rate, f"{low:.0%}–{high:.0%}",
            str(sum(s.outcome == "timeout" for s in valid)),
            str(sum(s.outcome == "strikeout" for s in valid)),
            str(len(items) - len(valid)),
        )  # fmt: skip
    return table


def report(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (has ledger.jsonl).")],
) -> None:
    """Print the per-mission outcome table and the success rates of a run."""
    from rich.console import Console

    console = Console()
    console.print(outcome_table(run_dir))
    console.print(rate_table(run_dir))


def register(app: typer.Typer) -> None:
    app.command("report")(report)
