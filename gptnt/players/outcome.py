"""One response, start to finish: parse it, then resolve its location against the marks the
model saw. The result says what the model chose, what is actually carried out, the ``/action``
request if any, and every issue for the next turn's feedback.
"""

from __future__ import annotations

from dataclasses import dataclass

from gptnt.players.actions import Action, DoNothing, InteractGame, Interaction, to_game_action
from gptnt.players.feedback import Issue, feedback_text
from gptnt.players.parsing import FinishReason, parse_output
from gptnt.players.prompts import Seat, allowed_kinds
from gptnt.protocol import GameAction
from gptnt.vision import SetOfMarks


@dataclass(frozen=True)
class Interpretation:
    """What one response amounts to."""

    chosen: Action
    """The action the model asked for (``DoNothing`` if none could be read)."""
    action: Action
    """The action carried out: ``chosen``, or ``DoNothing`` when an issue skipped the turn."""
    game_action: GameAction | None
    """The ``/action`` request for an interaction that can be carried out."""
    thoughts: str | None
    issues: tuple[Issue, ...]

    @property
    def skipped(self) -> bool:
        return any(issue.skips for issue in self.issues)

    @property
    def feedback(self) -> str | None:
        """The ``<execution-feedback>`` block for this player's next turn, if any."""
        return feedback_text(self.issues)


def interpret(
    text: str | None,
    *,
    seat: Seat,
    interaction: Interaction | None = None,
    marks: SetOfMarks | None = None,
    finish_reason: FinishReason = None,
) -> Interpretation:
    """Parse ``text`` and resolve it for ``seat``. Never raises for bad model output."""
    interaction = interaction or Interaction()
    parsed = parse_output(
        text, allowed=allowed_kinds(seat), method=interaction.method, finish_reason=finish_reason
    )
    issues = list(parsed.issues)
    action: Action = parsed.action
    game_action = None
    if isinstance(action, InteractGame) and not parsed.skipped:
        resolved = to_game_action(action, interaction, marks)
        if isinstance(resolved, Issue):
            issues.append(resolved)
            action = DoNothing()
        else:
            game_action = resolved
    return Interpretation(parsed.action, action, game_action, parsed.thoughts, tuple(issues))
