"""The canary: every role tries every channel to every teammate, in five variants and every turn
order; each agent then receives exactly what the paper's Table 1 lets it sense, and nothing else
— Blind gets Mute's gestures blanked but counted (``Mute: [? ?]``), never a glyph."""

from __future__ import annotations

import pytest

from gptnt.sanzaru import TURN_ORDERS, Referee, generate, variant
from gptnt.sanzaru._symbols import GLYPH

VARIANTS = ("base-1", "carving-1", "flashback-1", "haystack-1", "bait-1")
ROLES = ("deaf", "mute", "blind")
# One symbol per (sender, receiver), repeated a different number of times, so that a delivery
# names its route and its count.
SYMBOL = {("deaf", "mute"): "apple", ("deaf", "blind"): "banana", ("mute", "deaf"): "grapes",
          ("mute", "blind"): "clover", ("blind", "deaf"): "moon", ("blind", "mute"): "sun"}  # fmt: skip
COUNT = {("deaf", "mute"): 1, ("mute", "deaf"): 3, ("deaf", "blind"): 2, ("mute", "blind"): 2,
         ("blind", "deaf"): 1, ("blind", "mute"): 1}  # fmt: skip

ALLOWED = {
    "deaf": {"Mute: [" + " ".join([GLYPH["grapes"]] * 3) + "]"},
    "mute": {
        'Deaf: "canary deaf→all"',
        'Deaf: "canary deaf→mute"',
        'Blind: "canary blind→all"',
        'Blind: "canary blind→mute"',
        f"Deaf: [{GLYPH['apple']}]",
    },
    "blind": {'Deaf: "canary deaf→all"', 'Deaf: "canary deaf→blind"', "Mute: [? ? ?]"},
}
"""What each role may receive of the canaries (bounce notices aside)."""


def _every_call(sender: str) -> list[dict]:
    calls: list[dict] = [{"call": "speak", "text": f"canary {sender}→all"}]
    for to in ROLES:
        if to == sender:
            continue
        calls.append({"call": "speak", "to": to, "text": f"canary {sender}→{to}"})
        calls.append(
            {"call": "gesture", "to": to, "symbols": [SYMBOL[sender, to]] * COUNT[sender, to]}
        )
    calls.append({"call": "act", "op": "touch", "position": 99})  # a prop that is not there
    return calls


@pytest.mark.parametrize("vid", VARIANTS)
@pytest.mark.parametrize("order", TURN_ORDERS)
def test_every_role_on_every_channel_leaks_nothing(vid: str, order: tuple[str, ...]) -> None:
    ep = Referee(generate(variant(vid), 1), order=order)  # type: ignore[arg-type]
    assert ep.roles == order
    for role in ep.roles:
        ep.play(role, _every_call(role))
    assert ep.outcome is None
    ep.next_round()
    for role in ROLES:
        got = [d.line() for d in ep.deliveries(role) if d.kind != "bounce"]
        assert set(got) == ALLOWED[role], role
        assert len(got) == len(ALLOWED[role])  # each once
        seen = ep.view(role) + "\n".join(got)
        assert "canary" not in ep.view(role)
        if role == "blind":  # not one glyph of the gesture alphabet reaches Blind
            assert not any(g in seen for g in GLYPH.values())
    bounced = {(e["sender"], e.get("to"), e["call"]) for e in ep.log if e["status"] == "bounced"}
    assert {("mute", "deaf", "speak"), ("mute", "blind", "speak"), ("deaf", "blind", "gesture"),
            ("mute", "blind", "gesture"), ("blind", "deaf", "gesture"), ("blind", "mute", "gesture"),
            ("blind", "deaf", "speak"), ("deaf", None, "act"), ("mute", None, "act")} <= bounced  # fmt: skip


def test_blind_counts_the_blanks_of_each_mute_gesture() -> None:
    ep = Referee(generate(variant("base-3"), 3))
    ep.play("mute", [{"call": "gesture", "to": "deaf", "symbols": ["fist", "point_up"]},
                     {"call": "gesture", "to": "deaf", "symbols": ["fist"] * 5}])  # fmt: skip
    ep.play("deaf", [{"call": "gesture", "to": "mute", "symbols": ["thumbs_up"]}])
    ep.next_round()
    assert [d.line() for d in ep.deliveries("blind")] == ["Mute: [? ?]", "Mute: [? ? ? ? ?]"]
    # Deaf's gestures are Mute's alone: Blind notices none of them (Table 1 shows Mute's only).
    assert [d.line() for d in ep.deliveries("deaf")] == ["Mute: [✊ 👆]", "Mute: [✊ ✊ ✊ ✊ ✊]"]
