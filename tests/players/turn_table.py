"""An in-memory table to play ``play_turn`` on: the partner's messages, the frames shown, the
messages said and the actions taken, all kept in lists (no bus, no game)."""

from __future__ import annotations

import io
from dataclasses import dataclass, field

import numpy as np
from PIL import Image

from gptnt.players.turn import Sight, Transport
from gptnt.protocol import GameAction


def png(image: np.ndarray) -> bytes:
    out = io.BytesIO()
    Image.fromarray(image).save(out, format="PNG")
    return out.getvalue()


def sight(frame: np.ndarray, mask: np.ndarray | None) -> Sight:
    """The game showing ``frame`` with the segmentation ``mask`` (no state: nothing zoomed)."""
    return Sight([png(frame)], png(mask) if mask is not None else None, None, 120.0, 0)


@dataclass
class Table:
    inbox: list[str] = field(default_factory=list)  # the partner's messages for the next drain
    shown: Sight | None = None  # what the next observation shows
    said: list[str] = field(default_factory=list)
    acted: list[GameAction] = field(default_factory=list)
    asked_frames: list[int] = field(default_factory=list)  # sequence frames per observation

    def transport(self, *, defuser: bool) -> Transport:
        async def drain(until: float | None) -> list[str]:
            messages, self.inbox = self.inbox, []
            return messages

        async def say(text: str, at: float | None) -> None:
            self.said.append(text)

        async def observe(frames: int) -> Sight:
            assert self.shown is not None, "the test shows nothing"
            self.asked_frames.append(frames)
            return self.shown

        async def act(action: GameAction, at: float | None) -> str:
            self.acted.append(action)
            return "done"

        if not defuser:
            return Transport(drain, say)
        return Transport(drain, say, observe, act)
