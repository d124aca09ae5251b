"""What a Player Service offers the manager over the bus."""

from __future__ import annotations

from pydantic import BaseModel

from gptnt.records import TurnEvent

TURN = "turn"
STOP = "stop"


class TurnRequest(BaseModel):
    turn: int  # 0-based, per role


class TurnReply(BaseModel):
    event: TurnEvent  # what the turn did, ready for the episode's events.jsonl
    png_bytes: int = 0  # observation bytes received from the game service this turn


class StopRequest(BaseModel):
    reason: str


class Stopped(BaseModel):
    turns: int
