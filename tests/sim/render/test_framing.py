"""The camera frames the bomb as the real game does: one geometry test per real frame.

Each real frame in ``../shared/fixtures/real-game/som`` comes with the mask the mod rendered at
the same moment. For each, the simulator renders the same module kind in the same slot (zoomed
in) or a face with the same modules (zoomed out) at the fixture's size, and the bounding boxes of
the mask regions are compared as fractions of the frame: the box around all regions, and, when
the module's elements always sit in the same place (not wires, whose paths are generated), each
region's box in reading order. ``TOLERANCE`` is the largest allowed difference of a box edge; the
worst case measured when it was set was 0.021 (Simon). The tests skip when the fixtures are
absent. Beyond the fixtures: zoomed in on any slot, the timer on that face is whole in the frame,
and its digits show while the Button is held.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from gptnt.rules.ruleset import V1
from gptnt.sim.bomb import Bomb, BombSpec
from gptnt.sim.render.compositor import Compositor, Scene
from gptnt.sim.render.real_frames import REAL_FRAMES, RealFrame, lookalike

SOM = Path(__file__).resolve().parents[3] / ".." / "shared" / "fixtures" / "real-game" / "som"
TOLERANCE = 0.025  # of the frame's width (x) or height (y): 13 px at 512, 16 px at 640
Boxes = list[tuple[float, float, float, float]]
ZOOMED = [f for f in REAL_FRAMES if f.kind is not None]
FACES = [f for f in REAL_FRAMES if f.kind is None]


def regions(mask: np.ndarray, min_pixels: int = 30) -> Boxes:
    """Bounding boxes (fractions of the frame) of the mask's regions, in reading order. Pixels
    blended with black at the edges are grouped with their region by normalising each pixel by
    its brightest channel (as the set-of-marks pipeline does)."""
    rgb = mask[..., :3].astype(np.int32)
    h, w = rgb.shape[:2]
    peak = rgb.max(axis=2)
    lit = peak > 0
    hue = np.zeros_like(rgb)
    hue[lit] = rgb[lit] * 255 // peak[lit, None] // 32
    keys = (hue[..., 0] * 64 + hue[..., 1] * 8 + hue[..., 2])[lit]
    labels, counts = np.unique(keys, return_counts=True)
    ys_all, xs_all = np.nonzero(lit)
    boxes = []
    for label, count in zip(labels, counts, strict=True):
        if count < min_pixels:
            continue
        pick = keys == label
        xs, ys = xs_all[pick], ys_all[pick]
        boxes.append((xs.min() / w, ys.min() / h, (xs.max() + 1) / w, (ys.max() + 1) / h))
    return sorted(boxes, key=lambda b: (round((b[1] + b[3]) / 2 / 0.04), b[0]))


def union(boxes: Boxes) -> tuple[float, float, float, float]:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _fixture(name: str) -> np.ndarray:
    path = SOM / f"{name}-segm.png"
    if not path.exists():
        pytest.skip("shared fixtures absent (../shared/fixtures/real-game/som)")
    return np.asarray(Image.open(path).convert("RGB"))


def ours(frame: RealFrame, size: tuple[int, int], t: float = 0.0) -> tuple[Boxes, object]:
    """Our mask's region boxes for a bomb laid out like ``frame``, and the picture."""
    seen = lookalike(frame)
    picture = Compositor(*size).render(Scene(seen.bomb, seen.side, seen.focused, t))
    mask = picture.mask()
    assert mask is not None
    return regions(mask), picture


def assert_close(real: Boxes, mine: Boxes, what: str, *, each: bool = True) -> None:
    worst = float(np.abs(np.subtract(union(real), union(mine))).max())
    assert worst <= TOLERANCE, (
        f"{what}: elements span {np.round(union(mine), 3)}, the game's {np.round(union(real), 3)}"
    )
    if each:
        assert len(real) == len(mine), f"{what}: {len(mine)} regions, the game's {len(real)}"
        for i, (a, b) in enumerate(zip(real, mine, strict=True)):
            off = float(np.abs(np.subtract(a, b)).max())
            assert off <= TOLERANCE, (
                f"{what}: region {i} at {np.round(b, 3)}, the game's {np.round(a, 3)}"
            )


