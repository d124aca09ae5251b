"""One SANZARU episode: rounds, calls, channels, deliveries, bounces and the referee.

Each round every agent takes one turn, in the episode's turn order (a configuration, the paper's
"turn order configurations"; ``TURN_ORDERS[0]`` = Deaf, Mute, Blind is the default). A turn is a
list of calls; what an agent sends in round r is delivered at the start of round r + 1. The
channels (the paper's Table 1):

- **Deaf** sees the bomb, may speak and gesture, and receives only gestures;
- **Mute** reads the manual, may only gesture, and receives speech and gestures;
- **Blind** feels the bomb, may speak and act, and receives speech, and Mute's gestures blanked
  but counted (``Mute: [? ?]`` for two symbols: Table 1), which a counting protocol can use.

A call on a channel its sender lacks, or to a receiver that cannot sense it, is bounced: it
reaches nobody, and the sender is told in its next delivery. Every call, delivery and bounce is
recorded. In the **solo** ablation one agent holds every view, the manual and the cutters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gptnt.records import SanzaruEnding, SanzaruOutcome, SanzaruRole
from gptnt.sanzaru._bomb import UNSAYABLE, Bomb
from gptnt.sanzaru._symbols import resolve

TEAM: tuple[SanzaruRole, ...] = ("deaf", "mute", "blind")
TURN_ORDERS: tuple[tuple[SanzaruRole, ...], ...] = tuple(permutations(TEAM))
"""Every turn order a team can play in; the first is the paper's default (Deaf, Mute, Blind)."""
BLANK = "?"
"""What Blind perceives of one symbol of Mute's gesture."""
HEARS = {"deaf": False, "mute": True, "blind": True}
SEES_GESTURES = {"deaf": True, "mute": True, "blind": False}
CAN_SPEAK = {"deaf": True, "mute": False, "blind": True, "solo": False}
CAN_GESTURE = {"deaf": True, "mute": True, "blind": False, "solo": False}
CAN_ACT = {"deaf": False, "mute": False, "blind": True, "solo": True}


class Call(BaseModel):
    """One call of a turn, as an agent writes it."""

    model_config = ConfigDict(extra="ignore")

    call: Literal["speak", "gesture", "act", "wait"]
    to: Literal["deaf", "mute", "blind"] | None = None
    text: str | None = None
    symbols: list[str] = Field(default_factory=list)
    op: Literal["cut", "press", "touch"] | None = None
    position: int | None = None


@dataclass(frozen=True)
class Delivery:
    """Something that reaches an agent at the start of a round."""

    sender: str
    kind: Literal["speech", "gesture", "blanked", "bounce"]
    content: str

    def line(self) -> str:
        match self.kind:
            case "speech":
                return f'{self.sender.capitalize()}: "{self.content}"'
            case "gesture" | "blanked":
                return f"{self.sender.capitalize()}: [{self.content}]"
        return f"(bounced: {self.content})"


