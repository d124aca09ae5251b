"""The one interface every rule file (``gptnt.rules.modules.<stem>``) implements.

A rule file is a Python module; ``RuleFile`` is its shape, checked structurally. The oracle finds
a kind's file by the registry's ``stem`` and calls it only through these five functions, so every
file takes the same arguments: ``history`` is the list of what was pressed at earlier stages,
which only Memory needs (its later stages depend on them) and every other kind ignores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from gptnt.rules._edgework import Edgework
from gptnt.rules._steps import Press, Step

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset


@runtime_checkable
class RuleFile(Protocol):
    """What the oracle asks a kind's rule file. ``module`` is the kind's ``/state`` model and
    ``rules`` the kind's tables, as ``tables`` picks them from a ``Ruleset``."""

    def tables(self, ruleset: Ruleset) -> Any:
        """This kind's tables in ``ruleset``."""
        ...

    def elements(self, module: Any) -> list[str]:
        """The interactable element ids when zoomed in, in segmentation-mask order."""
        ...

    def solve(
        self,
        module: Any,
        edgework: Edgework,
        rules: Any,
        *,
        strikes: int,
        history: Sequence[Any] = (),
    ) -> list[Step]:
        """The steps that finish the current stage (the whole module if it has none)."""
        ...

    def mistakes(
        self,
        module: Any,
        edgework: Edgework,
        rules: Any,
        *,
        strikes: int,
        history: Sequence[Any] = (),
    ) -> list[Step]:
        """Steps that, by the rules, each cost exactly one strike right now."""
        ...

    def pressed(self, module: Any, step: Press) -> object | None:
        """The history entry ``step`` makes, or ``None`` for kinds that keep no history."""
        ...


def no_history(module: object, step: Press) -> None:
    """``pressed`` of every kind whose stages do not depend on earlier presses."""
    return