@pytest.mark.parametrize("frame", ZOOMED, ids=[f.name for f in ZOOMED])
def test_zoomed_in_geometry_matches_the_real_frame(frame: RealFrame) -> None:
    real_mask = _fixture(frame.name)
    size = (real_mask.shape[1], real_mask.shape[0])
    mine, _ = ours(frame, size)
    assert_close(regions(real_mask), mine, frame.name, each=frame.wires is None)


@pytest.mark.parametrize("frame", FACES, ids=[f.name for f in FACES])
def test_zoomed_out_face_matches_the_real_frame(frame: RealFrame) -> None:
    real_mask = _fixture(frame.name)
    mine, _ = ours(frame, (real_mask.shape[1], real_mask.shape[0]))
    assert_close(regions(real_mask), mine, frame.name)


def test_the_geometry_holds_at_640_by_480() -> None:
    """The harness plays at 640×480: the same boxes, as fractions, as at the fixtures' 512×384."""
    for frame in (FACES[0], ZOOMED[1]):
        small, _ = ours(frame, (512, 384))
        large, _ = ours(frame, (640, 480))
        assert len(small) == len(large)
        assert np.abs(np.subtract(small, large)).max() <= 0.005


def _timer_box(bomb: Bomb, compositor: Compositor, focused: object) -> tuple[int, int, int, int]:
    layout = compositor.layout
    placement = layout.zoomed_in(focused.slot.index, bomb.timer_slot.index)  # type: ignore[attr-defined]
    return layout.slot_box(bomb.timer_slot.index, placement)


@pytest.mark.parametrize("size", [(640, 480), (512, 384), (854, 480), (480, 480)])
def test_zoomed_in_on_any_slot_the_timer_is_whole_in_the_frame(size: tuple[int, int]) -> None:
    compositor = Compositor(*size)
    seen = set()
    for seed in range(400):
        bomb = Bomb.generate(BombSpec(seed=seed, components=("Keypad",), front_only=True), V1)
        engine = bomb.modules[0]
        pair = (engine.slot.index, bomb.timer_slot.index)
        if pair in seen:
            continue
        seen.add(pair)
        x0, y0, x1, y1 = _timer_box(bomb, compositor, engine)
        assert x0 >= 0 and x1 <= size[0] and y0 >= 0 and y1 <= size[1], (pair, size)
        picture = compositor.render(Scene(bomb, "front", engine, 0.0))
        ys, xs = np.nonzero(picture.ids)  # the focused module's elements are whole too
        assert xs.min() > 0 and xs.max() < size[0] - 1 and ys.min() > 0 and ys.max() < size[1] - 1
    assert len(seen) == 30  # every (module slot, timer slot) pair of a face


def test_holding_the_button_shows_the_timers_digits() -> None:
    from gptnt.sim.render.faces import DIGIT_ON

    compositor = Compositor(640, 480)
    for seed in range(400):
        bomb = Bomb.generate(BombSpec(seed=seed, components=("BigButton",)), V1)
        button = bomb.modules[0]
        if abs(button.slot.index % 3 - bomb.timer_slot.index % 3) == 2:
            break  # the hardest case: the timer two columns away
    button.press("button", 1.0)
    bomb.advance(1.5)
    picture = compositor.render(Scene(bomb, "front", button, 1.5))
    x0, y0, x1, y1 = _timer_box(bomb, compositor, button)
    lit = (np.abs(picture.image[y0:y1, x0:x1].astype(int) - DIGIT_ON).max(axis=2) < 40).sum()
    assert lit > 300, f"{lit} lit digit pixels in the timer at {(x0, y0, x1, y1)}"
    digits = (np.abs(picture.image.astype(int) - DIGIT_ON).max(axis=2) < 40).sum()
    assert digits == lit  # and the lit segments are the timer's, nowhere else
