"""The coder against seeded losses: each scripted so that the paper's definitions (Table 5, and
our two action modes) name exactly one category. The test prints the coder's agreement — which
cases the record decides (ground truth) and which it routes to the model judge — and needs every
case right: a ground-truth case coded as its category, a judged case routed to the judge with
its category among the candidates (the heuristic's guess is printed beside it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from gptnt.sanzaru import (
    FAILURE_MODES,
    Bomb,
    Referee,
    Team,
    code_loss,
    generate,
    instances,
    play,
    variant,
)
from gptnt.sanzaru._symbols import GLYPH

NUM = ("apple", "banana", "grapes", "clover", "moon", "sun", "star")
"""The seeded teams' spelled-out code: NUM[n - 1] means wire (or key) n."""
CODE = "Code: " + ", ".join(f"{s} = {n}" for n, s in enumerate(NUM, 1)) + "."
COLOUR_SYM = {"red": "fire", "blue": "droplet", "yellow": "banana", "green": "clover",
              "white": "snowflake", "black": "moon", "orange": "sun"}  # fmt: skip
COLOUR_CODE = "Code: " + ", ".join(f"{s} = {c}" for c, s in COLOUR_SYM.items()) + "."
MORSE = "Let us use Morse code: fist is a dot, raised hand is a dash, wave ends a letter."

Script = dict[str, dict[int, list[dict]]]


def say(to: str | None, text: str) -> dict:
    return {"call": "speak", "text": text} | ({"to": to} if to else {})


def gest(to: str, *symbols: str) -> dict:
    return {"call": "gesture", "to": to, "symbols": list(symbols)}


def cut(p: int) -> dict:
    return {"call": "act", "op": "cut", "position": p}


def press(p: int) -> dict:
    return {"call": "act", "op": "press", "position": p}


def right(b: Bomb, round_no: int = 1) -> int:
    need = b.required(round_no)
    assert need is not None
    return need[1]


def wrong(b: Bomb, round_no: int = 1, *, avoid: tuple[int, ...] = ()) -> int:
    return next(p for p in range(1, len(b.wires) + 1)
                if p != right(b, round_no) and not b.cut[p - 1] and p not in avoid)  # fmt: skip


def facts(b: Bomb) -> str:
    return f"The light is {b.light(1)} and the display shows {b.display}."


@dataclass(frozen=True)
class Case:
    name: str
    vid: str
    expect: str
    judged: bool
    build: Callable[[Bomb], Script]
    seed: int = 1
    flags: tuple[str, ...] = ()


def _relay(b: Bomb, mute_says: int, deaf_says: int, blind_does: int) -> Script:
    """Round 1 Deaf spells the code out and reports; round 2 Mute gestures a wire; round 3 Deaf
    relays one; round 4 Blind cuts one."""
    return {
        "deaf": {
            1: [say("mute", f"{CODE} {facts(b)}")],
            3: [say("blind", f"Cut wire {deaf_says}.")],
        },
        "mute": {2: [gest("deaf", NUM[mute_says - 1])]},
        "blind": {4: [cut(blind_does)]},
    }


def _flashing_late(b: Bomb) -> Script:
    """Worked out for round 2's light, cut in round 3 under the next light."""
    cycle = ", ".join(b.lights)
    return {
        "deaf": {1: [say("mute", f"{CODE} The light cycles {cycle}, starting with {b.light(1)}.")],
                 2: [say("blind", f"Cut wire {right(b, 2)}.")]},
        "mute": {1: [gest("deaf", NUM[right(b, 2) - 1])]},
        "blind": {3: [cut(right(b, 2))]},
    }  # fmt: skip


def _shuffle_stale(b: Bomb) -> Script:
    """Both cuts worked out before the first one moved the wires; the second lands stale."""
    first = right(b)
    after = generate(b.variant, b.seed)
    after.cut[first - 1] = True
    after.after_cut(after.wires[first - 1])
    second_colour = after.wires[right(after) - 1]
    stale = b.wires.index(second_colour) + 1  # where that colour was before the shuffle
    return {
        "deaf": {1: [say("mute", f"{CODE} {facts(b)}")],
                 3: [say("blind", f"Cut wire {first}, then cut wire {stale}.")]},
        "mute": {2: [gest("deaf", NUM[first - 1], NUM[stale - 1])]},
        "blind": {4: [cut(first), cut(stale)]},
    }  # fmt: skip


