"""Coding every loss into a failure mode (the paper's Table 5) and perspective flags (Table 6),
from the record and the instance's truth — who was told what, when, and what was right when.

Eight modes in three stages. The paper's text gives six (communication: ``no_shared_code``,
``misalignment``, ``omission``, ``slow_protocol``; reasoning: ``wrong_answer``,
``wrong_round``) and counts eight in three stages; the third stage and its two modes are not in
the text we have, so they are ours, marked ``source="ours"``: action — ``premature_action``
(Blind acted before any answer from the manual had reached it) and ``execution_slip`` (Blind
did something other than what it was told).

The record decides a mode (``coded_by="ground_truth"``) wherever the words and the truth fix it:
who spoke to whom (words matched as whole words, never as substrings), which gestures went
where, what the manual demanded at each moment (the episode replayed), and, when a team spelled
its code out in speech ("apple = 1", "👍 means wire 2"), what Mute's gestures said under that
code. Where only the meaning of a gesture code that was never spelled out decides — Morse, a
letter grid, a whole table — the coder names the candidates, guesses one
(``coded_by="heuristic"``), and ``gptnt sanzaru judge`` puts the episode to a model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from gptnt.sanzaru._bomb import PALETTE, WIRE_COLOURS, Bomb, generate
from gptnt.sanzaru._game import Referee
from gptnt.sanzaru._symbols import GLYPH, NAMES

Stage = Literal["communication", "reasoning", "action"]
EndsBy = Literal["both", "timed_out", "wrong_action"]


@dataclass(frozen=True)
class FailureMode:
    """One row of the taxonomy (Table 5)."""

    stage: Stage
    ends_by: EndsBy
    source: Literal["paper", "ours"]
    meaning: str


FAILURE_MODES: dict[str, FailureMode] = {
    "no_shared_code": FailureMode("communication", "both", "paper",
                           "nobody gave any symbol on the channel a meaning"),
    "misalignment": FailureMode("communication", "both", "paper",
                         "a code exists and a message arrived meaning something else"),
    "omission": FailureMode("communication", "both", "paper",
                     "a fact went to a teammate who does not need it, never to the one who does"),
    "slow_protocol": FailureMode("communication", "timed_out", "paper",
                          "every channel works and the protocol is slower than the bomb"),
    "wrong_answer": FailureMode("reasoning", "wrong_action", "paper",
                         "Mute held the facts and named the wrong wire"),
    "wrong_round": FailureMode("reasoning", "wrong_action", "paper",
                        "right for the round it was worked out in, wrong when the cut landed"),
    "premature_action": FailureMode("action", "wrong_action", "ours",
                             "Blind acted before any answer from the manual reached it"),
    "execution_slip": FailureMode("action", "wrong_action", "ours",
                           "Blind did something other than what it was told"),
}  # fmt: skip
STAGES: tuple[Stage, ...] = ("communication", "reasoning", "action")
FLAGS = ("assumed_meaning", "ungrounded_ref", "omission", "wrong_round", "dead_channel")
"""Table 6's perspective failures; a loss carries any number of them."""


@dataclass(frozen=True)
class Coded:
    mode: str
    flags: tuple[str, ...]
    by: Literal["ground_truth", "heuristic"]
    candidates: tuple[str, ...] = ()
    """For ``heuristic``: the modes the judge chooses among."""
    why: str = ""

    @property
    def stage(self) -> Stage:
        return FAILURE_MODES[self.mode].stage


# ----------------------------------------------------------------------------- words

_WORD = re.compile(r"[a-z]+|\d+")
_COLOURS = frozenset(WIRE_COLOURS + PALETTE)
_CODE_WORDS = frozenset({"gesture", "gestures", "symbol", "symbols", "sign", "signs", "code",
                         "codes", "means", "mean", "meaning", "stands", "count", "counts",
                         "blank", "blanks", "morse", "letter", "letters", "grid"})  # fmt: skip
_COUNT_WORDS = frozenset({"count", "counts", "blank", "blanks", "many"})
_ALOUD_WORDS = frozenset({"aloud", "say", "speak", "spell", "read"})
_VERBS = {"cut": "cut", "press": "press", "touch": "touch"}
_NOUNS = {"wire": "cut", "key": "press", "prop": "touch", "position": None}
_SYMBOL_NAME = sorted((n.replace("_", " ") for n in NAMES), key=len, reverse=True)
_SYM = "|".join([*map(re.escape, _SYMBOL_NAME), *map(re.escape, GLYPH.values())])
_VAL = "|".join([r"\d+", *sorted(_COLOURS), "yes", "no"])
_SEP = r"\s*(?:=|:|->|→|means|is|for|stands for)\s*"
_NOUN = r"(?:(?:wire|key|position|digit|number|light|colou?r)\s+)?"
_PAIR = re.compile(rf"(?P<sym>{_SYM}){_SEP}{_NOUN}(?P<val>{_VAL})\b"
                   rf"|\b{_NOUN}(?P<val2>{_VAL}){_SEP}(?P<sym2>{_SYM})")  # fmt: skip
