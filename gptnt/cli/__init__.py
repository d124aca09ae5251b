"""The ``gptnt`` command: a thin typer layer over the library.

Each file in this package registers its commands on ``app`` through ``register(app)``; heavy
imports happen inside the commands so that ``gptnt --help`` stays instant. Every ``GptntError``
becomes one line on stderr. Exit codes (``ExitCode``, also in the README):

====  =====================================================================================
0     success: every episode asked for ended with an outcome of the game
1     gptnt or its infrastructure failed (game, Redis, model provider unreachable, the disk
      full outside an episode: ``error: disk: …``)
2     bad input: a flag, file or config; the line names the field and the fix
3     an episode crashed (``gptnt run``; a full disk mid-episode is ``crashed: disk: …``), or a
      suite ended with crashed or parked episodes
4     ``gptnt sim selfcheck`` found misses
130   interrupted (SIGINT or SIGTERM): episodes in flight are recorded as ``interrupted``;
      a second signal to ``suite run`` stops at once (128 + the signal: 130, or 143 for
      SIGTERM) and a rerun plays what was in flight
====  =====================================================================================
"""

from __future__ import annotations

import importlib
import sys
from enum import IntEnum

import typer


class ExitCode(IntEnum):
    """The documented exit codes of every ``gptnt`` command."""

    OK = 0
    FAILED = 1
    BAD_INPUT = 2
    CRASHED = 3
    MISSES = 4
    INTERRUPTED = 130


app = typer.Typer(
    name="gptnt",
    help="GPTNT: two multimodal LLM agents defuse a Keep Talking and Nobody Explodes bomb.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

# One entry per command file of this package; each defines register(app).
_COMMAND_MODULES = [
    "missions",
    "manual",
    "ruleseed",
    "sim",
    "run",
    "replay",
    "suite",
    "report",
    "baseline",
    "vllm",
    "diag",
    "sanzaru",
    "config",
    "doctor",
    "submission",
]

for _name in _COMMAND_MODULES:
    importlib.import_module(f"gptnt.cli.{_name}").register(app)


def main() -> None:
    """Console-script entry point: run the app and exit with its ``ExitCode``; our errors are
    one line on stderr."""
    from gptnt.errors import ConfigError, GptntError

    try:
        code = app(standalone_mode=False)
    except ConfigError as err:
        typer.echo(f"error: {err}", err=True)
        sys.exit(ExitCode.BAD_INPUT)
    except GptntError as err:
        typer.echo(f"error: {err}", err=True)
        sys.exit(ExitCode.FAILED)
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("interrupted", err=True)
        sys.exit(ExitCode.INTERRUPTED)
    except SystemExit:
        raise
    except OSError as err:
        from gptnt.records import disk_problem

        problem = disk_problem(err)
        if problem is None:
            raise
        typer.echo(f"error: {problem}", err=True)  # records cut short; the rerun resumes
        sys.exit(ExitCode.FAILED)
    except Exception as err:
        # Usage errors from (typer's vendored) click, e.g. a flag out of its range: one line
        # naming the flag and where the help is, like every other bad input.
        if hasattr(err, "format_message") and hasattr(err, "exit_code"):
            ctx = getattr(err, "ctx", None)
            where = f"; see `{ctx.command_path} --help`" if ctx is not None else ""
            message = err.format_message().rstrip(".") or _missing_command(ctx)
            typer.echo(f"error: {message}{where}", err=True)
            sys.exit(ExitCode.BAD_INPUT)
        raise
    # Without standalone mode click returns a command's ``typer.Exit`` code instead of exiting.
    sys.exit(code if isinstance(code, int) else ExitCode.OK)


def _missing_command(ctx: object) -> str:
    """The line for a command group given no command (click's usage error for it is empty)."""
    group = getattr(ctx, "command", None)
    names = sorted(getattr(group, "commands", {}))
    path = getattr(ctx, "command_path", "gptnt")
    return f"`{path}` needs a command: one of {', '.join(names)}" if names else "give a command"