@dataclass
class Referee:
    """The referee of one episode."""

    bomb: Bomb
    solo: bool = False
    order: tuple[SanzaruRole, ...] = TURN_ORDERS[0]
    round: int = 1
    outcome: SanzaruOutcome | None = None
    inbox: dict[str, list[Delivery]] = field(default_factory=dict)
    pending: dict[str, list[Delivery]] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)
    """One entry per call: round, sender, call, status (delivered/bounced/acted), receivers."""
    cut_rounds: list[tuple[int, int, str]] = field(default_factory=list)
    """(round, position, colour) of every cut attempted."""

    @property
    def roles(self) -> tuple[SanzaruRole, ...]:
        return ("solo",) if self.solo else self.order

    @property
    def ending(self) -> SanzaruEnding | None:
        """The paper's ending: a timeout with no action attempted is ``never_acted``."""
        if self.outcome == "timed_out" and not any(
            e["call"] == "act" and CAN_ACT.get(e["sender"], False) for e in self.log
        ):
            return "never_acted"
        return self.outcome

    def view(self, role: SanzaruRole) -> str:
        b = self.bomb
        match role:
            case "deaf":
                return b.deaf_view(self.round)
            case "blind":
                return b.blind_view(self.round)
            case "mute":
                return f"ROUND {self.round} of {b.variant.rounds}\n{b.manual.text()}"
        return (f"{b.deaf_view(self.round)}\n-- by touch --\n{b.blind_view(self.round)}\n"
                f"-- manual --\n{b.manual.text()}")  # fmt: skip

    def deliveries(self, role: SanzaruRole) -> list[Delivery]:
        return list(self.inbox.get(role, []))

    # ---- a turn

    def play(self, role: SanzaruRole, calls: Sequence[dict[str, Any] | Call]) -> None:
        """Carry out one agent's calls for this round."""
        for raw in calls:
            if self.outcome is not None:
                return
            try:
                call = raw if isinstance(raw, Call) else Call.model_validate(raw)
            except ValidationError as err:
                self._bounce(role, {"raw": raw}, f"not a valid call: {err.errors()[0]['msg']}")
                continue
            entry = call.model_dump(exclude_none=True, exclude_defaults=True) | {"call": call.call}
            match call.call:
                case "wait":
                    self._log(role, entry, "waited")
                    return
                case "speak":
                    self._speak(role, call, entry)
                case "gesture":
                    self._gesture(role, call, entry)
                case "act":
                    self._act(role, call, entry)

    def _speak(self, role: SanzaruRole, call: Call, entry: dict[str, Any]) -> None:
        if not CAN_SPEAK[role]:
            return self._bounce(role, entry, f"{role} cannot speak", dead=True)
        text = (call.text or "").strip()[:2000]
        unsaid = sum(ch in UNSAYABLE for ch in text)
        if unsaid:  # an engraved glyph has no name: it can be described, not said (Table 8)
            text = "".join("…" if ch in UNSAYABLE else ch for ch in text)
            entry = entry | {"unsayable": unsaid}
        if call.to is not None:
            if call.to == role or not HEARS[call.to]:
                return self._bounce(role, entry, f"{call.to} cannot hear speech", dead=True)
            receivers: list[SanzaruRole] = [call.to]
        else:
            receivers = [r for r in TEAM if r != role and HEARS[r]]
        for r in receivers:
            self.pending.setdefault(r, []).append(Delivery(role, "speech", text))
        self._log(role, entry, "delivered", receivers)

    def _gesture(self, role: SanzaruRole, call: Call, entry: dict[str, Any]) -> None:
        if not CAN_GESTURE[role]:
            return self._bounce(role, entry, f"{role} cannot gesture", dead=True)
        if call.to is None or call.to == role:
            return self._bounce(role, entry, "a gesture needs a receiver (to)")
        if not SEES_GESTURES[call.to]:
            return self._bounce(role, entry, f"{call.to} cannot see gestures", dead=True)
        glyphs, unknown = resolve(call.symbols[:200])
        if unknown or not glyphs:
            return self._bounce(
                role, entry, f"unknown gesture symbols: {', '.join(unknown) or 'none'}"
            )
        self.pending.setdefault(call.to, []).append(Delivery(role, "gesture", " ".join(glyphs)))
        receivers = [call.to]
        if role == "mute":  # Blind perceives that Mute gestures, and how many symbols: Table 1
            blanks = " ".join(BLANK for _ in glyphs)
            self.pending.setdefault("blind", []).append(Delivery(role, "blanked", blanks))
            receivers.append("blind")
        self._log(role, entry | {"glyphs": glyphs}, "delivered", receivers)

    def _act(self, role: SanzaruRole, call: Call, entry: dict[str, Any]) -> None:
        b = self.bomb
        if not CAN_ACT[role]:
            return self._bounce(role, entry, f"{role} cannot act on the bomb", dead=True)
        p = call.position
        if call.op is None or p is None:
            return self._bounce(role, entry, "act needs op and position")
        if call.op == "touch":
            if not 1 <= p <= len(b.shown_props()):
                return self._bounce(role, entry, f"there is no prop {p}")
            self._log(role, entry, "acted")
            return self._end("wrong_action")
        required = b.required(self.round)
        if call.op == "cut":
            if not 1 <= p <= len(b.wires) or b.cut[p - 1]:
                return self._bounce(role, entry, f"wire {p} is not there to cut")
            colour = b.wires[p - 1]
            self.cut_rounds.append((self.round, p, colour))
            b.cut[p - 1] = True
            self._log(role, entry | {"colour": colour, "required": required}, "acted")
            if required != ("cut", p):
                return self._end("wrong_action")
            b.after_cut(colour)
        else:
            if not b.keypad or not 1 <= p <= len(b.keypad):
                return self._bounce(role, entry, f"there is no key {p}")
            self._log(role, entry | {"digit": b.keypad[p - 1], "required": required}, "acted")
            if required != ("press", p):
                return self._end("wrong_action")
            b.entered.append(b.keypad[p - 1])
        if b.defused:
            self._end("defused")

    def _bounce(
        self, role: SanzaruRole, entry: dict[str, Any], why: str, dead: bool = False
    ) -> None:
        """``dead``: the call used a channel its sender or receiver lacks (Table 6's
        dead_channel), not merely a malformed call."""
        self.pending.setdefault(role, []).append(Delivery("referee", "bounce", why))
        self._log(role, entry | ({"dead_channel": True} if dead else {}), "bounced", reason=why)

    def _log(self, role: str, entry: dict[str, Any], status: str, receivers: Sequence[str] | None = None,
             reason: str | None = None) -> None:  # fmt: skip
        row: dict[str, Any] = {"round": self.round, "sender": role, **entry, "status": status}
        if receivers is not None:
            row["receivers"] = list(receivers)
        if reason is not None:
            row["reason"] = reason
        self.log.append(row)

    def _end(self, outcome: SanzaruOutcome) -> None:
        self.outcome = outcome

    # ---- rounds

    def next_round(self) -> None:
        """Deliver what was sent, advance the clock; the budget spent is a timeout."""
        if self.outcome is not None:
            return
        if self.round >= self.bomb.variant.rounds:
            self._end("timed_out")
            return
        self.round += 1
        self.inbox, self.pending = self.pending, {}
        self.bomb.tick(self.round)
