"""The ``gptnt`` command: a thin typer layer over the library.

Each file in this package registers its commands on ``app`` through ``register(app)``; heavy
imports happen inside the commands so that ``gptnt --help`` stays instant. Every ``GptntError``
becomes one line on stderr and exit code 1.
"""

from __future__ import annotations

import importlib
import sys

import typer

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
    "suite",
    "report",
    "baseline",
    "vllm",
    "diag",
    "sanzaru",
    "config",
]

for _name in _COMMAND_MODULES:
    importlib.import_module(f"gptnt.cli.{_name}").register(app)


def main() -> None:
    """Console-script entry point: run the app, turn our errors into one line and exit 1."""
    from gptnt.errors import GptntError

    try:
        code = app(standalone_mode=False)  # a command's typer.Exit(code) comes back here
    except GptntError as err:
        typer.echo(f"error: {err}", err=True)
        sys.exit(1)
    except typer.Abort:
        typer.echo("aborted", err=True)
        sys.exit(130)
    except SystemExit:
        raise
    except Exception as err:
        # Usage errors from (typer's vendored) click: print its one-line usage error.
        if hasattr(err, "show") and hasattr(err, "exit_code"):
            err.show()
            sys.exit(err.exit_code)
        raise
    if isinstance(code, int) and code:
        sys.exit(code)