def _relight_stale(b: Bomb) -> Script:
    """Base 3: the first cut is right; Mute is never told the new light; a guess follows."""
    first = right(b)
    after = generate(b.variant, b.seed)
    after.cut[first - 1] = True
    after.after_cut(after.wires[first - 1])
    guess = wrong(after)
    return {
        "deaf": {1: [say("mute", f"{CODE} {facts(b)}")], 3: [say("blind", f"Cut wire {first}.")],
                 5: [say("blind", f"Now cut wire {guess}.")]},
        "mute": {2: [gest("deaf", NUM[first - 1])]},
        "blind": {4: [cut(first)], 6: [cut(guess)]},
    }  # fmt: skip


def _yes_no(b: Bomb) -> Script:
    """Figure 7's one-bit protocol: one yes/no query per round, never finished."""
    queries = {r: [say("mute", f"thumbs_up = yes, thumbs_down = no. {facts(b)} Is it wire "
                                f"{1 + (r - 1) // 4}?")] for r in range(1, 17)}  # fmt: skip
    return {
        "deaf": queries,
        "mute": {r: [gest("deaf", "thumbs_down")] for r in range(2, 17)},
    }


def _counting_slow(b: Bomb) -> Script:
    """Figure 9's counting protocol, one cut done; Deaf reports the new light, and nothing more
    happens before the budget ends."""
    return {
        "deaf": {1: [say("mute", facts(b))], 4: [say("mute", f"The light is now {b.lights[1]}.")]},
        "blind": {1: [say("mute", "Gesture as many symbols as the wire number; I count the blanks.")],
                  3: [cut(right(b))]},
        "mute": {2: [gest("deaf", *["fist"] * right(b))]},
    }  # fmt: skip


def _morse_table(b: Bomb) -> Script:
    """Figure 12: a whole table sent in a code never spelled out; Deaf decodes something else."""
    return {
        "deaf": {
            1: [say("mute", f"{MORSE} {facts(b)}")],
            3: [say("blind", f"Cut wire {wrong(b)}.")],
        },
        "mute": {2: [gest("deaf", *(["fist", "raised_hand", "wave"] * 6))]},
        "blind": {4: [cut(wrong(b))]},
    }


def _morse_wrong(b: Bomb) -> Script:
    """Figure 10's Morse, understood as meant; what Mute meant was a wrong wire."""
    return {
        "deaf": {
            1: [say("mute", f"{MORSE} {facts(b)}")],
            3: [say("blind", f"Cut wire {wrong(b)}.")],
        },
        "mute": {2: [gest("deaf", "raised_hand", "fist", "wave")]},
        "blind": {4: [cut(wrong(b))]},
    }


