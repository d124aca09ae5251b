"""Who plays: the oracle team (a fixed protocol that must defuse every instance), the random
team (the baseline), and model agents (any player config, through the KTANE backends).

Every agent answers one ``Turn`` (its view, what was delivered to it, the round) with a list of
calls. A model's private reasoning stays in its own context: only its calls reach the referee.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from dataclasses import dataclass, field
from string import Template
from typing import TYPE_CHECKING, Any, Literal, Protocol

from gptnt.records import FailedCall
from gptnt.resources import prompts_dir
from gptnt.sanzaru._bomb import Bomb
from gptnt.sanzaru._game import TURN_ORDERS, Delivery, SanzaruRole
from gptnt.sanzaru._symbols import NAME_OF, NAMES, alphabet_text

if TYPE_CHECKING:
    from gptnt.players.config import PlayerConfig

Hints = Literal["none", "weak", "strong", "playbook"]
HINTS: tuple[Hints, ...] = ("none", "weak", "strong", "playbook")
PROMPTS = prompts_dir() / "sanzaru"
_CALLS = re.compile(r"<calls>(.*?)</calls>", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True)
class Turn:
    role: SanzaruRole
    round: int
    rounds: int
    view: str
    deliveries: tuple[Delivery, ...]


@dataclass
class Reply:
    calls: list[dict[str, Any]]
    raw: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    failed: FailedCall | None = None
    """The model call the provider failed this turn (``gptnt.players.faults.failed_call``)."""


class Agent(Protocol):
    role: SanzaruRole

    async def turn(self, turn: Turn) -> Reply: ...


# ----------------------------------------------------------------------------- oracle team

# The oracle team's private code (a fixed protocol, not given to model teams).
COLOUR_SYMBOL = {"red": "apple", "blue": "droplet", "yellow": "banana", "green": "clover",
                 "white": "snowflake", "black": "moon", "orange": "fire"}  # fmt: skip
DIGIT_SYMBOL = dict(zip(range(10), ("fist", "point_up", "victory", "ok_hand", "raised_hand",
                                    "splayed_hand", "thumbs_up", "thumbs_down", "clap", "wave"),
                        strict=True))  # fmt: skip
END = "check"
_FROM_SYMBOL = {v: k for k, v in COLOUR_SYMBOL.items()} | {
    v: str(k) for k, v in DIGIT_SYMBOL.items()
}


def _entry(key: str, values: tuple[str, ...]) -> list[str]:
    """One manual line in the oracle code: key symbols, value symbols, END."""
    syms = []
    for token in re.findall(r"light (\w+)|display (\d)", key):
        light, digit = token
        syms.append(COLOUR_SYMBOL[light] if light else DIGIT_SYMBOL[int(digit)])
    for value in values:
        syms.append(DIGIT_SYMBOL[int(value)] if value.isdigit() else COLOUR_SYMBOL[value])
    return [*syms, END]


@dataclass
class OracleMute:
    bomb: Bomb
    role: SanzaruRole = "mute"
    sent: bool = False

    async def turn(self, turn: Turn) -> Reply:
        if self.sent:
            return Reply([{"call": "wait"}])
        manual = self.bomb.manual
        symbols: list[str] = []
        if manual.kind in ("priority", "list"):
            symbols = [COLOUR_SYMBOL[c] for c in manual.priority] + [END]
        elif manual.kind.startswith("glyph"):
            # Blind describes the plate in words (a glyph cannot be said): its Unicode name.
            said = next((d.content.removeprefix("PLATE ") for d in turn.deliveries
                         if d.kind == "speech" and d.content.startswith("PLATE ")), None)  # fmt: skip
            if said is None:
                return Reply([{"call": "wait"}])
            glyph = unicodedata.lookup(said)
            for key, values in manual.table.items():
                if key.startswith(f"plate {glyph}"):
                    symbols += _entry(key.removeprefix(f"plate {glyph}").strip(", "), values)
        else:
            for key, values in manual.table.items():
                symbols += _entry(key, values)
        self.sent = True
        return Reply([{"call": "gesture", "to": "deaf", "symbols": symbols}, {"call": "wait"}])


@dataclass
class OracleDeaf:
    bomb: Bomb  # read only for the variant's published parameters (cycle length, flashes)
    role: SanzaruRole = "deaf"
    table: dict[tuple[str, ...], list[str]] | None = None
    first_colours: list[str] = field(default_factory=list)
    lights: dict[int, str] = field(default_factory=dict)
    quiet_until: int = 0

    async def turn(self, turn: Turn) -> Reply:
        view = _parse(turn.view)
        self.lights[turn.round] = view["light"]
        if not self.first_colours:
            self.first_colours = list(view["wires"])
        for d in turn.deliveries:
            if d.kind == "gesture" and self.table is None:
                self.table = _decode(
                    [NAME_OF.get(g, g) for g in d.content.split()], self.bomb.variant.manual
                )
        if self.table is None or turn.round < self.quiet_until:
            return Reply([{"call": "wait"}])
        steps = self._plan(turn.round, view)
        if not steps:
            return Reply([{"call": "wait"}])
        self.quiet_until = turn.round + 2  # see the result before the next instruction
        return Reply([{"call": "speak", "to": "blind", "text": "\n".join(steps)}, {"call": "wait"}])

    def _plan(self, round_no: int, view: dict[str, Any]) -> list[str]:
        v = self.bomb.variant
        assert self.table is not None
        if v.manual == "code":
            code = self.table.get((view["light"],), [])
            entered = view["entered"]
            return [f"PRESS {view['keypad'].index(int(d)) + 1}" for d in code[len(entered) :]]
        wires = view["wires"]
        alive = [c for c in wires if c != "CUT"]
        done = [c for c in self.first_colours if c not in alive]
        target_round = round_no + 1
        if v.manual in ("priority", "list"):
            order = [c for c in self.table[()] if c in self.first_colours][: v.cuts]
        elif v.flashes:
            if round_no <= v.flashes:
                return []  # still flashing
            order = [self.table[(self.lights[r],)][0] for r in range(1, v.flashes + 1)]
        else:
            if v.light_cycle:
                if round_no < v.light_cycle:
                    return []
                light = self.lights[(target_round - 1) % v.light_cycle + 1]
            else:
                light = view["light"]
            key = {"rows": (light,), "grid": (light, str(view["display"])),
                   "glyph": (), "glyph-grid": (light,)}[v.manual]  # fmt: skip
            order = self.table[key]
        todo = [c for c in order if c not in done][: v.cuts - len(done)]
        if v.shuffle or v.relight:
            todo = todo[:1]
        return [f"CUT {wires.index(c) + 1}" for c in todo]


@dataclass
class OracleBlind:
    bomb: Bomb
    role: SanzaruRole = "blind"
    told: bool = False

    async def turn(self, turn: Turn) -> Reply:
        calls: list[dict[str, Any]] = []
        plate = re.search(r"PLATE engraved \[(.)\]", turn.view)
        if plate and not self.told:
            said = unicodedata.name(plate.group(1))
            calls.append({"call": "speak", "to": "mute", "text": f"PLATE {said}"})
            self.told = True
        for d in turn.deliveries:
            if d.kind == "speech" and d.sender == "deaf":
                for op, n in re.findall(r"(CUT|PRESS) (\d+)", d.content):
                    calls.append({"call": "act", "op": "cut" if op == "CUT" else "press",
                                  "position": int(n)})  # fmt: skip
        return Reply([*calls, {"call": "wait"}])


KEY_SYMBOLS = {"rows": 1, "code": 1, "grid": 2, "glyph": 0, "glyph-grid": 1, "priority": 0,
               "list": 0}  # fmt: skip


def _decode(names: list[str], kind: str) -> dict[tuple[str, ...], list[str]]:
    """The oracle code back into manual lines: key tokens (light, digit) → values."""
    table: dict[tuple[str, ...], list[str]] = {}
    entry: list[str] = []
    n = KEY_SYMBOLS[kind]
    for name in names:
        if name == END:
            table[tuple(entry[:n])] = entry[n:]
            entry = []
        else:
            entry.append(_FROM_SYMBOL[name])
    return table


def _parse(view: str) -> dict[str, Any]:
    light = re.search(r"LIGHT \[(\w+)\]", view)
    display = re.search(r"DISPLAY \[(\w+)\]", view)
    wires = re.findall(r"(\d+):\[(\w+)\]", view.split("WIRES", 1)[1].split("\n", 1)[0])
    keypad = re.search(r"KEYPAD (.*?) \[\d digits?\] \[entered ([^\]]*)\]", view)
    return {
        "light": light.group(1) if light else "",
        "display": display.group(1) if display else "",
        "wires": [c for _, c in wires],
        "keypad": [int(d) for d in re.findall(r"\d+:\[(\d)\]", keypad.group(1))] if keypad else [],
        "entered": [] if not keypad or keypad.group(2) == "nothing" else keypad.group(2).split(),
    }


def oracle_team(bomb: Bomb) -> dict[SanzaruRole, Agent]:
    return {"deaf": OracleDeaf(bomb), "mute": OracleMute(bomb), "blind": OracleBlind(bomb)}


# ----------------------------------------------------------------------------- random team


@dataclass
class RandomAgent:
    """Uniform over what its role can do; Blind acts in about a third of its turns."""

    role: SanzaruRole
    bomb: Bomb
    rng: random.Random

    async def turn(self, turn: Turn) -> Reply:
        rng = self.rng
        if self.role in ("deaf", "mute"):
            to = "mute" if self.role == "deaf" else "deaf"
            symbols = [rng.choice(NAMES) for _ in range(rng.randint(1, 3))]
            return Reply([{"call": "gesture", "to": to, "symbols": symbols}, {"call": "wait"}])
        if rng.random() > 1 / 3:
            return Reply([{"call": "wait"}])
        b = self.bomb
        options = [("press", k + 1) for k in range(len(b.keypad))]
        if not b.keypad:
            options = [("cut", i + 1) for i, c in enumerate(b.cut) if not c]
        options += [("touch", i + 1) for i in range(len(b.props))]
        op, p = rng.choice(options)
        return Reply([{"call": "act", "op": op, "position": p}, {"call": "wait"}])


def random_team(bomb: Bomb, seed: str) -> dict[SanzaruRole, Agent]:
    return {
        r: RandomAgent(r, bomb, random.Random(f"{seed}:{r}")) for r in ("deaf", "mute", "blind")
    }


# ----------------------------------------------------------------------------- model agents


def system_prompt(
    role: SanzaruRole, hints: Hints, order: tuple[SanzaruRole, ...] = TURN_ORDERS[0]
) -> str:
    """A role's system prompt. Solo plays alone and without hints (the paper's Table 4): it is
    told neither of teammates nor of gestures."""
    if role == "solo":
        parts = ["role_solo.md", "format_solo.md"]
    else:
        parts = ["common.md", f"role_{role}.md", f"hints_{hints}.md", "format.md"]
    text = "\n\n".join(t for p in parts if (t := (PROMPTS / p).read_text().strip()))
    turns = ", ".join(r.capitalize() for r in order)
    return Template(text).safe_substitute(alphabet=alphabet_text(), order=turns)


class ModelAgent:
    """One role played by a model: its history as delivered, its own replies, a window."""

    def __init__(self, role: SanzaruRole, config: PlayerConfig, hints: Hints,
                 history: int | None = None,
                 order: tuple[SanzaruRole, ...] = TURN_ORDERS[0]) -> None:  # fmt: skip
        from gptnt.players.backends import ModelBackend

        self.role = role
        self.backend = ModelBackend(config)
        self.system = system_prompt(role, hints, order)
        self.window = history
        self.rounds: list[tuple[str, str]] = []  # (what it was told, what it answered)
        self.feedback: str | None = None

    async def turn(self, turn: Turn) -> Reply:
        from gptnt.players.conversation import AssistantMessage, ChatRequest, TextPart, UserMessage
        from gptnt.players.faults import failed_call

        told = [turn.view, "", "Delivered to you this round:"]
        told += [d.line() for d in turn.deliveries] or ["(nothing)"]
        if self.feedback:
            told += ["", self.feedback]
        text = "\n".join(told)
        kept = self.rounds[-(self.window - 1) :] if self.window else self.rounds
        if self.window == 1:
            kept = []
        messages: list[UserMessage | AssistantMessage] = []
        for user, assistant in kept:
            messages += [UserMessage((TextPart(user),)), AssistantMessage(assistant)]
        messages.append(UserMessage((TextPart(text),)))
        reply = await self.backend.complete(ChatRequest(self.system, tuple(messages)))
        raw = reply.text or ""
        self.rounds.append((text, raw[:4000] or "(no reply)"))
        calls, self.feedback = parse_calls(raw)
        meta = {"latency_s": reply.record.latency_s, "cost_usd": reply.record.cost_usd,
                "usage": reply.record.usage.model_dump(), "failure": reply.failure}  # fmt: skip
        return Reply(calls, raw, meta, failed_call(reply.record))


def parse_calls(raw: str) -> tuple[list[dict[str, Any]], str | None]:
    """The calls in a model's reply, and feedback for its next turn when there were none."""
    found = _CALLS.findall(raw)
    if not found:
        return [{"call": "wait"}], "Your last reply had no <calls>…</calls> block: you waited."
    try:
        calls = json.loads(found[-1])
    except json.JSONDecodeError as err:
        return [
            {"call": "wait"}
        ], f"Your last <calls> block was not valid JSON ({err.msg}): you waited."
    if isinstance(calls, dict):
        calls = [calls]
    if not isinstance(calls, list) or not all(isinstance(c, dict) for c in calls):
        return [
            {"call": "wait"}
        ], "Your last <calls> block was not a JSON list of calls: you waited."
    return calls, None
