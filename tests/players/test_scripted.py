"""Scripted policies on their own: the oracle Expert's answers, tag pairing, timer reading."""

from __future__ import annotations

import json

import numpy as np

from gptnt.players.actions import DoNothing, SendMessage
from gptnt.players.policy import TurnInput
from gptnt.players.scripted import (
    IdleExpert,
    OracleDefuser,
    OracleExpert,
    RandomDefuser,
    element_marks,
    scripted_policy,
)
from gptnt.protocol import WiresModule, timer_text
from gptnt.vision import build_marks

SERIAL = {"name": "SerialNumber", "position": "top", "serialNumber": "AB3DE4"}


def _describe(tag: int, module: WiresModule) -> str:
    payload = {"module": module.to_wire(), "widgets": [SERIAL], "strikes": 0}
    return f"Module Wires. What do I do?\n#{tag} {json.dumps(payload)}"


def _wires(*colours: str) -> WiresModule:
    wires = [{"position": i, "color": c} for i, c in enumerate(colours)]
    return WiresModule.model_validate({"onFront": True, "index": 0, "wires": wires})


async def test_oracle_expert_answers_the_latest_description_with_tagged_steps() -> None:
    expert = OracleExpert()
    old, new = (
        _describe(1, _wires("red", "red", "red")),
        _describe(2, _wires("blue", "blue", "blue")),
    )
    decision = await expert.decide(TurnInput("expert", 0, "sync", [old, new]))
    assert isinstance(decision.action, SendMessage)
    first, last = decision.action.message.splitlines()
    assert first.startswith("#2: ")
    steps = json.loads(last.removeprefix("#2 "))
    # Three wires, no red wire: cut the second wire (the v1 manual).
    assert steps == [{"kind": "press", "element": "wire-1"}]


async def test_oracle_expert_without_a_description_waits() -> None:
    decision = await OracleExpert().decide(TurnInput("expert", 0, "sync", ["hello?"]))
    assert isinstance(decision.action, DoNothing)


async def test_oracle_defuser_ignores_answers_to_an_older_description() -> None:
    defuser = OracleDefuser()
    defuser._asked, defuser._waiting = 2, True
    defuser._take_instructions(['#1: press wire-0.\n#1 [{"kind": "press", "element": "wire-0"}]'])
    assert defuser._waiting and not defuser._steps
    defuser._take_instructions(['#2: press wire-1.\n#2 [{"kind": "press", "element": "wire-1"}]'])
    assert not defuser._waiting and [s.element for s in defuser._steps] == ["wire-1"]


def test_timer_text_matches_the_bomb_display() -> None:
    assert timer_text(300) == "05:00"
    assert timer_text(61.9) == "01:01"
    assert timer_text(59.999) == "59.99"
    assert timer_text(3.05) == "03.05"
    assert timer_text(-1) == "00.00"


def test_element_marks_read_the_segmentation_hue() -> None:
    # Four elements painted with HSV(i/4): red, chartreuse, cyan, violet, left to right.
    colours = [(255, 0, 0), (128, 255, 0), (0, 255, 255), (128, 0, 255)]
    mask = np.zeros((40, 160, 3), dtype=np.uint8)
    order = [2, 0, 3, 1]  # painted out of order on screen
    for slot, element in enumerate(order):
        mask[10:30, slot * 40 + 5 : slot * 40 + 35] = colours[element]
    marks = build_marks(mask, np.zeros_like(mask), "Keypad")
    by_element = element_marks(marks, 4)
    assert [by_element[e] for e in order] == ["A", "B", "C", "D"]


async def test_random_defuser_is_seeded_and_idle_expert_is_silent() -> None:
    turn = TurnInput("defuser", 0, "sync", [])
    a = [(await RandomDefuser(seed=5).decide(turn)).action for _ in range(1)]
    b = [(await RandomDefuser(seed=5).decide(turn)).action for _ in range(1)]
    assert a == b
    assert isinstance(
        (await IdleExpert().decide(TurnInput("expert", 0, "sync", []))).action, DoNothing
    )
    assert scripted_policy("expert", "idle").name == "idle"