CASES: tuple[Case, ...] = (
    # ---- no shared code
    Case("silence", "base-1", "no_shared_code", False, lambda b: {}),
    Case("symbols nobody gave a meaning", "base-1", "no_shared_code", False, lambda b: {
        "deaf": {1: [say("mute", facts(b))], 2: [gest("mute", "star", "fire")]},
        "mute": {2: [gest("deaf", "banana", "moon")], 4: [gest("deaf", "sun")]}}),
    Case("Blind cuts with no code and no word", "base-2", "no_shared_code", False, lambda b: {
        "mute": {1: [gest("deaf", "apple")]}, "blind": {3: [cut(wrong(b))]}}),
    Case("gestures back and forth, a random cut", "carving-1", "no_shared_code", False, lambda b: {
        "deaf": {r: [gest("mute", "heart")] for r in range(1, 4)},
        "mute": {r: [gest("deaf", "star")] for r in range(1, 4)}, "blind": {4: [cut(wrong(b))]}}),
    # ---- omission
    Case("the light told to Blind, never to Mute", "base-1", "omission", False, lambda b: {
        "deaf": {1: [say("mute", CODE), say("blind", facts(b))]}}, flags=("omission",)),
    Case("facts to Blind, Mute guesses, Blind cuts", "base-2", "omission", False, lambda b: {
        "deaf": {1: [say("mute", CODE), say("blind", facts(b))], 3: [say("blind", f"Cut wire {wrong(b)}.")]},
        "mute": {2: [gest("deaf", NUM[wrong(b) - 1])]}, "blind": {4: [cut(wrong(b))]}}),
    Case("the plate described to Deaf, who cannot hear", "carving-1", "omission", False, lambda b: {
        "deaf": {1: [say("mute", CODE)]},
        "blind": {1: [say("deaf", "The plate shows a triangle inside a triangle.")]}},
        flags=("omission", "dead_channel")),
    Case("Mute left on the old light", "base-3", "omission", False, _relight_stale),
    Case("the flashes told to Blind only", "flashback-1", "omission", False, lambda b: {
        "deaf": {1: [say("mute", CODE)], 3: [say("blind", f"The flashes were {b.flashes[0]} then {b.flashes[1]}.")]}}),
    # ---- slow protocol
    Case("every hop used, rounds run out", "base-1", "slow_protocol", False, lambda b: {
        "deaf": {r: [say("mute", f"{CODE} {facts(b)}"), say("blind", "Wait one more round.")] for r in range(1, 9)},
        "mute": {r: [gest("deaf", "question")] for r in range(2, 9)}}),
    Case("yes/no queries never passed to Blind", "base-4", "slow_protocol", False, _yes_no),
    Case("counting protocol, one cut of three", "base-3", "slow_protocol", False, _counting_slow),
    # ---- misalignment (the record decides, by the code spelled out)
    Case("right gesture, misread relay", "base-1", "misalignment", False,
         lambda b: _relay(b, right(b), wrong(b), wrong(b))),
    Case("right gesture, misread relay, then a timeout", "base-1", "misalignment", False, lambda b: {
        "deaf": {1: [say("mute", f"{CODE} {facts(b)}")], 3: [say("blind", "Cut wire 7.")]},
        "mute": {2: [gest("deaf", NUM[right(b) - 1])]}, "blind": {4: [cut(7)]}}),
    Case("colour code misread", "base-2", "misalignment", False, lambda b: {
        "deaf": {1: [say("mute", f"{COLOUR_CODE} {facts(b)}")], 3: [say("blind", f"Cut wire {wrong(b)}.")]},
        "mute": {2: [gest("deaf", COLOUR_SYM[b.wires[right(b) - 1]])]}, "blind": {4: [cut(wrong(b))]}}),
    # ---- misalignment and wrong answer the judge decides (a code never spelled out)
    Case("a whole table in Morse, decoded otherwise (Figure 12)", "base-2", "misalignment", True, _morse_table),
    Case("Morse understood, a wrong wire meant (Figure 10)", "base-1", "wrong_answer", True, _morse_wrong),
    # ---- wrong answer (the record decides)
    Case("Mute names the wrong wire, relayed faithfully", "base-1", "wrong_answer", False,
         lambda b: _relay(b, wrong(b), wrong(b), wrong(b))),
    Case("Mute names the wrong colour", "base-2", "wrong_answer", False, lambda b: {
        "deaf": {1: [say("mute", f"{COLOUR_CODE} {facts(b)}")], 3: [say("blind", f"Cut wire {wrong(b)}.")]},
        "mute": {2: [gest("deaf", COLOUR_SYM[b.wires[wrong(b) - 1]])]}, "blind": {4: [cut(wrong(b))]}}),
    Case("Mute names the bait's lure", "bait-3", "wrong_answer", False,
         lambda b: _relay(b, wrong(b), wrong(b), wrong(b))),
    # ---- wrong round
    Case("flashing light: answer for an earlier light", "flashing-2", "wrong_round", False, _flashing_late,
         seed=2, flags=("wrong_round",)),
    Case("shuffle: second cut aimed at the old positions", "shuffle-1", "wrong_round", False, _shuffle_stale,
         flags=("wrong_round",)),
    # ---- premature action (ours)
    Case("Blind cuts before any answer arrives", "base-1", "premature_action", False, lambda b: {
        "deaf": {1: [say("mute", f"{CODE} {facts(b)}")]}, "blind": {1: [cut(wrong(b))]}}),
    Case("Deaf relays a guess before Mute gestured", "base-2", "premature_action", False, lambda b: {
        "deaf": {1: [say("mute", f"{CODE} {facts(b)}"), say("blind", f"Cut wire {wrong(b)}.")]},
        "blind": {2: [cut(wrong(b))]}}),
    Case("Blind touches a prop unprompted", "haystack-1", "premature_action", False, lambda b: {
        "deaf": {1: [say("mute", CODE)]}, "blind": {2: [{"call": "act", "op": "touch", "position": 1}]}}),
    # ---- execution slip (ours)
    Case("told the right wire, cuts another", "base-1", "execution_slip", False,
         lambda b: _relay(b, right(b), right(b), wrong(b))),
    Case("told the right key, presses another", "bait-1", "execution_slip", False, lambda b: {
        "deaf": {1: [say("mute", f"{CODE} {facts(b)}")], 3: [say("blind", f"Press key {right(b)}.")]},
        "mute": {2: [gest("deaf", NUM[right(b) - 1])]},
        "blind": {4: [press(next(k for k in range(1, 5) if k != right(b)))]}}),
)  # fmt: skip


