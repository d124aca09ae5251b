"""``gptnt vllm CONFIG``: start vLLM's OpenAI-compatible server for an open-model player config."""

from __future__ import annotations

from typing import Annotated

import typer

from gptnt.bounded import MAX_PORT


def vllm(
    player: Annotated[
        str,
        typer.Argument(
            help="A vllm: player config name (qwen3-5-27b, "
            "internvl3-5-38b) or the path of a YAML config."
        ),
    ],
    port: Annotated[
        int | None,
        typer.Option(min=1, max=MAX_PORT, help="Port; default: the config's base_url port."),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the command, run nothing.")
    ] = False,
) -> None:
    """Serve an open model with vLLM (BF16, 2 GPUs, image limit and context length per the
    paper). vLLM is an optional extra: `pip install 'gptnt\\[vllm]'`."""
    import os
    import shlex
    import shutil

    from gptnt.errors import ConfigError
    from gptnt.players.config import load_player_config
    from gptnt.players.serving import vllm_command

    command = vllm_command(load_player_config(player), port=port)
    typer.echo(shlex.join(command))
    if dry_run:
        return
    if shutil.which(command[0]) is None:
        raise ConfigError(
            "vllm: the `vllm` command is not installed; `pip install 'gptnt[vllm]'` on a GPU host"
        )
    os.execvp(command[0], command)


def register(app: typer.Typer) -> None:
    app.command("vllm")(vllm)
