"""``gptnt doctor``: one line per check of the GPU box and the providers (``gptnt.doctor``)."""

from __future__ import annotations

from typing import Annotated

import typer

from gptnt.cli.config import ConfigFile
from gptnt.cli.run import Game, RedisUrl

DOCTOR_SETTINGS = {
    "game": "game.backend",
    "redis_url": "bus.redis_url",
    "defuser": "players.defuser",
    "expert": "players.expert",
}


def doctor(
    ctx: typer.Context,
    game: Game = None,
    redis_url: RedisUrl = None,
    defuser: Annotated[
        str | None, typer.Option(help="The Defuser to check, as for `gptnt run --defuser`.")
    ] = None,
    expert: Annotated[
        str | None, typer.Option(help="The Expert to check, as for `gptnt run --expert`.")
    ] = None,
    config: ConfigFile = None,
) -> None:
    """Check this machine before a long run: X display, GPU (nvidia-smi), the game's /health
    and its mod, Redis, and each configured model player's provider (key and model list).

    One line per check (ok, FAIL or skip); exit 1 if any check fails, 2 for bad input."""
    import asyncio

    from gptnt.cli import ExitCode
    from gptnt.cli.config import command_config
    from gptnt.doctor import run_checks
    from gptnt.players.seats import resolve_lineup

    cfg = command_config(ctx, DOCTOR_SETTINGS, config).config
    lineup = resolve_lineup(cfg.players.defuser, cfg.players.expert, read_manual=False)
    players = [(c.role, c.config) for c in lineup if c is not None]
    checks = asyncio.run(run_checks(cfg.game.backend, cfg.bus.redis_url, players))
    for check in checks:
        typer.echo(check.line())
    if any(c.status == "FAIL" for c in checks):
        raise typer.Exit(ExitCode.FAILED)


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor)
