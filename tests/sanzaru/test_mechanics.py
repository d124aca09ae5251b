"""SANZARU's referee: each family's mechanic, the channels of every role, and the views."""

from __future__ import annotations

import pytest

from gptnt.sanzaru import Referee, generate, variant


def _episode(vid: str, seed: int = 1) -> Referee:
    return Referee(generate(variant(vid), seed))


def _wrong(ep: Referee) -> int:
    need = ep.bomb.required(ep.round)
    assert need is not None and need[0] == "cut"
    return next(i + 1 for i, c in enumerate(ep.bomb.cut) if not c and i + 1 != need[1])


def test_views_show_each_role_only_what_it_senses() -> None:
    ep = _episode("carving-1")
    b = ep.bomb
    deaf, blind, mute = ep.view("deaf"), ep.view("blind"), ep.view("mute")
    assert all(c in deaf for c in b.wires) and "PLATE engraved [unreadable]" in deaf
    assert not any(f"[{c}]" in blind for c in b.wires) and f"PLATE engraved [{b.plate}]" in blind
    assert "LIGHT [unreadable]" in blind and "DISPLAY [unreadable]" in blind
    assert "STRIP engraved" in blind and "STRIP painted" in deaf
    assert "BOMB MANUAL" in mute and "WIRES" not in mute
    position = b.required(1)[1]
    ep.play("blind", [{"call": "act", "op": "cut", "position": position}])
    assert ep.outcome == "defused"
    assert f"{position}:[CUT]" in ep.view("deaf") and f"{position}:[CUT]" in ep.view("blind")


@pytest.mark.parametrize(
    "sender,call,reason",
    [
        ("deaf", {"call": "speak", "to": "deaf", "text": "hi"}, "deaf cannot hear speech"),
        ("blind", {"call": "speak", "to": "deaf", "text": "hi"}, "deaf cannot hear speech"),
        ("mute", {"call": "speak", "to": "blind", "text": "hi"}, "mute cannot speak"),
        (
            "deaf",
            {"call": "gesture", "to": "blind", "symbols": ["fist"]},
            "blind cannot see gestures",
        ),
        (
            "mute",
            {"call": "gesture", "to": "blind", "symbols": ["fist"]},
            "blind cannot see gestures",
        ),
        ("blind", {"call": "gesture", "to": "mute", "symbols": ["fist"]}, "blind cannot gesture"),
        ("deaf", {"call": "act", "op": "cut", "position": 1}, "deaf cannot act on the bomb"),
        ("mute", {"call": "act", "op": "cut", "position": 1}, "mute cannot act on the bomb"),
        (
            "deaf",
            {"call": "gesture", "to": "mute", "symbols": ["seven"]},
            "unknown gesture symbols: seven",
        ),
    ],
)
def test_calls_on_dead_channels_bounce(sender: str, call: dict, reason: str) -> None:
    ep = _episode("base-1")
    ep.play(sender, [call])  # type: ignore[arg-type]
    assert ep.log[-1]["status"] == "bounced" and ep.log[-1]["reason"] == reason
    assert ep.outcome is None and not any(ep.bomb.cut)
    ep.next_round()
    assert [d.kind for r, ds in ep.inbox.items() for d in ds] == ["bounce"]
    assert ep.inbox[sender][0].content == reason  # only the sender is told


def test_deliveries_arrive_next_round_on_live_channels() -> None:
    ep = _episode("base-1")
    ep.play(
        "deaf",
        [
            {"call": "speak", "text": "light is green"},
            {"call": "gesture", "to": "mute", "symbols": ["thumbs_up", "🍎"]},
        ],
    )
    ep.play("blind", [{"call": "speak", "text": "three wires"}])
    assert ep.deliveries("mute") == []  # not before the next round
    ep.next_round()
    mute = [d.line() for d in ep.deliveries("mute")]
    assert mute == ['Deaf: "light is green"', "Deaf: [👍 🍎]", 'Blind: "three wires"']
    assert [d.line() for d in ep.deliveries("blind")] == ['Deaf: "light is green"']
    assert ep.deliveries("deaf") == []  # Deaf hears nothing


