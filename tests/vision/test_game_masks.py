"""Set-of-marks on masks as the real game can send them: anti-aliased edges, touching elements
with blended seams, rounding variants of an element's colour, a mask a frame ahead of the
picture. Exactly one label per element; no click point on a seam."""

from __future__ import annotations

import colorsys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from gptnt.vision import build_marks, find_regions


def _hsv(i: int, n: int) -> np.ndarray:
    return np.array([round(255 * c) for c in colorsys.hsv_to_rgb(i / n, 1.0, 1.0)], float)


def _keypad(
    *, gap: int = 0, offset: int = 0, size: int = 48, origin: int = 20, sub: int = 2
) -> tuple[np.ndarray, np.ndarray]:
    """Four keys in a 2×2 grid (``gap`` px apart; 0 = touching), each in its HSV(i/4) colour,
    rendered 4× supersampled and box-filtered, placed ``sub``/4 px off the pixel grid: edges
    blend with black, shared edges blend with the neighbour's colour. Returns the mask and the
    element id of each pixel (-1 none)."""
    scale = 4
    h = w = (origin * 2 + 2 * size + gap) * scale
    ids = np.full((h, w), -1, np.int32)
    for k in range(4):
        row, col = divmod(k, 2)
        y0 = (origin + offset + row * (size + gap)) * scale + sub
        x0 = (origin + offset + col * (size + gap)) * scale + sub
        ids[y0 : y0 + size * scale, x0 : x0 + size * scale] = k
    colours = np.stack([_hsv(k, 4) for k in range(4)])
    big = np.where(ids[..., None] >= 0, colours[np.maximum(ids, 0)], 0.0)
    small = big.reshape(h // scale, scale, w // scale, scale, 3).mean(axis=(1, 3))
    owner = ids[scale // 2 :: scale, scale // 2 :: scale]
    return np.rint(small).astype(np.uint8), owner


def _rounding_variants(mask: np.ndarray, owner: np.ndarray, rng: np.random.Generator) -> None:
    """Per element a patch of 30–60 px whose colour is off by one level (127 next to 128)."""
    for k in range(owner.max() + 1):
        ys, xs = np.nonzero(owner == k)
        cy, cx = int(np.median(ys)), int(np.median(xs))
        n = int(rng.integers(30, 61))
        side = int(np.ceil(np.sqrt(n)))
        patch = mask[cy - side : cy, cx - side : cx].reshape(-1, 3)[:n]
        mid = (patch > 0) & (patch < 255)
        patch[mid] -= 1
        patch[~mid.any(axis=1), 1] += 1  # a pure hue: a stray level in a zero channel
        mask[cy - side : cy, cx - side : cx].reshape(-1, 3)[:n] = patch


def _seam(mask: np.ndarray) -> np.ndarray:
    """Pixels whose colour is a mix of two element colours (neither black nor flat)."""
    rgb = mask.astype(int)
    flat = (rgb.max(axis=-1) == 255) & (rgb.min(axis=-1) == 0)
    return (rgb.max(axis=-1) > 0) & ~flat


@pytest.mark.parametrize("seed", range(6))
def test_touching_keys_with_blended_seams_and_rounding_variants_give_four_labels(
    seed: int,
) -> None:
    rng = np.random.default_rng(seed)
    mask, owner = _keypad(gap=0, offset=int(rng.integers(0, 3)))
    _rounding_variants(mask, owner, rng)
    assert len(np.unique(mask.reshape(-1, 3), axis=0)) > 8  # blends and variants are there
    marks = build_marks(mask, np.full_like(mask, 80), "Keypad")
    assert marks.labels == ("A", "B", "C", "D")
    seam = _seam(mask)
    for mark, key in zip(marks.marks, range(4), strict=True):
        x, y = mark.click
        assert owner[y, x] == key  # reading order: TL, TR, BL, BR
        assert not seam[y, x]
        assert not seam[y - 1 : y + 2, x - 1 : x + 2].any()  # not even next to a seam


def test_old_behaviour_would_have_labelled_the_seams() -> None:
    """The blended seam between two touching keys is a colour of its own covering more than
    10 px: a region per colour would letter it (the bug this guards against)."""
    mask, _ = _keypad(gap=0)
    rgb = mask.reshape(-1, 3).astype(int)
    lit = rgb[rgb.max(axis=1) >= 24]
    stretched = (
        (lit - lit.min(axis=1, keepdims=True))
        * 255
        // np.maximum(lit.max(axis=1, keepdims=True) - lit.min(axis=1, keepdims=True), 1)
    )
    _, counts = np.unique(stretched, axis=0, return_counts=True)
    assert (counts > 10).sum() > 4
    assert len(find_regions(mask)) == 4


def test_keys_a_pixel_apart_and_thin_wires_stay_themselves() -> None:
    mask, _ = _keypad(gap=1)
    assert len(find_regions(mask)) == 4
    wires = np.zeros((60, 80, 3), np.uint8)
    wires[10:50, 20:22] = (255, 0, 0)  # 2 px wide, on black: thin but not a seam
    wires[10:50, 40:42] = (0, 255, 255)
    assert sorted(r.colour for r in find_regions(wires)) == [(0, 255, 255), (255, 0, 0)]


def test_a_mask_a_frame_ahead_still_gives_one_label_per_key() -> None:
    """During a zoom the mask can show the next moment: the keys a few pixels on. The labels
    follow the mask (the game hit-tests the scene the mask shows)."""
    now, _ = _keypad(gap=0, offset=0)
    ahead, owner = _keypad(gap=0, offset=3)
    marks = build_marks(ahead, np.full_like(now, 80), "Keypad")
    assert len(marks.marks) == 4
    assert [owner[m.click[1], m.click[0]] for m in marks.marks] == [0, 1, 2, 3]


def test_a_grey_blend_of_opposite_hues_is_no_element() -> None:
    mask = np.zeros((40, 80, 3), np.uint8)
    mask[5:35, 5:39] = (255, 0, 0)
    mask[5:35, 41:75] = (0, 255, 255)
    mask[5:35, 39:41] = (128, 128, 128)  # red + cyan, half and half: no hue
    regions = find_regions(mask)
    assert sorted(r.colour for r in regions) == [(0, 255, 255), (255, 0, 0)]
    assert sum(r.ys.size for r in regions) == 2 * 30 * 34 + 60  # the seam went to a neighbour


# ----------------------------------------------------------------------------- fixture frames

SOM = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "real-game" / "som"

# Interactables in each real frame, counted on the screenshot (not from the mask).
ELEMENTS = {
    "bomb-5": 5, "bomb-6": 6, "button": 1, "keypad": 4, "maze": 4, "memory": 4, "morse": 3,
    "password": 11, "simon": 4, "venn-6": 6, "whoseonfirst": 6, "wires-6": 6, "wireseq": 5,
}  # fmt: skip


def _fixture_masks() -> list[str]:
    return sorted(p.name.removesuffix("-segm.png") for p in SOM.glob("*-segm.png"))


def _blurred(mask: np.ndarray, shift: int) -> np.ndarray:
    """The mask as an anti-aliasing renderer would give it: 2× up, moved ``shift``/2 px, 2×2
    box-filtered down (every edge blends with black or with the touching neighbour)."""
    big = np.repeat(np.repeat(mask.astype(float), 2, axis=0), 2, axis=1)
    big = np.roll(big, shift, axis=(0, 1))
    h, w = mask.shape[:2]
    return np.rint(big.reshape(h, 2, w, 2, 3).mean(axis=(1, 3))).astype(np.uint8)


@pytest.mark.fixtures
@pytest.mark.parametrize("name", _fixture_masks() or ["absent"])
def test_one_label_per_element_on_every_fixture_frame(name: str) -> None:
    if not SOM.is_dir():
        pytest.skip("../shared/fixtures/real-game/som is absent")
    mask = np.asarray(Image.open(SOM / f"{name}-segm.png").convert("RGB"))
    assert len(find_regions(mask)) == ELEMENTS[name]
    rng = np.random.default_rng(len(name))
    game_like = _blurred(mask, shift=1)
    owner = np.full(mask.shape[:2], -1)
    for k, region in enumerate(find_regions(mask)):
        owner[region.ys, region.xs] = k
    _rounding_variants(game_like, owner, rng)
    regions = find_regions(game_like)
    assert len(regions) == ELEMENTS[name]
    for region in regions:  # each click lands on one element of the flat mask
        x, y = region.click
        assert owner[y, x] >= 0
