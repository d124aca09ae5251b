"""Set-of-marks on simulator frames: every mark's click point reaches its element."""

from __future__ import annotations

import pytest

from gptnt.protocol import Lifecycle, MissionConfig
from gptnt.protocol.client import LifecycleWait
from gptnt.vision import build_marks

sim = pytest.importorskip("gptnt.sim")


def _started(components: list[str]):
    now = [0.0]
    game = sim.Game(clock=lambda: now[0])

    def health() -> str:  # half a second of game time passes between two looks
        now[0] += 0.5
        return game.health()

    LifecycleWait(Lifecycle.SETUP, timeout_s=10).until(health, poll_s=0)
    game.start_mission(MissionConfig(seed=5, time_limit=600, components=components, is_front=True))
    LifecycleWait(Lifecycle.LIGHTS_ON, timeout_s=10).until(health, poll_s=0)
    game.timestep()
    return game


@pytest.mark.parametrize(
    "components",
    [["Wires", "BigButton", "Keypad", "Simon", "Morse"],
     ["Venn", "WireSequence", "Maze", "Password", "Memory"]],
)  # fmt: skip
def test_each_face_mark_zooms_into_its_own_module(components: list[str]) -> None:
    game = _started(components)
    frames = game.buffer()
    marks = build_marks(frames.mask, frames.frames[-1], None)
    assert len(marks.marks) == len(components)
    reached = []
    for label in marks.labels:
        game.action("click", *marks.click_point(label))
        game.timestep()
        focused = game.state().focused
        assert focused is not None, label
        reached.append(focused.name)
        inside = game.buffer()
        zoomed = build_marks(inside.mask, inside.frames[-1], focused.name)
        assert zoomed.marks, focused.name
        assert all(m.region.contains(*m.click) for m in zoomed.marks)
        game.action("out")
        game.timestep()
    assert sorted(reached) == sorted(components)