_GLYPH_OF = {n.replace("_", " "): g for n, g in GLYPH.items()}


def words(text: str) -> list[str]:
    """Lower-case whole words and numbers (``entered`` is not ``red``)."""
    return _WORD.findall(text.lower().replace("_", " "))


def mentions_symbol(text: str) -> bool:
    """Does the text name a gesture symbol, by its name (as whole words) or its glyph?"""
    w = " " + " ".join(words(text)) + " "
    return any(f" {n} " in w for n in _SYMBOL_NAME) or any(g in text for g in GLYPH.values())


def proposes_code(text: str) -> bool:
    """Does the text give gestures a meaning: a code word or an ``=``, a glyph of the
    alphabet, or a symbol's name beside a value (a name alone — "I'll check" — is not one)?"""
    w = set(words(text))
    if "=" in text or _CODE_WORDS & w or any(g in text for g in GLYPH.values()):
        return True
    return mentions_symbol(text) and bool(w & _COLOURS or any(x.isdigit() for x in w))


def code_pairs(text: str) -> dict[str, str]:
    """Spelled-out code: glyph → value (a number, a colour, yes or no)."""
    norm = text.lower().replace("_", " ")
    out = {}
    for m in _PAIR.finditer(norm):
        sym, val = (m["sym"], m["val"]) if m["sym"] else (m["sym2"], m["val2"])
        out[_GLYPH_OF.get(sym, sym)] = val
    return out


def instructions(text: str, keypad: bool) -> list[tuple[str, int]]:
    """Actions a message names: a verb or a noun followed (within a few words) by a number."""
    w = words(text)
    found = []
    for i, word in enumerate(w):
        if word in _VERBS or word in _NOUNS:
            op = _VERBS.get(word) or _NOUNS.get(word) or ("press" if keypad else "cut")
            for nxt in w[i + 1 : i + 6]:
                if nxt.isdigit():
                    if (op, int(nxt)) not in found:
                        found.append((op, int(nxt)))
                    break
                if nxt in _VERBS:
                    break
    return found


# ----------------------------------------------------------------------------- the record


@dataclass(frozen=True)
class _Msg:
    index: int
    round: int
    sender: str
    call: str
    receivers: tuple[str, ...]
    text: str
    glyphs: tuple[str, ...]


class _Record:
    """The episode's log, read once: messages with who got them, acts, and the truth replayed."""

    def __init__(self, episode: Referee) -> None:
        self.episode = episode
        self.bomb = episode.bomb
        self.log = episode.log
        self.msgs = [
            _Msg(i, e["round"], e["sender"], e["call"], tuple(e.get("receivers", ())),
                 e.get("text", ""), tuple(e.get("glyphs", ())))
            for i, e in enumerate(self.log)
            if e["status"] == "delivered"
        ]  # fmt: skip
        acts = [
            (i, e) for i, e in enumerate(self.log) if e["call"] == "act" and e["status"] == "acted"
        ]
        self.fatal = acts[-1] if episode.outcome == "wrong_action" and acts else None
        self.keypad = bool(self.bomb.keypad)
        to_mute = [m for m in self.msgs if m.call == "speak" and "mute" in m.receivers]
        self.proposals = [m for m in to_mute if proposes_code(m.text)]
        self.code: dict[str, str] = {}
        for m in self.proposals:
            self.code |= code_pairs(m.text)
        self.counting = any(_COUNT_WORDS & set(words(m.text)) for m in self.proposals)

    def speech_to(self, role: str, before: int | None = None) -> list[_Msg]:
        return [m for m in self.msgs if m.call == "speak" and role in m.receivers
                and (before is None or m.index < before)]  # fmt: skip

    def gestures(self, sender: str, before: int | None = None) -> list[_Msg]:
        return [m for m in self.msgs if m.call == "gesture" and m.sender == sender
                and (before is None or m.index < before)]  # fmt: skip

    def state_before(self, index: int) -> Bomb:
        """The bomb as it was at log entry ``index``: every correct act before it replayed."""
        state = generate(self.bomb.variant, self.bomb.seed)
        for _i, e in enumerate(self.log[:index]):
            if e["call"] != "act" or e["status"] != "acted" or e.get("op") == "touch":
                continue
            p = e["position"]
            if e["op"] == "cut":
                state.cut[p - 1] = True
                state.after_cut(state.wires[p - 1])
            else:
                state.entered.append(state.keypad[p - 1])
        return state

    def instruction_before(self, index: int) -> tuple[_Msg | None, list[tuple[str, int]]]:
        """The last message that reached Blind before ``index`` and named an action: Deaf's
        speech, or under a counting protocol the number of blanks of Mute's gesture."""
        limit = self.log[index]["round"] if index < len(self.log) else self.episode.round
        for m in reversed([m for m in self.msgs if "blind" in m.receivers and m.index < index]):
            if m.round >= limit:
                continue  # sent in that round or later: not yet delivered
            if m.call == "speak":
                named = instructions(m.text, self.keypad)
                if named:
                    return m, named
            elif m.sender == "mute" and self.counting:
                return m, [("press" if self.keypad else "cut", len(m.glyphs))]
        return None, []

    # ---- facts

    def facts(self, state: Bomb, round_no: int) -> set[str]:
        """The bomb facts Mute needs for the manual at a moment, as words (a glyph as
        ``plate``); none for a colour list (Mute can send all of it)."""
        v = state.variant
        if v.manual in ("priority", "list"):
            return set()
        out: set[str] = set()
        if v.manual.startswith("glyph"):
            out.add("plate")
        if v.manual in ("rows", "grid", "glyph-grid", "code"):
            out |= set(state.flashes) if v.flashes else {state.light(round_no)}
        if v.manual == "grid":
            out.add(str(state.display))
        return out

    def told_mute(self, before: int) -> set[str]:
        """Facts that reached Mute before ``before``: words of speech, Deaf's gestures under
        a spelled-out code, ``plate`` once Blind has said anything to Mute."""
        told: set[str] = set()
        for m in self.speech_to("mute", before):
            told |= set(words(m.text))
            if m.sender == "blind":
                told.add("plate")
        for m in self.gestures("deaf", before):
            told |= {self.code[g] for g in m.glyphs if g in self.code}
        return told

    def said_to_blind(self, before: int) -> set[str]:
        return {w for m in self.speech_to("blind", before) for w in words(m.text)}


