"""Our masks against the real game's, one test per real mask fixture (docs/mechanics-audit.md,
"Segmentation, lottery and protocol against the shipped mod's IL").

For each real mask: how many objects the mod coloured (the hue spacing 1/N), how many regions
GPTNT's set-of-marks finds on it, and that the simulator's mask of the same module — flat and
``--mask-style game`` — has the same N, the same colour values and the same GPTNT region count.
GPTNT's count is re-implemented here from its description: stretch each pixel's channels to
0…255 (undoing any blend with black), group pixels by the stretched colour, drop black, count
the groups of more than 10 pixels.
"""

from __future__ import annotations

import colorsys
import functools
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from gptnt.protocol import ModuleKind
from gptnt.rules.ruleset import V1
from gptnt.sim.bomb import Bomb, BombSpec
from gptnt.sim.mask_style import game_mask
from gptnt.sim.render.compositor import Compositor, Picture, Scene, hsv_palette

SOM = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "real-game" / "som"

MIN_AREA = 10  # GPTNT drops regions of this many pixels or fewer

# fixture: (module kind or None for the zoomed-out face, elements the simulator's view must
# have, objects the mod coloured, regions on the real mask)
FIXTURES: dict[str, tuple[ModuleKind | None, int, int, int]] = {
    "bomb-5": (None, 5, 5, 5),
    "bomb-6": (None, 6, 6, 6),
    "button": ("BigButton", 1, 1, 1),
    "keypad": ("Keypad", 4, 4, 4),
    "maze": ("Maze", 4, 4, 4),
    "memory": ("Memory", 4, 4, 4),
    "morse": ("Morse", 3, 3, 3),
    "password": ("Password", 11, 11, 11),
    "simon": ("Simon", 4, 4, 4),
    "venn-6": ("Venn", 6, 12, 6),
    "whoseonfirst": ("WhosOnFirst", 6, 6, 6),
    "wires-6": ("Wires", 6, 6, 6),
    "wireseq": ("WireSequence", 5, 5, 5),
}
_FILLER: tuple[ModuleKind, ...] = ("Wires", "Keypad", "Maze", "Password", "Simon")


def gptnt_region_count(mask: np.ndarray) -> int:
    values = mask.reshape(-1, 3).astype(np.float32)
    low, high = values.min(axis=1, keepdims=True), values.max(axis=1, keepdims=True)
    span = np.where(high > low, high - low, np.maximum(high, 1.0))
    stretched = np.where(high > 0, (values - low) / span * 255.0, 0.0).astype(np.uint8)
    keys = (stretched[:, 0].astype(np.uint32) << 16) | (stretched[:, 1].astype(np.uint32) << 8)
    keys |= stretched[:, 2]
    groups, counts = np.unique(keys, return_counts=True)
    return int(((groups != 0) & (counts > MIN_AREA)).sum())


def object_count(mask: np.ndarray) -> int:
    """The smallest N for which every full-value colour's hue is a multiple of 1/N."""
    hues = [colorsys.rgb_to_hsv(*(np.array(c) / 255.0))[0] for c in _colours(mask) if max(c) == 255]
    return next(n for n in range(1, 64) if all(abs(h * n - round(h * n)) < 0.02 for h in hues))


def _colours(mask: np.ndarray) -> set[tuple[int, ...]]:
    rgb = mask.reshape(-1, 3).astype(np.uint32)
    keys = np.unique((rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2])
    return {(int(k) >> 16, (int(k) >> 8) & 255, int(k) & 255) for k in keys if k}


def _real(name: str) -> np.ndarray:
    if not SOM.is_dir():
        pytest.skip("../shared/fixtures/real-game/som is absent")
    return np.asarray(Image.open(SOM / f"{name}-segm.png").convert("RGB"))


def simulated(kind: ModuleKind | None, elements: int) -> Picture:
    """The first seeded bomb whose view of ``kind`` (zoomed in; None: the front face of a
    ten-module bomb, either side) has ``elements`` elements, at 512×384 like the fixtures."""
    compositor = Compositor(512, 384)
    for seed in range(200):
        if kind is None:
            bomb = Bomb.generate(BombSpec(seed=seed, components=_FILLER * 2), V1)
            side = "front" if len(bomb.modules_on_face(True)) == elements else "back"
            picture = compositor.render(Scene(bomb, side, None, 5.0))
        else:
            bomb = Bomb.generate(BombSpec(seed=seed, components=(kind,)), V1)
            (engine,) = bomb.modules
            bomb.advance(5.0)
            side = "front" if engine.slot.on_front else "back"
            picture = compositor.render(Scene(bomb, side, engine, 5.0))
        if len(picture.targets) == elements:
            return picture
    raise AssertionError(f"no bomb of 200 gives {kind} with {elements} elements")


@functools.cache
def _simulated(name: str) -> Picture:
    kind, elements, _, _ = FIXTURES[name]
    return simulated(kind, elements)


@pytest.mark.fixtures
@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_our_masks_have_the_real_masks_objects_colours_and_region_count(name: str) -> None:
    _, _, objects, regions = FIXTURES[name]
    real = _real(name)
    assert (object_count(real), gptnt_region_count(real)) == (objects, regions)
    assert _colours(real) <= {tuple(int(v) for v in c) for c in hsv_palette(objects)[1:]}

    picture = _simulated(name)
    flat = picture.mask()
    assert flat is not None
    game = game_mask(picture.ids, picture.colours())
    for mask in (flat, game):
        assert object_count(mask) == objects
        assert gptnt_region_count(mask) == regions
    assert _colours(flat) <= {tuple(int(v) for v in c) for c in hsv_palette(objects)[1:]}


@pytest.mark.fixtures
@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_game_style_blends_only_where_an_element_meets_the_background(name: str) -> None:
    """The real masks' one kind of blend: an edge pixel next to black, its colour scaled
    towards black; never a mix of two elements."""
    picture = _simulated(name)
    flat, game = picture.mask(), game_mask(picture.ids, picture.colours())
    assert flat is not None
    changed = (game != flat).any(axis=-1)
    assert changed.any()
    ids = np.pad(picture.ids, 1, mode="edge")
    near_black = np.zeros(changed.shape, bool)
    for shifted in (ids[:-2, 1:-1], ids[2:, 1:-1], ids[1:-1, :-2], ids[1:-1, 2:]):
        near_black |= shifted == 0
    assert (near_black & (picture.ids != 0))[changed].all()
    ratio = game[changed].max(axis=-1) / flat[changed].max(axis=-1)
    assert ratio.min() >= 0.24 and ratio.max() <= 0.76
