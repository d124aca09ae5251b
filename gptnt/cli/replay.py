"""``gptnt replay``: a recorded episode restored to one of its turns and played on as a new
episode linked to its parent (``gptnt.services.manager.replay_episode``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gptnt.bounded import MAX_COUNT
from gptnt.cli.config import ConfigFile
from gptnt.cli.run import Game, LaunchOption, RedisUrl

if TYPE_CHECKING:
    from gptnt.records import TurnEvent
    from gptnt.services.manager import EpisodeSpec

REPLAY_SETTINGS = {"game": "game.backend", "launch": "bus.launch", "redis_url": "bus.redis_url"}


ParentEpisode = Annotated[
    Path,
    typer.Argument(
        help="The parent's episode directory (RUN/episodes/KEY-aN), sync or --clock virtual."
    ),
]
FromTurn = Annotated[
    int,
    typer.Option(
        "--from-turn",
        min=0,
        max=MAX_COUNT,
        help="The first turn played anew, counted from 0 over both players' turns in "
        "record order (the viewer's #t= index); the turns before it are restored.",
    ),
]
NewDefuser = Annotated[
    str | None,
    typer.Option(
        help="Who plays the Defuser from the fork on (as for `gptnt run`); default the parent's."
    ),
]
NewExpert = Annotated[
    str | None, typer.Option(help="Who plays the Expert from the fork on; default the parent's.")
]
Message = Annotated[
    str | None,
    typer.Option(help="Replace the output of turn --from-turn by sending this message."),
]
BranchOut = Annotated[
    Path | None,
    typer.Option(help="Run directory that receives the branch; default the parent's run."),
]


def replay(
    ctx: typer.Context,
    episode: ParentEpisode,
    from_turn: FromTurn,
    defuser: NewDefuser = None,
    expert: NewExpert = None,
    message: Message = None,
    out: BranchOut = None,
    game: Game = None,
    redis_url: RedisUrl = None,
    launch: LaunchOption = None,
    quiet: Annotated[bool, typer.Option(help="No line per turn.")] = False,
    config: ConfigFile = None,
) -> None:
    """Restore EPISODE to its turn --from-turn (the game rebuilt from its seed and recorded
    actions, each player's turns and conversation from the records), optionally replace that
    turn's output with --message, and play on as a new episode linked to its parent. Exit codes
    as `gptnt run`; 2 for a bad episode, turn or message."""
    from gptnt.api import replay_episode
    from gptnt.cli._console import make_console
    from gptnt.cli.config import command_config
    from gptnt.cli.run import exit_on, result_table, turn_line

    console = make_console()

    def on_turn(spec: EpisodeSpec, event: TurnEvent) -> None:
        if not quiet:
            mark = "[dim]restored[/dim] " if event.restored else ""
            line = turn_line(spec, event)
            console.print(mark + line, highlight=False, no_wrap=True, overflow="ellipsis")

    def on_start(run_dir: Path) -> None:
        console.print(f"replaying {episode.name} from turn {from_turn}; records in {run_dir}")

    summary = replay_episode(
        episode, from_turn, defuser=defuser, expert=expert, message=message, out=out,
        config=command_config(ctx, REPLAY_SETTINGS, config), on_start=on_start, on_turn=on_turn,
    )  # fmt: skip
    console.print(result_table([summary]))
    exit_on(summary.outcome, summary.reason)


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
