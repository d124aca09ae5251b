"""Golden frames: every frame and mask a client can request in a scripted session, byte for
byte, as SHA-256 digests recorded before the renderer was made lazy (issue 27). Any change
to what a client receives fails here; a deliberate change of the look re-records them
(``GPTNT_GOLDEN_PRINT=1`` prints the new table)."""

from __future__ import annotations

import hashlib
import os

import pytest

from gptnt.protocol import Lifecycle, MissionConfig
from gptnt.sim.game import Game

MISSION = {
    "seed": 11, "timeLimit": 300, "numStrikes": 5, "needyTime": 60, "isFront": False,
    "optWidgets": 3, "components": ["Wires", "Keypad", "Simon", "Memory", "Maze", "Venn",
                                    "BigButton", "Password"],
    "timeScale": 1, "timeStepSize": 3000,
}  # fmt: skip

# (action, x, y) between /timesteps; None = a /timestep. Zooms in on modules, presses
# elements, holds and releases, turns the bomb, so frames show strikes, LEDs, covers, the
# cursor highlight, zoomed views and the timer under a minute later on.
SCRIPT: list[tuple[str, float, float] | None] = [
    None, ("click", 0.3, 0.35), None, ("click", 0.45, 0.5), ("click", 0.55, 0.45), None,
    ("out", 0.0, 0.0), None, ("click", 0.5, 0.4), None, ("hold", 0.5, 0.5), None,
    ("release", 0.0, 0.0), None, ("flip", 0.0, 0.0), None, None, ("click", 0.7, 0.4), None,
    ("left", 0.0, 0.0), None, ("up", 0.0, 0.0), None,
]  # fmt: skip


def _session(width: int, height: int, mask_style: str) -> list[str]:
    game = Game(width=width, height=height, transition_seconds=0.0, clock=lambda: 0.0,
                mask_style=mask_style)  # type: ignore[arg-type]  # fmt: skip
    game.start_mission(MissionConfig.model_validate(MISSION))
    game.fast_forward(Lifecycle.LIGHTS_ON)
    digests: list[str] = []

    def record() -> None:
        frames = game.buffer()
        sha = hashlib.sha256()
        for frame in frames.frames:
            sha.update(frame.tobytes())
        sha.update(b"mask" if frames.mask is None else frames.mask.tobytes())
        last = game.buffer(last=2)
        for frame in last.frames:
            sha.update(frame.tobytes())
        digests.append(sha.hexdigest()[:16])

    record()
    for step in SCRIPT:
        if step is None:
            game.timestep()
        else:
            game.action(*step)
        record()
    return digests


GOLDEN: dict[tuple[int, int, str], list[str]] = {
    (640, 480, 'flat'): ['0c247b37b5a815c9', '8a1f2926fe0e94dc', '8a1f2926fe0e94dc', '59fa3b4858a4cd34', '59fa3b4858a4cd34', '59fa3b4858a4cd34', '40fdb4d7215304b7', '40fdb4d7215304b7', 'ebb1a413ff79b20f', 'ebb1a413ff79b20f', '8ccb8b0ffc4ed1f9', '8ccb8b0ffc4ed1f9', '3870bd6a6979c1aa', '3870bd6a6979c1aa', '4193a9caadf10356', '4193a9caadf10356', '4591375f85837772', '787003374914a1c4', '787003374914a1c4', '666efb4af04e2e7d', '666efb4af04e2e7d', 'ea02b5b261cb621d', 'ea02b5b261cb621d', '9dd37194178eece4'],
    (320, 240, 'game'): ['a9982a77b29ce614', '52b8a8f3db9418ee', '52b8a8f3db9418ee', '7f6f2ea07aa0a19d', '7f6f2ea07aa0a19d', '7f6f2ea07aa0a19d', '3d2a6b1c67d92131', '3d2a6b1c67d92131', 'af7e51c15d7d7ba4', 'af7e51c15d7d7ba4', '2bee89506de3f004', '2bee89506de3f004', '794c76d736b33336', '794c76d736b33336', 'd7d47a4a5a3e4b9c', 'd7d47a4a5a3e4b9c', 'd85cf6cc8b9ffc49', '2d19678aa8440842', '2d19678aa8440842', '6843c4860b2260aa', '6843c4860b2260aa', '197e5a2988a67c3b', '197e5a2988a67c3b', 'add399de3946086d'],
}  # fmt: skip


@pytest.mark.parametrize(("width", "height", "style"), sorted(GOLDEN))
def test_every_requested_frame_is_byte_identical_to_the_recorded_one(
    width: int, height: int, style: str
) -> None:
    digests = _session(width, height, style)
    if os.environ.get("GPTNT_GOLDEN_PRINT"):
        print(f"    ({width}, {height}, {style!r}): {digests!r},")
    assert digests == GOLDEN[(width, height, style)]


@pytest.mark.parametrize("record_at", ["actions", "end"])
def test_frames_asked_for_late_are_those_of_their_capture_time(record_at: str) -> None:
    """Frames are rendered only when asked for (or before the bomb changes): a client that asks
    only after its actions, or only at the end, gets the same frames as one asking every time."""
    width, height, style = 640, 480, "flat"
    game = Game(width=width, height=height, transition_seconds=0.0, clock=lambda: 0.0)
    game.start_mission(MissionConfig.model_validate(MISSION))
    game.fast_forward(Lifecycle.LIGHTS_ON)
    asked: dict[int, str] = {}
    for i, step in enumerate(SCRIPT, start=1):
        if step is None:
            game.timestep()
        else:
            game.action(*step)
        if (record_at == "actions" and step is not None) or i == len(SCRIPT):
            frames = game.buffer()
            sha = hashlib.sha256()
            for frame in frames.frames:
                sha.update(frame.tobytes())
            sha.update(b"mask" if frames.mask is None else frames.mask.tobytes())
            for frame in game.buffer(last=2).frames:
                sha.update(frame.tobytes())
            asked[i] = sha.hexdigest()[:16]
    assert asked == {i: GOLDEN[(width, height, style)][i] for i in asked}
