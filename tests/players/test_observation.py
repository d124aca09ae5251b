"""The Defuser's images: previous frame unmarked, Simon/Morse sequences, newest frame marked."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from gptnt.players import observe
from gptnt.players.observation import ModelObservation
from gptnt.vision import build_marks


def build_observation(frames, mask, kind, *, previous, image_size, marked=True) -> ModelObservation:  # type: ignore[no-untyped-def]
    """A turn's images as the model policy builds them: marks from the newest frame's mask."""
    marks = build_marks(mask, frames[-1], kind) if marked and mask is not None else None
    return observe(frames, marks, kind, previous=previous, image_size=image_size)


def _frames(n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(3)
    return [rng.integers(0, 255, (120, 160, 3), dtype=np.uint8) for _ in range(n)]


def _mask() -> np.ndarray:
    mask = np.zeros((120, 160, 3), dtype=np.uint8)
    mask[20:40, 20:60] = (255, 0, 0)
    mask[70:100, 90:150] = (0, 255, 0)
    return mask


def _size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def test_plain_module_gets_previous_and_marked_newest() -> None:
    frames = _frames(16)
    previous = _frames(1)[0] // 2
    obs = build_observation(frames, _mask(), "Wires", previous=[previous], image_size=(448, 448))
    assert [a.caption.split()[1] for a in obs.attachments] == ["last", "newest"]
    assert all(_size(a.png) == (448, 448) for a in obs.attachments)
    assert obs.marks is not None and obs.marks.labels == ("A", "B")
    # The previous frame is shown without marks; the newest one with them.
    unmarked = build_observation([previous], None, None, previous=[], image_size=(448, 448))
    assert np.array_equal(_pixels(obs.attachments[0].png), _pixels(unmarked.attachments[0].png))
    raw_newest = build_observation(frames[-1:], None, None, previous=[], image_size=(448, 448))
    assert not np.array_equal(
        _pixels(obs.attachments[-1].png), _pixels(raw_newest.attachments[0].png)
    )
    assert np.array_equal(obs.newest, frames[-1])


def test_simon_and_morse_get_the_sequence() -> None:
    for kind in ("Simon", "Morse"):
        obs = build_observation(
            _frames(16), _mask(), kind, previous=[_frames(1)[0]], image_size=(640, 480)
        )
        assert len(obs.attachments) == 1 + 15 + 1
        assert "1 of 16" in obs.attachments[1].caption


def test_first_turn_has_no_previous_frame() -> None:
    obs = build_observation(_frames(2), _mask(), None, previous=[], image_size=(160, 120))
    assert len(obs.attachments) == 1


def test_coordinates_players_get_no_marks() -> None:
    obs = build_observation(_frames(1), _mask(), "Keypad", previous=[], image_size=(160, 120),
                            marked=False)  # fmt: skip
    assert obs.marks is None
    assert np.array_equal(_pixels(obs.attachments[0].png), _frames(1)[0])


def test_earlier_turns_frames_come_oldest_first_unmarked_and_captioned_by_age() -> None:
    """``previous_frames: 3``: the last frame of each of three earlier turns, the oldest first,
    each exactly the unmarked frame of its turn, then the newest frame with its marks."""
    earlier = [f // (i + 2) for i, f in enumerate(_frames(3))]
    obs = build_observation(_frames(2), _mask(), "Wires", previous=earlier, image_size=(160, 120))
    captions = [a.caption for a in obs.attachments]
    assert captions[:3] == [
        "The last picture of your turn 3 turns ago (no markers):",
        "The last picture of your turn 2 turns ago (no markers):",
        "The last picture of your previous turn (no markers):",
    ]
    assert "location markers" in captions[3]
    for frame, attachment in zip(earlier, obs.attachments, strict=False):
        assert np.array_equal(_pixels(attachment.png), frame)
