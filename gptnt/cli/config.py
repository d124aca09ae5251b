"""``gptnt config show``: the layered configuration in force and where each value came from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from gptnt.config import Layered
    from gptnt.services.manager import Budget

ConfigFile = Annotated[
    Path | None,
    typer.Option(
        "--config", help="A YAML file of settings by section (game:, players:, timing:, bus:, "
        "records:); GPTNT_* variables and flags override it.",
    ),
]  # fmt: skip


def given_flags(ctx: typer.Context, keys: dict[str, str]) -> dict[str, object]:
    """The flag layer of a command: its options given on the command line (parameter name →
    dotted key), so an option left at its default does not hide a file or env value."""
    # By name: typer may carry its own copy of click, with its own ParameterSource enum.
    given = {name for name in keys if getattr(ctx.get_parameter_source(name), "name", "") not in
             ("", "DEFAULT")}  # fmt: skip
    return {key: ctx.params[name] for name, key in keys.items() if name in given}


def flag_names(ctx: typer.Context, keys: dict[str, str]) -> dict[str, str]:
    """Dotted key → the option as typed (``game.backend`` → ``--game``), for error messages."""
    options = {p.name: p.opts[0] for p in ctx.command.params if p.opts}
    return {key: options.get(name, f"--{name}") for name, key in keys.items()}


def command_config(ctx: typer.Context, keys: dict[str, str], path: Path | None) -> Layered:
    """The layered configuration a command runs with: defaults < the ``--config`` file at
    ``path`` < ``GPTNT_*`` variables < the command's options in ``keys`` (parameter name →
    dotted key) that were given; errors name an option as it is typed."""
    from gptnt.config import load_config

    return load_config(path, flags=given_flags(ctx, keys), flag_names=flag_names(ctx, keys))


def parse_sets(pairs: list[str]) -> dict[str, object]:
    """``--set key=value`` pairs as flag-layer settings (``game.width=800``)."""
    from gptnt.errors import ConfigError

    out: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set {pair!r}: write section.setting=value, e.g. game.width=800")
        out[key.strip()] = value
    return out


def show(
    config: ConfigFile = None,
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help="Override one setting, e.g. --set game.width=800 (repeatable)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print {key: {value, source}} as JSON.")
    ] = False,
    mission: Annotated[
        str | None,
        typer.Option(
            help="Also print the time budget of an episode of this mission: every "
            "deadline, derived from the players in force (players.defuser/expert) "
            "and the settings."
        ),
    ] = None,
    mode: Annotated[
        str | None, typer.Option(help="With --mission: sync or async; default both.")
    ] = None,
) -> None:
    """Print every setting in force, its value and the layer that set it
    (default < file < env < flag); with --mission, the episode's time budget too."""
    from rich.table import Table

    from gptnt.cli._console import make_console
    from gptnt.config import load_config
    from gptnt.errors import ConfigError

    if mode is not None and mission is None:  # it would be ignored
        raise ConfigError(f"--mode {mode!r}: only with --mission; give a mission or leave it out")
    layered = load_config(config, flags=parse_sets(set_ or []))
    rows = layered.rows()
    budgets = _budgets(layered, mission, mode) if mission is not None else []
    if as_json:
        document: dict[str, object] = {k: {"value": v, "source": s} for k, v, s in rows}
        for budget in budgets:
            document[f"budget.{budget.mode}"] = budget.model_dump()
        typer.echo(json.dumps(document, indent=2, default=str))
        return
    table = Table(title="gptnt configuration")
    for column in ("setting", "value", "source"):
        table.add_column(column)
    for key, value, source in rows:
        table.add_row(key, "unset" if value is None else str(value), source)
    console = make_console()
    console.print(table)
    for budget in budgets:
        times = Table(title=f"time budget: mission {mission}, {budget.mode} (wall seconds)")
        for column in ("deadline", "value", "derived from"):
            times.add_column(column)
        for what, value, how in budget.rows():
            times.add_row(what, f"{value:g}", how)
        console.print(times)


def _budgets(layered: Layered, mission: str, mode: str | None) -> list[Budget]:
    """The time budget of an episode of ``mission`` with the players in force, per mode."""
    from gptnt.errors import ConfigError
    from gptnt.missions import get_mission
    from gptnt.players.seats import resolve_lineup
    from gptnt.protocol import MODES
    from gptnt.services.manager import Budget, EpisodeSettings

    if mode is not None and mode not in MODES:
        raise ConfigError(f"--mode {mode!r}: use sync or async")
    cfg = layered.config
    found = get_mission(mission)
    lineup = resolve_lineup(cfg.players.defuser, cfg.players.expert, read_manual=False)
    settings = EpisodeSettings.from_config(cfg)
    return [
        Budget.of([c for c in lineup if c is not None], m, found.config, settings,
                  settings.game, settings.launch)
        for m in ((mode,) if mode else MODES)
    ]  # fmt: skip


def register(app: typer.Typer) -> None:
    group = typer.Typer(help="The layered configuration (defaults < YAML < GPTNT_* < flags).",
                        no_args_is_help=True)  # fmt: skip
    group.command("show")(show)
    app.add_typer(group, name="config")