def _play(case: Case) -> tuple[Referee, object]:
    ep = Referee(generate(variant(case.vid), case.seed))
    script = case.build(generate(variant(case.vid), case.seed))
    while ep.outcome is None:
        for role in ep.roles:
            ep.play(role, [*script.get(role, {}).get(ep.round, []), {"call": "wait"}])
            if ep.outcome:
                break
        ep.next_round()
    assert ep.outcome in ("timed_out", "wrong_action"), (case.name, ep.outcome)
    return ep, code_loss(ep)


def test_the_coder_agrees_with_every_seeded_loss(capsys: pytest.CaptureFixture[str]) -> None:
    assert len(CASES) >= 25 and {c.expect for c in CASES} == set(FAILURE_MODES)
    rows, right_n = [], 0
    for case in CASES:
        ep, coded = _play(case)
        if case.judged:
            ok = coded.by == "heuristic" and case.expect in coded.candidates
            how = f"judged among {'/'.join(coded.candidates)} (guess {coded.mode})"
        else:
            ok = coded.by == "ground_truth" and coded.mode == case.expect
            how = f"{coded.by}: {coded.mode}"
        ok = ok and set(case.flags) <= set(coded.flags)
        right_n += ok
        rows.append(f"{'ok ' if ok else 'BAD'} {case.expect:17} {ep.ending:12} {case.name} — {how}"
                    f" [{', '.join(coded.flags)}]")  # fmt: skip
    judged = sum(c.judged for c in CASES)
    with capsys.disabled():
        print(f"\nseeded losses: {right_n} of {len(CASES)} right "
              f"({len(CASES) - judged} decided by the record, {judged} by the judge)")  # fmt: skip
        print("\n".join(rows))
    assert right_n == len(CASES), "\n".join(r for r in rows if r.startswith("BAD"))


def test_misalignment_ends_both_ways() -> None:
    endings = {_play(c)[0].outcome for c in CASES if c.expect == "misalignment" and not c.judged}
    assert endings == {"timed_out", "wrong_action"}


async def test_every_random_team_loss_is_no_shared_code() -> None:
    modes = {}
    for v, seed in instances()[::4]:
        played = await play(v, seed, Team("random", "random"), None)
        s = played.sanzaru
        assert s is not None
        if s.outcome != "defused":
            modes[played.episode_id] = (s.failure_mode, s.coded_by, s.failure_flags)
    assert modes and all(m == ("no_shared_code", "ground_truth", ()) for m in modes.values()), {
        k: m for k, m in modes.items() if m[0] != "no_shared_code" or m[2]
    }


def test_flags_match_words_not_substrings() -> None:
    ep = Referee(generate(variant("base-1"), 1))
    ep.play("deaf", [say("blind", "Nothing entered yet; nothing is required of you.")])
    ep.play("blind", [cut(wrong(ep.bomb))])
    assert "ungrounded_ref" not in code_loss(ep).flags
    ep = Referee(generate(variant("base-1"), 1))
    ep.play("deaf", [say("blind", "Cut the red one.")])
    ep.next_round()
    ep.play("blind", [cut(wrong(ep.bomb))])
    assert "ungrounded_ref" in code_loss(ep).flags


def test_a_random_cut_is_not_wrong_round() -> None:
    for seed in range(1, 6):
        ep = Referee(generate(variant("flashing-2"), seed))
        early = right(ep.bomb, 1)
        ep.next_round()
        if ep.bomb.required(2)[1] != early:
            ep.play("blind", [cut(early)])  # right a round ago, but nobody said so
            coded = code_loss(ep)
            assert coded.mode != "wrong_round" and "wrong_round" not in coded.flags
            return
    pytest.fail("no flashing-2 instance whose answer changes between rounds 1 and 2")


def test_a_glyph_said_aloud_reaches_nobody_as_a_glyph() -> None:
    ep = Referee(generate(variant("carving-1"), 1))
    glyph = ep.bomb.plate
    ep.play("blind", [say("mute", f"The plate is {glyph}.")])
    ep.next_round()
    assert ep.deliveries("mute")[0].content == "The plate is …."
    assert glyph not in GLYPH.values()


def test_a_code_is_proposed_only_by_giving_a_symbol_a_meaning() -> None:
    from gptnt.sanzaru._coding import code_pairs, proposes_code

    assert not proposes_code("I'll check the wires and repeat what I see.")
    assert not proposes_code("The light is green.")
    assert proposes_code("apple = 1") and proposes_code("Use Morse code.")
    assert proposes_code("star for wire 2") and proposes_code("👍 is yes")
    assert code_pairs("thumbs_up means wire 2, 3 = moon; 👎 is no") == {
        GLYPH["thumbs_up"]: "2",
        GLYPH["moon"]: "3",
        GLYPH["thumbs_down"]: "no",
    }