def test_a_wrong_cut_explodes_and_the_budget_times_out() -> None:
    ep = _episode("base-2")
    ep.play("blind", [{"call": "act", "op": "cut", "position": _wrong(ep)}])
    assert ep.outcome == "wrong_action"
    ep = _episode("base-1")
    for _ in range(variant("base-1").rounds):
        ep.next_round()
    assert ep.outcome == "timed_out" and ep.round == variant("base-1").rounds


def test_flashing_light_judges_a_cut_by_the_light_at_that_moment() -> None:
    for seed in range(1, 6):
        ep = _episode("flashing-2", seed)
        b = ep.bomb
        answers = {b.light(r): b.required(r) for r in (1, 2, 3)}
        assert len({b.light(r) for r in (1, 2, 3)}) == 3 and b.light(4) == b.light(1)
        if len(set(answers.values())) < 2:
            continue
        late = b.required(1)
        ep.next_round()  # the light moves on
        if b.required(2) != late:
            ep.play("blind", [{"call": "act", "op": "cut", "position": late[1]}])
            assert ep.outcome == "wrong_action"
            return
    pytest.fail("no instance whose answer changes with the light")


def test_flashback_shows_the_sequence_once_and_cuts_follow_it() -> None:
    ep = _episode("flashback-2")
    b = ep.bomb
    assert [b.light(r) for r in (1, 2, 3)] == list(b.flashes)
    assert b.light(4) == "off" and "LIGHT [off]" in b.deaf_view(4)
    for _ in range(3):
        ep.play("blind", [{"call": "act", "op": "cut", "position": b.required(ep.round)[1]}])
    assert ep.outcome == "defused"


def test_shuffle_rotates_the_surviving_wires_after_a_correct_cut() -> None:
    ep = _episode("shuffle-2")
    b = ep.bomb
    before = list(b.wires)
    position = b.required(1)[1]
    ep.play("blind", [{"call": "act", "op": "cut", "position": position}])
    assert ep.outcome is None
    alive = [i for i, c in enumerate(b.cut) if not c]
    old = [before[i] for i in alive]
    assert [b.wires[i] for i in alive] == old[-1:] + old[:-1]
    assert b.wires[position - 1] == before[position - 1]  # the cut wire stays where it was


def test_haystack_noise_changes_and_props_are_fatal() -> None:
    ep = _episode("haystack-2")
    b = ep.bomb
    seen = set()
    for _ in range(6):
        seen.add((b.light(ep.round), b.shown_display()))
        ep.next_round()
    assert len(seen) > 1
    answer = b.required(ep.round)
    assert answer == b.required(1)  # the noise never changes the answer
    ep.play("blind", [{"call": "act", "op": "touch", "position": 1}])
    assert ep.outcome == "wrong_action"


def test_bait_keypad_commits_each_press() -> None:
    ep = _episode("bait-2")
    b = ep.bomb
    first = b.required(1)
    assert first[0] == "press" and "KEYPAD" in ep.view("blind") and "KEYPAD" in ep.view("deaf")
    ep.play("blind", [{"call": "act", "op": "press", "position": first[1]}])
    assert ep.outcome is None and b.entered == [b.keypad[first[1] - 1]]
    wrong = next(k for k in range(1, 5) if ("press", k) != b.required(1))
    ep.play("blind", [{"call": "act", "op": "press", "position": wrong}])
    assert ep.outcome == "wrong_action"


def test_instances_are_deterministic_and_distinct() -> None:
    a, b = generate(variant("base-4"), 3), generate(variant("base-4"), 3)
    assert (a.wires, a.lights, a.display, a.manual) == (b.wires, b.lights, b.display, b.manual)
    c = generate(variant("base-4"), 4)
    assert (a.wires, a.manual) != (c.wires, c.manual)
