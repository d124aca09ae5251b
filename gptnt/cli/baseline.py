"""``gptnt baseline random``: the paper's random-Defuser baseline, per module type, on every core.

The Defuser is the scripted ``random`` player of ``gptnt run``/``suite run`` (the same class,
seeded by mission, seed and repeat), played in-process against the simulator in sync mode with
an idle Expert (``gptnt.services.manager.play_baseline``): no Redis and no services, so 11 module types
× 1,000 episodes take minutes. ``--fresh-bombs N`` plays N other bombs per module type (the
missions' settings with fresh seeds) instead of the missions' ten, for the distribution over
bombs that a comparison with the real game's ten needs. Next to each rate's binomial interval
the table gives the interval of a 10-bomb measurement (``gptnt.analysis.cluster_interval``):
the bomb decides much, so ten bombs' episodes are not independent. Every episode is recorded like a served one (``events.jsonl``,
``summary.json``, the run's ledger), so ``gptnt report`` reads a baseline run too.

Exit codes: 0 done; 2 bad input (one line naming the option).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from gptnt.bounded import MAX_GAMES, MAX_REPEATS, MAX_RULE_SEED
from gptnt.cli.config import ConfigFile
from gptnt.cli.run import Out, Pools

if TYPE_CHECKING:
    from rich.table import Table

    from gptnt.api import BaselineRun

_Repeats = Annotated[
    int, typer.Option(min=1, max=MAX_REPEATS, help="Episodes per single-module mission.")
]
_Workers = Annotated[
    int, typer.Option(min=0, max=MAX_GAMES, help="Worker processes; 0 = one per core.")
]
_RuleSeed = Annotated[
    int | None,
    typer.Option(min=1, max=MAX_RULE_SEED,
                 help="Rule seed of the games (1 = the v1 manual) (setting game.rule_seed)."),
]  # fmt: skip


def baseline_random(
    ctx: typer.Context,
    repeats: _Repeats = 3,
    module: Annotated[str | None, typer.Option(help="Only this module type (e.g. Wires).")] = None,
    workers: _Workers = 0,
    out: Out = None,
    per_mission: Annotated[
        bool, typer.Option(help="Also print each mission's rate (the bombs differ a lot).")
    ] = False,
    rule_seed: _RuleSeed = None,
    fresh_bombs: Annotated[
        int,
        typer.Option(
            min=0,
            max=10_000,  # bounded: bombs x module types x repeats episodes are planned up front
            help="Play this many fresh bombs per module type (seeds from 100000, the missions' "
            "settings) instead of the missions' ten; 0 = the missions; at most 10000.",
        ),
    ] = 0,
    pools: Pools = None,
    config: ConfigFile = None,
) -> None:
    """Success rate of the random Defuser per module type (single-module missions, sync).

    Of the layered configuration (defaults < --config YAML < GPTNT_* < flags) it reads
    records.out and game.rule_seed; it plays in-process, without services, Redis or a game backend."""
    from gptnt.api import BaselineStart, run_baseline
    from gptnt.cli._console import make_console
    from gptnt.cli.config import command_config

    console = make_console()
    progress: list[_Progress] = []

    def on_start(start: BaselineStart) -> None:
        console.print(
            f"Random Defuser: {start.episodes} episodes ({len(start.missions)} missions × "
            f"{repeats}) on {start.workers} worker(s); records in {start.run_dir}"
        )
        progress.append(_Progress(start.episodes))

    run = run_baseline(
        repeats, module=module, workers=workers, fresh_bombs=fresh_bombs, pools=pools,
        config=command_config(ctx, {"out": "records.out", "rule_seed": "game.rule_seed"}, config),
        on_start=on_start, on_done=lambda s: progress[0].tick(s),
    )  # fmt: skip
    console.print(_table(run, repeats))
    if per_mission:
        console.print(_mission_table(run.outcomes("mission")))
    n, elapsed = len(run.summaries), run.elapsed_s
    console.print(
        f"{n} episodes in {elapsed:.1f} s on {run.workers} worker(s) "
        f"({n / max(elapsed, 1e-9):.0f} episodes/s)"
    )


def _table(run: BaselineRun, repeats: int) -> Table:
    from rich.table import Table

    from gptnt.analysis import cluster_interval
    from gptnt.cli.report import wilson

    table = Table(title=f"Random Defuser baseline (sync, {repeats} per bomb; 95 % intervals: "
                        "binomial Wilson, and of a 10-bomb × repeats measurement)")  # fmt: skip
    for column in ("module", "bombs", "n", "solved", "rate", "binomial 95 %",
                   "10-bomb cluster 95 %", "bombs (min–max)", "timeout", "strikeout"):  # fmt: skip
        table.add_column(column)
    by_mission, kinds = run.outcomes("mission"), run.kinds
    for kind, outcomes in run.outcomes("kind").items():
        n, solved = len(outcomes), outcomes.count("solved")
        low, high = wilson(solved, n)
        rates = [o.count("solved") / len(o) for m, o in by_mission.items() if kinds[m] == kind]
        c_low, c_high = cluster_interval(rates, repeats)
        table.add_row(kind, str(len(rates)), str(n), str(solved), f"{solved / n:.1%}",
                      f"{low:.1%}–{high:.1%}", f"{c_low:.1%}–{c_high:.1%}",
                      f"{min(rates):.0%}–{max(rates):.0%}", str(outcomes.count("timeout")),
                      str(outcomes.count("strikeout")))  # fmt: skip
    return table


def _mission_table(by_mission: dict[str, list[str]]) -> Table:
    from rich.table import Table

    table = Table(title="Per mission")
    for column in ("mission", "n", "solved", "rate"):
        table.add_column(column)
    for mission, outcomes in by_mission.items():
        solved = outcomes.count("solved")
        table.add_row(mission, str(len(outcomes)), str(solved), f"{solved / len(outcomes):.0%}")
    return table


class _Progress:
    """A live bar on a terminal; when piped, one plain line per tenth of the work."""

    def __init__(self, total: int) -> None:
        self.total, self.done = total, 0
        self._tty = sys.stdout.isatty()
        self._next = max(1, total // 10)

    def tick(self, _summary: object) -> None:
        self.done += 1
        if self._tty:
            print(f"\r  {self.done}/{self.total} episodes", end="", flush=True)
            if self.done == self.total:
                print()
        elif self.done >= self._next or self.done == self.total:
            print(f"  {self.done}/{self.total} episodes", flush=True)
            self._next += max(1, self.total // 10)


def register(app: typer.Typer) -> None:
    baseline = typer.Typer(help="Baselines that need no model.", no_args_is_help=True)
    baseline.command("random")(baseline_random)
    app.add_typer(baseline, name="baseline")
