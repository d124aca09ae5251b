"""The one interface every player implements, scripted or model: one call per turn.

A turn's input is the partner's messages since the player's last turn and, for the Defuser, the
observation (frames and their set of marks; the true bomb state only for privileged oracles).
Its answer is one ``Decision``: an action of the player vocabulary, the text behind it, and
what the turn's record needs (issues, the model call, the images sent). Every policy is played
through ``gptnt.players.turn.play_turn``, which resolves the action against the marks and
carries it to the game or the partner.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from gptnt.players.actions import Action, Interaction
from gptnt.players.backends import CallRecord
from gptnt.players.conversation import Attachment, ChatRequest
from gptnt.players.feedback import Issue
from gptnt.protocol import BombState, Mode, ModuleKind, Role, decode_png
from gptnt.vision import SetOfMarks

__all__ = ["Decision", "Observation", "Policy", "TurnInput"]


@dataclass(frozen=True)
class Observation:
    """What the Defuser is shown this turn. ``state`` is privileged: only oracles may read it."""

    pngs: tuple[bytes, ...]  # the frames as sent (PNG), oldest first (usually just the newest)
    marks: SetOfMarks | None
    """Letters on the newest frame, from the segmentation mask (only for a set-of-marks player)."""
    state: BombState | None = None
    kind: ModuleKind | None = None
    """The module zoomed into (``None``: the bomb from outside), whether or not marks are built."""

    @functools.cached_property
    def frames(self) -> list[np.ndarray]:
        """The frames, H×W×3 uint8, oldest first: decoded when first read (a policy that reads
        no pixels never pays for it)."""
        return [decode_png(png) for png in self.pngs]


@dataclass(frozen=True)
class TurnInput:
    role: Role
    turn: int  # 0-based, per role
    mode: Mode
    messages: list[str]  # the partner's messages since the last turn, oldest first
    observation: Observation | None = None  # Defuser only
    feedback: tuple[Issue, ...] = ()
    """The issues of this player's previous turn (a model is told them)."""


@dataclass(frozen=True)
class Decision:
    """One turn's answer: the action chosen and the text behind it (a model's raw output).

    A model player also hands over what the record needs of its turn: the issues found in its
    answer (told back to it next turn, with any found in resolving the action) and the model
    call (tokens, cost, latency).
    """

    action: Action
    text: str
    issues: tuple[Issue, ...] = ()
    call: CallRecord | None = None
    shown: tuple[Attachment, ...] = ()
    """The images a model was sent this turn, exactly (the record stores them by hash)."""
    latency_s: float | None = None
    """A turn restored from a record (``gptnt.players.replay``): the wall latency it recorded."""
    game_latency_s: float | None = None
    """A restored turn of a virtual-clock record: game seconds from its start to its dispatch
    as recorded, so the replay keeps the parent's timeline whatever the latency model."""
    restored: bool = False
    """The turn was restored from its parent episode's record, not decided anew."""
    request: ChatRequest | None = None
    """The whole request a model sent this turn (the record keeps it as its transcript)."""


class Policy(Protocol):
    """A player's brain for one episode."""

    name: str
    privileged: bool  # reads the true bomb state
    interaction: Interaction
    """How its locations are read (marks or coordinates, at its own image size)."""
    sequence_frames: int
    """Frames it wants to see on a blinking module (Simon Says, Morse Code); 1: the newest."""

    async def decide(self, turn: TurnInput) -> Decision: ...
