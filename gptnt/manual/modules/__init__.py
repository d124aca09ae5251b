"""The manual's module sections, one file per module kind, found by kind through ``section_for``.

Each ``gptnt.manual.modules.<stem>`` file (the stem of the kind's registry row) provides
``section(rules)``, the kind's section written from its rule tables, and ``LOOK``, how the
Defuser recognises the module. Every sentence that states a rule is produced from the kind's
``<X>Rules`` value (the small condition vocabularies of Wires and The Button are phrased by
``match`` on their types), so a ruleset with other tables yields a manual with other rules. The
wording is ours.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol, cast

from gptnt.errors import ConfigError
from gptnt.manual._layout import Section
from gptnt.protocol import KINDS_BY_NAME

__all__ = ["SectionFile", "section_for"]


class SectionFile(Protocol):
    """What the manual asks of a kind's section file."""

    LOOK: str

    def section(self, rules: Any) -> Section:
        """The kind's section, from its tables (what its rule file's ``tables`` returns)."""
        ...


def section_for(kind: str) -> SectionFile:
    """The section file of a module kind (``Wires``, ``BigButton``, …)."""
    spec = KINDS_BY_NAME.get(kind)
    if spec is None:
        raise ConfigError(f"module kind {kind!r} is unknown; use one of {', '.join(KINDS_BY_NAME)}")
    return cast(SectionFile, importlib.import_module(f"gptnt.manual.modules.{spec.stem}"))
