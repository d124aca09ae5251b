"""The one way a command makes its rich console.

On a terminal rich follows the terminal's width. Piped into a file or a log, rich would assume
80 columns and wrap every wide table cell into several lines; there the console is as wide as
``COLUMNS`` says, or ``PIPED_WIDTH`` (tables still take only the width they need).
"""

from __future__ import annotations

import os
import sys

from rich.console import Console

PIPED_WIDTH = 160


def make_console(*, stderr: bool = False) -> Console:
    stream = sys.stderr if stderr else sys.stdout
    piped = not stream.isatty() and "COLUMNS" not in os.environ
    return Console(stderr=stderr, width=PIPED_WIDTH if piped else None)
