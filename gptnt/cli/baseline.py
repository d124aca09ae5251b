"""``gptnt baseline random``: the paper's random-Defuser baseline, per module type, fast.

No model is involved, so there is no Redis and no service: each episode drives the simulator's
in-process ``Game`` directly in sync mode (virtual time: one random action, then one 3 s
``/timestep``, until the bomb is solved or explodes). The random Defuser is the same as the
scripted ``random`` player: uniform over clicking or holding each interactable region of the
current segmentation mask, release, zoom out and the five rotations.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from gptnt.missions import Mission

_UNLOCATED = ("out", "release", "left", "right", "up", "down", "flip")


def random_episode(mission: Mission, seed: int, *, width: int = 320, height: int = 240) -> str:
    """Play one sync episode with the random Defuser; the outcome (solved/strikeout/timeout)."""
    from gptnt.protocol import Lifecycle
    from gptnt.sim.game import Game
    from gptnt.vision import find_regions

    rng = random.Random(f"baseline:{mission.id}:{seed}")
    # A frozen wall clock: game time moves only through /timestep (virtual, instant).
    game = Game(width=width, height=height, transition_seconds=0.0, clock=lambda: 0.0)
    game.health()
    game.start_mission(mission.config)
    while game.health() != Lifecycle.LIGHTS_ON.value:
        game.timestep()
    while True:
        state = game.state()
        if state.all_solved or state.is_detonated:
            break
        frame = game.buffer(last=1)
        regions = find_regions(frame.mask) if frame.mask is not None else []
        choices = [(name, None) for name in _UNLOCATED]
        choices += [(name, region) for region in regions for name in ("click", "hold")]
        name, region = rng.choice(choices)
        if region is None:
            game.action(name, None, None)
        else:
            x, y = region.click
            game.action(name, (x + 0.5) / width, (y + 0.5) / height)
        state = game.state()
        if state.all_solved or state.is_detonated:
            break
        game.timestep()
    if state.all_solved:
        return "solved"
    return "timeout" if state.timer_module.seconds_remaining <= 0 else "strikeout"


def baseline_random(
    repeats: Annotated[int, typer.Option(min=1, help="Episodes per single-module mission.")] = 3,
    module: Annotated[str | None, typer.Option(help="Only this module type (e.g. Wires).")] = None,
) -> None:
    """Success rate of the random Defuser per module type (single-module missions, sync)."""
    from rich.console import Console
    from rich.progress import track
    from rich.table import Table

    from gptnt.cli.report import wilson
    from gptnt.errors import ConfigError
    from gptnt.missions import load_missions

    missions = [m for m in load_missions().values() if m.kind == "single"]
    if module:
        missions = [m for m in missions if m.config.components[0] == module]
        if not missions:
            raise ConfigError(f"--module {module!r}: no single-module missions of that type")
    results: dict[str, list[str]] = defaultdict(list)
    jobs = [(m, r) for m in missions for r in range(repeats)]
    for mission, r in track(jobs, description="random Defuser"):
        results[mission.config.components[0]].append(random_episode(mission, r))
    table = Table(title=f"Random Defuser baseline (sync, {repeats} per mission; 95 % Wilson CI)")
    for column in ("module", "n", "solved", "rate", "95 % CI", "timeout", "strikeout"):
        table.add_column(column)
    for kind, outcomes in results.items():
        n, solved = len(outcomes), outcomes.count("solved")
        low, high = wilson(solved, n)
        table.add_row(kind, str(n), str(solved), f"{solved / n:.0%}", f"{low:.0%}–{high:.0%}",
                      str(outcomes.count("timeout")), str(outcomes.count("strikeout")))  # fmt: skip
    Console().print(table)


def register(app: typer.Typer) -> None:
    baseline = typer.Typer(help="Baselines that need no model.", no_args_is_help=True)
    baseline.command("random")(baseline_random)
    app.add_typer(baseline, name="baseline")