# ----------------------------------------------------------------------------- coding


def code_loss(episode: Referee) -> Coded:
    """One mode (and its flags) for a lost episode."""
    rec = _Record(episode)
    end = rec.fatal[0] if rec.fatal else len(rec.log)
    omitted = _omission(rec, end)
    late = _wrong_round(rec)
    flags = _flags(rec, end, omitted, late)
    mode, by, candidates, why = _mode(rec, end, omitted, late)
    return Coded(mode, flags, by, candidates, why)


def _mode(rec: _Record, end: int, omitted: str, late: bool) -> tuple[str, Any, tuple[str, ...], str]:  # fmt: skip
    gt = "ground_truth"
    instruction, named = rec.instruction_before(end)
    if not rec.proposals and instruction is None:
        return "no_shared_code", gt, (), "no code proposed to Mute, no action ever reached Blind"
    if rec.fatal is None:  # timed out
        if omitted:
            return "omission", gt, (), omitted
        relay = _relay_check(rec, instruction, named)
        if relay == "misalignment":
            return (
                "misalignment",
                gt,
                (),
                "Mute's gesture, read by the spelled-out code, was right; the relay was not",
            )
        if relay == "unknown" and instruction is not None and not _right(rec, instruction, named):
            return ("misalignment", "heuristic", ("misalignment", "slow_protocol"),
                    "Blind was told a wrong action under a code never spelled out")  # fmt: skip
        return "slow_protocol", gt, (), "every hop was used and the rounds ran out"
    _, act = rec.fatal
    action = (act["op"], act["position"])
    if instruction is None:
        return "premature_action", gt, (), "no action had reached Blind when it acted"
    if instruction.sender != "mute" and not rec.gestures("mute", instruction.index):
        return "premature_action", gt, (), "the instruction was sent before Mute had gestured"
    if action not in named:
        return "execution_slip", gt, (), f"told {named}, did {action}"
    if late:
        return "wrong_round", gt, (), "the action was right when it was worked out"
    if omitted:
        return "omission", gt, (), omitted
    relay = _relay_check(rec, instruction, named)
    if relay in ("wrong_answer", "misalignment"):
        return relay, gt, (), "Mute's gesture read by the code the team spelled out"
    longest = max((len(m.glyphs) for m in rec.gestures("mute", instruction.index)), default=0)
    guess = "misalignment" if longest > 2 else "wrong_answer"
    return guess, "heuristic", ("misalignment", "wrong_answer"), "the gestures' meaning decides"


def _right(rec: _Record, m: _Msg, named: list[tuple[str, int]]) -> bool:
    """Was the action an instruction named what the manual demanded when it was sent?"""
    state = rec.state_before(m.index)
    return state.required(m.round + 1) in named or state.required(m.round) in named


