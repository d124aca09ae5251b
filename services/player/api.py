"""What a Player Service offers the manager over the bus."""

from __future__ import annotations

from pydantic import BaseModel

from gptnt.records import TurnEvent
from services.game.api import Status

TURN = "turn"
STOP = "stop"


class TurnRequest(BaseModel):
    turn: int  # 0-based, per role


class TurnReply(BaseModel):
    event: TurnEvent  # what the turn did, ready for the episode's events.jsonl
    png_bytes: int = 0  # observation bytes received from the game service this turn
    status: Status | None = None
    """The game after this turn, as the game service last reported it (after the Defuser's
    action, else at its observation); ``None`` for the Expert, which never sees the game."""


class StopRequest(BaseModel):
    reason: str


class Stopped(BaseModel):
    turns: int
