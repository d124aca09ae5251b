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


def condition(s: Summary, seeds: set[int]) -> str:
    """The column an episode belongs to: its mode, with its rule seed when a run has several."""
    return s.mode if seeds == {1} or len(seeds) == 1 else f"{s.mode} · rule seed {s.rule_seed}"


def outcome_table(run_dir: Path) -> Table:
    """One row per mission, one column per mode (and rule seed, when a run mixes them):
    outcome icon and modules solved (● / ○)."""
    from rich.table import Table

    by_mission: dict[str, dict[str, list[Summary]]] = defaultdict(lambda: defaultdict(list))
    modes: list[str] = []
    found = summaries(run_dir)
    seeds = {s.rule_seed for s in found}
    for s in sorted(found, key=lambda s: (s.mode, s.rule_seed)):
        column = condition(s, seeds)
        by_mission[s.mission_id][column].append(s)
        if column not in modes:
            modes.append(column)
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
    found = summaries(run_dir)
    seeds = {s.rule_seed for s in found}
    for s in found:
        groups[(condition(s, seeds), "all")].append(s)
        if len(s.modules) == 1:
            groups[(condition(s, seeds), s.modules[0].name)].append(s)
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


def contrast_table(run_dir: Path) -> Table | None:
    """The contamination contrast: per mode, the success rate under the v1 rules (seed 1)
    minus that under each other rule seed, over the missions played under both (paired by
    mission and repeat), with a 95 % paired interval (normal, on the per-pair differences).
    None when the run has one rule seed."""
    from rich.table import Table

    found = [s for s in summaries(run_dir) if s.outcome != "crashed"]
    seeds = sorted({s.rule_seed for s in found})
    if len(seeds) < 2 or 1 not in seeds:
        return None
    cells: dict[tuple[str, int], dict[tuple[str, int], bool]] = defaultdict(dict)
    for s in found:
        # episode ids end in the attempt's repeat index (r0, r1, …) through the ledger key
        cells[(s.mode, s.rule_seed)][(s.mission_id, _repeat(s))] = s.outcome == "solved"
    table = Table(title="Contamination contrast: v1 rules (seed 1) minus unseen rules")
    for column in ("mode", "rule seed", "pairs", "rate seed 1", "rate", "drop", "95 % CI"):
        table.add_column(column)
    for mode in sorted({s.mode for s in found}):
        base = cells.get((mode, 1), {})
        for seed in seeds[1:]:
            other = cells.get((mode, seed), {})
            pairs = sorted(set(base) & set(other))
            if not pairs:
                continue
            d = [base[p] - other[p] for p in pairs]
            mean = sum(d) / len(d)
            var = sum((x - mean) ** 2 for x in d) / (len(d) - 1) if len(d) > 1 else 0.0
            half = Z95 * math.sqrt(var / len(d))
            table.add_row(
                mode, str(seed), str(len(pairs)),
                f"{sum(base[p] for p in pairs) / len(pairs):.0%}",
                f"{sum(other[p] for p in pairs) / len(pairs):.0%}",
                f"{mean:+.0%}", f"{mean - half:+.0%} – {mean + half:+.0%}",
            )  # fmt: skip
    return table


def _repeat(s: Summary) -> int:
    """The repeat index of an episode, from its directory name (``….r<N>…``)."""
    import re

    found = re.search(r"\.r(\d+)(?:\.|$|-)", s.episode_id)
    return int(found.group(1)) if found else 0


def report(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (has ledger.jsonl).")],
) -> None:
    """Print the per-mission outcome table and the success rates of a run."""
    from rich.console import Console

    console = Console()
    console.print(outcome_table(run_dir))
    console.print(rate_table(run_dir))
    contrast = contrast_table(run_dir)
    if contrast is not None:
        console.print(contrast)


def register(app: typer.Typer) -> None:
    app.command("report")(report)
