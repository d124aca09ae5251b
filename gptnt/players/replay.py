"""A player restored to a recorded turn: the policy of a counterfactual replay's branch.

``gptnt replay EPISODE --from-turn K`` plays the parent episode's first K turns again, each
player's as its record says, and then plays on. ``Restoring`` wraps the seat's policy so that
each of its turns before the fork is the recorded one, while the policy sees that turn's input
as it did then (the game replays identically from the seed and the recorded actions), so it
ends up where the parent's player was:

- a model is not called: the recorded output is taken into its conversation as its own answer
  (``ModelPolicy.decide(given=…)``), a call the provider lost or refused as that again;
- a scripted policy decides again (it is a function of its seed and its inputs); the manager
  checks every restored turn against the record, so a policy that does not replay is caught.

At the fork, the turn's output may be replaced by a message (``replacement``); after it, the
policy plays on as itself. Restored turns carry their recorded latency (and on the virtual
clock their recorded start-to-dispatch game time), so the branch keeps the parent's timeline.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Literal

from gptnt.players.actions import OutputFormat, SendMessage
from gptnt.players.conversation import ToolCall
from gptnt.players.policy import Decision, Policy, TurnInput
from gptnt.players.tool_actions import history_text
from gptnt.records import TurnEvent

__all__ = ["Restoring", "replacement_output"]


REPLACED = "(replaced by the replay)"
"""The reasoning of a replaced turn."""


def replacement_output(message: str, output: OutputFormat = "react") -> str:
    """A model's raw output that sends ``message``, in the format the player's own replies are
    kept in (``PlayerConfig.output``): the text format's, or a tool player's call."""
    if output == "tool":
        return history_text([ToolCall("send_message", {"message": message})], REPLACED)
    action = {"result": {"kind": "send_message", "data": {"message": message}}}
    return f"<thoughts>{REPLACED}</thoughts><action>{json.dumps(action)}</action>"


def _uncalled(record: TurnEvent) -> Literal["no_tool_call", "output_truncated"] | None:
    """The issue that says a tool player's recorded reply made no call, if one does."""
    codes = {note.partition(":")[0] for note in record.errors}
    if "output_truncated" in codes:
        return "output_truncated"
    return "no_tool_call" if "no_tool_call" in codes else None


class Restoring:
    """``inner`` with its first ``len(recorded)`` turns restored and the next one replaced by
    ``replacement`` if given (module doc)."""

    def __init__(
        self, inner: Policy, recorded: Sequence[TurnEvent], replacement: str | None = None
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.privileged = inner.privileged
        self.interaction = inner.interaction
        self.sequence_frames = inner.sequence_frames
        self._recorded = list(recorded)
        self._replacement = replacement

    async def decide(self, turn: TurnInput) -> Decision:
        if turn.turn < len(self._recorded):
            record = self._recorded[turn.turn]
            decision = await self._restore(turn, record)
            game = (
                None
                if record.game_time is None or record.dispatch_game_time is None
                else record.dispatch_game_time - record.game_time
            )
            return dataclasses.replace(
                decision, latency_s=record.latency_s, game_latency_s=game, restored=True
            )
        if turn.turn == len(self._recorded) and self._replacement is not None:
            return await self._replace(turn, self._replacement)
        return await self.inner.decide(turn)

    async def _restore(self, turn: TurnInput, record: TurnEvent) -> Decision:
        from gptnt.players.model import REPHRASE_REQUEST, Given, ModelPolicy

        if not isinstance(self.inner, ModelPolicy):
            return await self.inner.decide(turn)
        if record.failed_call is not None:
            given = Given("", "lost")
        elif not record.raw_output and record.action.message == REPHRASE_REQUEST:
            given = Given("", "refused")
        else:
            given = Given(record.raw_output, uncalled=_uncalled(record))
        return await self.inner.decide(turn, given=given)

    async def _replace(self, turn: TurnInput, message: str) -> Decision:
        from gptnt.players.model import Given, ModelPolicy

        if isinstance(self.inner, ModelPolicy):
            output = replacement_output(message, self.inner.config.output)
            return await self.inner.decide(turn, given=Given(output))
        await self.inner.decide(turn)  # a script's state follows its inputs; its answer is not sent
        return Decision(SendMessage(message=message), message)
