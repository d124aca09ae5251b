"""Coding every loss into a failure mode (the paper's Table 5) and perspective flags (Table 6),
from the record and the instance's truth — who was told what, when, and what was right when.

Modes: ``no_shared_code``, ``omission``, ``slow_protocol`` (timed out), ``wrong_round``,
``wrong_answer`` and ``misalignment`` (wrong action). All but the last two are decided by the
record alone (``coded_by="ground_truth"``). Telling a wrong answer from a misread one needs the
meaning of the gestures: the coder then names ``misalignment`` when Mute held the facts and the
relayed position was wrong, and says so (``coded_by="heuristic"``), so that a model judge may
revisit exactly those.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from gptnt.sanzaru._bomb import WIRE_COLOURS, generate
from gptnt.sanzaru._game import Referee

_NUMBER = re.compile(r"\b[1-7]\b")


@dataclass(frozen=True)
class Coded:
    mode: str
    flags: tuple[str, ...]
    by: str


def _facts(episode: Referee) -> set[str]:
    """The bomb facts Mute needs to apply the manual, as words a report would contain."""
    b = episode.bomb
    v = b.variant
    if v.manual == "priority":
        return set(b.wires)
    if v.manual.startswith("glyph"):
        return {b.plate or ""} | ({b.lights[0]} if v.manual == "glyph-grid" else set())
    facts = {b.lights[0]} if not v.flashes else set(b.flashes)
    if v.manual in ("grid", "code-grid"):
        facts.add(str(b.display))
    return facts


def code_loss(episode: Referee, events: list[dict[str, Any]]) -> Coded:
    log = episode.log
    delivered = [e for e in log if e["status"] == "delivered"]
    to_mute = [e for e in delivered if e["call"] == "speak" and "mute" in e.get("receivers", [])]
    mute_gestures = [e for e in delivered if e["sender"] == "mute" and e["call"] == "gesture"]
    to_blind = [e for e in delivered if e["call"] == "speak" and "blind" in e.get("receivers", [])]
    told = " ".join(e.get("text", "") for e in to_mute).lower()
    facts = _facts(episode)
    mute_knew = bool(facts) and all(f.lower() in told for f in facts)

    flags: list[str] = []
    if any(e["status"] == "bounced" for e in log):
        flags.append("dead_channel")
    colour_words = [
        w for w in WIRE_COLOURS if any(w in e.get("text", "").lower() for e in to_blind)
    ]
    mute_spoke = any(e["sender"] == "mute" and e["call"] == "speak" for e in log)
    if colour_words or mute_spoke:
        flags.append("ungrounded_ref")
    if not mute_knew:
        flags.append("omission")
    late = _wrong_round(episode)
    if late:
        flags.append("wrong_round")
    coded_speech = " ".join(e.get("text", "") for e in delivered if e["call"] == "speak")
    if (
        mute_gestures
        and to_blind
        and not re.search(r"=|mean|code|stands for", coded_speech, re.IGNORECASE)
    ):
        flags.append("assumed_meaning")

    if episode.outcome == "timed_out":
        if not mute_gestures and not any(_NUMBER.search(e.get("text", "")) for e in to_blind):
            mode = "no_shared_code"
        elif not mute_knew or not to_blind:
            mode = "omission"
        else:
            mode = "slow_protocol"
        return Coded(mode, tuple(flags), "ground_truth")
    if late:
        return Coded("wrong_round", tuple(flags), "ground_truth")
    if not mute_knew:
        return Coded("omission", tuple(flags), "ground_truth")
    if not mute_gestures:
        return Coded("no_shared_code", tuple(flags), "ground_truth")
    return (
        Coded("misalignment", tuple(flags), "heuristic")
        if to_blind
        else Coded("wrong_answer", tuple(flags), "heuristic")
    )


def _wrong_round(episode: Referee) -> bool:
    """Was the fatal action right for an earlier moment of this episode: the light of an
    earlier round (Flashing Light), or the wires before they last moved (Shuffle Wires)?"""
    acts = [e for e in episode.log if e["call"] == "act" and e["status"] == "acted"]
    if not acts or acts[-1].get("op") != "cut":
        return False
    fatal, before = acts[-1], acts[:-1]
    b = episode.bomb
    v = b.variant
    if not (v.light_cycle or v.shuffle):
        return False
    state = generate(v, b.seed)
    arrangements = [list(state.wires)]
    for e in before:
        state.cut[e["position"] - 1] = True
        state.after_cut(state.wires[e["position"] - 1])
        arrangements.append(list(state.wires))
    position = fatal["position"]
    if v.light_cycle:
        earlier = {state.required(r) for r in range(max(1, fatal["round"] - 3), fatal["round"])}
        if ("cut", position) in earlier:
            return True
    if v.shuffle and len(arrangements) > 1:
        need = state.required(fatal["round"])
        if need is not None:
            colour = state.wires[need[1] - 1]
            return arrangements[-2][position - 1] == colour
    return False