def _relay_check(rec: _Record, instruction: _Msg | None, named: list[tuple[str, int]]) -> str:
    """Under a code the team spelled out: did Mute's last gesture before the instruction name
    the answer (then a wrong relay is ``misalignment``) or not (``wrong_answer``)? ``right``
    when both were right (or nothing was relayed), ``unknown`` without such a code or gesture."""
    if not rec.code:
        return "unknown"
    before = instruction.index if instruction is not None else len(rec.log)
    said = [m for m in rec.gestures("mute", before) if any(g in rec.code for g in m.glyphs)]
    if not said:
        return "unknown"
    gesture = said[-1]
    values = [rec.code[g] for g in gesture.glyphs if g in rec.code]
    state = rec.state_before(gesture.index)
    need = state.required(gesture.round)
    if need is None:
        return "unknown"
    answer = {str(need[1])}
    answer.add(state.wires[need[1] - 1] if need[0] == "cut" else str(state.keypad[need[1] - 1]))
    if not answer & set(values):
        return "wrong_answer"
    if instruction is not None and not _right(rec, instruction, named):
        return "misalignment"
    return "right"


def _omission(rec: _Record, end: int) -> str:
    """Why a needed fact never reached its teammate although it went elsewhere; '' if none."""
    last_round = rec.log[end]["round"] if end < len(rec.log) else rec.episode.round
    state = rec.state_before(end)
    need = rec.facts(state, last_round)
    told = rec.told_mute(end)
    missing = need - told
    if not missing:
        return ""
    if missing & rec.said_to_blind(end):
        return f"{', '.join(sorted(missing))} told to Blind, never to Mute"
    if "plate" in missing and any(e["sender"] == "blind" and e["call"] == "speak"
                                  for e in rec.log[:end]):  # fmt: skip
        return "Blind described the plate to someone other than Mute"
    lights = set(rec.bomb.lights) | set(PALETTE)
    if missing & lights and told & lights and rec.bomb.variant.relight:
        return "Mute was left on an earlier light"
    deaf_spoke_to_blind = any(m.sender == "deaf" for m in rec.speech_to("blind", end))
    deaf_to_mute = [m for m in rec.msgs if m.sender == "deaf" and "mute" in m.receivers
                    and m.index < end]  # fmt: skip
    if deaf_spoke_to_blind and not deaf_to_mute and missing - {"plate"}:
        return "Deaf reported to Blind and never to Mute"
    return ""


def _wrong_round(rec: _Record) -> bool:
    """Was the fatal action one the team was told, and right for an earlier round (the light
    of a round it was worked out in, or the wires before they last moved)?"""
    if rec.fatal is None:
        return False
    index, act = rec.fatal
    instruction, named = rec.instruction_before(index)
    action = (act["op"], act["position"])
    if instruction is None or action not in named:
        return False
    now = rec.state_before(index)
    if now.required(act["round"]) == action:
        return False
    then = rec.state_before(instruction.index)
    if any(then.required(r) == action
           for r in range(max(1, instruction.round - 2), instruction.round + 1)):  # fmt: skip
        return True  # the light of the round it was worked out in
    need = now.required(act["round"])
    return (  # the wire that is needed now sat at that position before the wires moved
        act["op"] == "cut" and need is not None and now.variant.shuffle
        and then.wires[act["position"] - 1] == now.wires[need[1] - 1]
    )  # fmt: skip


def _flags(rec: _Record, end: int, omitted: str, late: bool) -> tuple[str, ...]:
    flags: set[str] = set()
    if omitted:
        flags.add("omission")
    if late:
        flags.add("wrong_round")
    if any(e.get("dead_channel") for e in rec.log):
        flags.add("dead_channel")
    to_blind = rec.speech_to("blind")
    if any(_COLOURS & set(words(m.text)) for m in to_blind):
        flags.add("ungrounded_ref")  # a colour named to Blind
    if any(e["sender"] == "mute" and e["call"] == "speak" for e in rec.log):
        flags.add("ungrounded_ref")  # Mute tried to speak
    if any(_ALOUD_WORDS & set(words(m.text)) for m in rec.speech_to("mute")):
        flags.add("ungrounded_ref")  # Mute asked to say something aloud
    for m in rec.speech_to("blind"):
        if m.sender != "deaf" or not instructions(m.text, rec.keypad):
            continue
        heard = [g for g in rec.gestures("mute", m.index) if g.round < m.round]
        proposed = [p for p in rec.proposals if p.index < m.index]
        if heard and not proposed:
            flags.add("assumed_meaning")  # relayed a reading of gestures nobody defined
    return tuple(f for f in FLAGS if f in flags)
