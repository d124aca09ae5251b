"""``gptnt missions list|show``: browse the mission catalogue (``gptnt.missions``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from gptnt.missions import Mission


def _summary(mission: Mission) -> dict[str, object]:
    """The JSON form of one mission: its id, kind, title and wire config (camelCase)."""
    return {
        "id": mission.id,
        "kind": mission.kind,
        "title": mission.title,
        "level": mission.level,
        "modules": mission.module_titles,
        "config": mission.config.model_dump(by_alias=True, exclude_none=True),
    }


def _side(mission: Mission) -> str:
    return "front" if mission.config.is_front else "front+back"


def list_missions(
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON array.")] = False,
    kind: Annotated[
        str | None, typer.Option("--kind", help="Only multi- or single-module missions.")
    ] = None,
) -> None:
    """List the missions: the paper's 10 multi-module and 110 single-module missions."""
    from gptnt.errors import ConfigError
    from gptnt.missions import load_missions

    # Checked here rather than by typer so a bad value is our one-line error.
    if kind not in (None, "multi", "single"):
        raise ConfigError(f"--kind {kind!r}: use multi or single")
    missions = [m for m in load_missions().values() if kind is None or m.kind == kind]
    if as_json:
        typer.echo(json.dumps([_summary(m) for m in missions], indent=2, ensure_ascii=False))
        return
    from rich.table import Table

    from gptnt.cli._console import make_console

    table = Table(title=f"{len(missions)} missions")
    table.add_column("id", no_wrap=True)
    table.add_column("modules")
    for column in ("time (s)", "strikes", "widgets"):
        table.add_column(column, justify="right")
    table.add_column("placement", no_wrap=True)
    table.add_column("seed", justify="right")
    for m in missions:
        c = m.config
        table.add_row(
            m.id,
            ", ".join(m.module_titles),
            str(c.time_limit),
            str(c.num_strikes),
            str(c.opt_widgets),
            _side(m),
            str(c.seed),
        )
    make_console().print(table)


def show_mission(
    mission_id: Annotated[str, typer.Argument(metavar="ID", help="e.g. 3 or Wires-234")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show one mission: modules, time limit, strikes, widgets, placement and seed."""
    from gptnt.missions import get_mission

    mission = get_mission(mission_id)
    if as_json:
        typer.echo(json.dumps(_summary(mission), indent=2, ensure_ascii=False))
        return
    c = mission.config
    rows = [
        ("mission", f"{mission.id} ({mission.kind}-module)"),
        ("title", mission.title),
        ("modules", ", ".join(mission.module_titles)),
        ("components", ",".join(c.components)),
        ("time limit", f"{c.time_limit} s"),
        ("strikes", f"{c.num_strikes} (the {_ordinal(c.num_strikes)} detonates)"),
        ("optional widgets", str(c.opt_widgets)),
        ("placement", _placement(c.is_front)),
        ("seed", str(c.seed)),
        ("needy time", f"{c.needy_time} s"),
        ("time step", f"{c.time_step_size} ms"),
    ]
    if mission.level:
        rows.insert(2, ("KTANE level", mission.level))
    if mission.source:
        rows.append(("source", mission.source))
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        typer.echo(f"{label:<{width}}  {value}")


def _placement(is_front: bool) -> str:
    faces = "front face only" if is_front else "front and back faces"
    return f"{faces} (isFront={'true' if is_front else 'false'})"


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def register(app: typer.Typer) -> None:
    missions = typer.Typer(help="Browse the mission catalogue.", no_args_is_help=True)
    missions.command("list")(list_missions)
    missions.command("show")(show_mission)
    app.add_typer(missions, name="missions")
