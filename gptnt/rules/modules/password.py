"""Password: five letter columns; exactly one word of the manual's list can be spelled.

The manual's data is the word list. The described state carries the displayed word and the goal
word (not the columns' hidden letters), so the solver turns every wrong column one notch at a
time and is called again until the display reads the goal, then submits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gptnt.protocol import PasswordModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._file import no_history
from gptnt.rules._steps import Press, Step

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset

COLUMNS = 5


@dataclass(frozen=True)
class PasswordRules:
    """``words``: the manual's list of possible passwords (upper case, five letters)."""

    words: tuple[str, ...]


V1 = PasswordRules(
    words=(
        "ABOUT", "AFTER", "AGAIN", "BELOW", "COULD", "EVERY", "FIRST", "FOUND", "GREAT", "HOUSE",
        "LARGE", "LEARN", "NEVER", "OTHER", "PLACE", "PLANT", "POINT", "RIGHT", "SMALL", "SOUND",
        "SPELL", "STILL", "STUDY", "THEIR", "THERE", "THESE", "THING", "THINK", "THREE", "WATER",
        "WHERE", "WHICH", "WORLD", "WOULD", "WRITE",
    ),
)  # fmt: skip


def candidates(columns: list[str] | tuple[str, ...], rules: PasswordRules) -> list[str]:
    """The manual's words spellable from the columns' letters (one string per column)."""
    return [w for w in rules.words if all(c in col for c, col in zip(w, columns, strict=True))]


def elements(module: PasswordModule) -> list[str]:
    return [f"up-{i}" for i in range(COLUMNS)] + [f"down-{i}" for i in range(COLUMNS)] + ["submit"]


def solve(
    module: PasswordModule,
    edgework: Edgework,
    rules: PasswordRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """One notch down on every column not yet showing the goal's letter; submit when none is."""
    if module.is_solved:
        return []
    turns: list[Step] = [
        Press(f"down-{i}")
        for i, (shown, goal) in enumerate(zip(module.current_word, module.goal_word, strict=True))
        if shown != goal
    ]
    return turns or [Press("submit")]


def mistakes(
    module: PasswordModule,
    edgework: Edgework,
    rules: PasswordRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """Submitting any word but the goal is a strike; the arrows never strike."""
    if module.is_solved or module.current_word == module.goal_word:
        return []
    return [Press("submit")]


def tables(ruleset: Ruleset) -> PasswordRules:
    return ruleset.password_rules


pressed = no_history
