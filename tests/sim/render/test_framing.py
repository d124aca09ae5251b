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

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from gptnt.rules.ruleset import V1
from gptnt.sim.bomb import Bomb, BombSpec
from gptnt.sim.render.compositor import Compositor, Scene

SOM = Path(__file__).resolve().parents[3] / ".." / "shared" / "fixtures" / "real-game" / "som"
TOLERANCE = 0.025  # of the frame's width (x) or height (y): 13 px at 512, 16 px at 640
Boxes = list[tuple[float, float, float, float]]


@dataclass(frozen=True)
class Shot:
    """One real frame: the module kind zoomed into, its slot, where the timer is."""

    fixture: str
    kind: str
    slot: int
    timer_on_face: bool  # the timer is on the face looked at (else it is on the other face)
    wires: int | None = None  # wire kinds: as many wires as the real module has (paths vary)


SHOTS = [
    Shot("button", "BigButton", 3, True),
    Shot("keypad", "Keypad", 4, False),
    Shot("maze", "Maze", 2, True),
    Shot("memory", "Memory", 1, False),
    Shot("morse", "Morse", 2, False),
    Shot("password", "Password", 0, True),
    Shot("simon", "Simon", 0, False),
    Shot("venn-6", "Venn", 1, True, wires=6),
    Shot("whoseonfirst", "WhosOnFirst", 5, False),
    Shot("wires-6", "Wires", 1, True, wires=6),
    Shot("wireseq", "WireSequence", 5, True, wires=3),
]


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


def bomb_for(shot: Shot) -> tuple[Bomb, object]:
    """A seeded bomb with ``shot.kind`` in ``shot.slot`` on the timer's face or the other one."""
    for seed in range(2000):
        spec = BombSpec(seed=seed, components=(shot.kind,), front_only=shot.timer_on_face)
        bomb = Bomb.generate(spec, V1)
        engine = bomb.modules[0]
        on_timer_face = engine.slot.on_front == bomb.timer_slot.on_front
        if engine.slot.index != shot.slot or on_timer_face != shot.timer_on_face:
            continue
        if shot.wires is not None and len(engine.elements()) != shot.wires + (shot.wires == 3) * 2:
            continue  # Wire Sequence: three wires on the panel plus its two buttons
        if shot.timer_on_face and bomb.timer_slot.index != 4:
            continue  # every real frame with the timer in view has it bottom-middle
        return bomb, engine
    raise AssertionError(f"no seed puts {shot.kind} in slot {shot.slot}")


def ours(shot: Shot, size: tuple[int, int]) -> Boxes:
    bomb, engine = bomb_for(shot)
    side = "front" if engine.slot.on_front else "back"  # type: ignore[attr-defined]
    picture = Compositor(*size).render(Scene(bomb, side, engine, 0.0))  # type: ignore[arg-type]
    mask = picture.mask()
    assert mask is not None
    return regions(mask)


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


@pytest.mark.parametrize("shot", SHOTS, ids=[s.fixture for s in SHOTS])
def test_zoomed_in_geometry_matches_the_real_frame(shot: Shot) -> None:
    real_mask = _fixture(shot.fixture)
    size = (real_mask.shape[1], real_mask.shape[0])
    assert_close(regions(real_mask), ours(shot, size), shot.fixture, each=shot.wires is None)


def _face_like(fixture: str) -> tuple[Bomb, str]:
    """A seeded bomb whose face looks like the real one: bomb-5 shows five modules with the
    Button bottom-left and the timer bottom-middle; bomb-6 six modules (the timer behind)."""
    for seed in range(5000):
        if fixture == "bomb-5":
            kinds = ("BigButton", "Wires", "Keypad", "Maze", "Password")
            bomb = Bomb.generate(BombSpec(seed=seed, components=kinds, front_only=True), V1)
            button = bomb.modules[0]
            if button.slot.index == 3 and bomb.timer_slot.index == 4:
                return bomb, "front"
        else:
            kinds = ("Wires", "Keypad", "Maze", "Password", "Simon", "Memory", "Morse")
            bomb = Bomb.generate(BombSpec(seed=seed, components=kinds), V1)
            if len(bomb.modules_on_face(False)) == 6:
                return bomb, "back"
    raise AssertionError(f"no seed gives a face like {fixture}")


@pytest.mark.parametrize("fixture", ["bomb-5", "bomb-6"])
def test_zoomed_out_face_matches_the_real_frame(fixture: str) -> None:
    real = regions(_fixture(fixture))
    bomb, side = _face_like(fixture)
    mask = Compositor(512, 384).render(Scene(bomb, side, None, 0.0)).mask()  # type: ignore[arg-type]
    assert mask is not None
    assert_close(real, regions(mask), fixture)


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
        assert 0 <= x0 and x1 <= size[0] and 0 <= y0 and y1 <= size[1], (pair, size)
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
