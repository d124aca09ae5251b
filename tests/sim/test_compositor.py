"""The compositor: views, masks coloured like the mod's, hit-testing on the same pixels, LEDs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from gptnt.protocol import MODULE_KINDS
from gptnt.rules.ruleset import V1
from gptnt.sim.bomb import Bomb, BombSpec
from gptnt.sim.render.compositor import Compositor, Scene, hsv_palette, led_colour
from gptnt.sim.render.faces import LED_GREEN, LED_OFF, LED_RED
from gptnt.sim.render.framing import FaceLayout

FIXTURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "real-game" / "som"


def _bomb(components: tuple[str, ...], seed: int = 3, front_only: bool = False) -> Bomb:
    return Bomb.generate(BombSpec(seed=seed, components=components, front_only=front_only), V1)


def _colours(mask: np.ndarray, min_pixels: int = 50) -> set[tuple[int, int, int]]:
    colours, counts = np.unique(mask.reshape(-1, 3), axis=0, return_counts=True)
    return {tuple(int(v) for v in c) for c, n in zip(colours, counts) if n >= min_pixels} - {
        (0, 0, 0)
    }


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, [(255, 0, 0)]),
        (3, [(255, 0, 0), (0, 255, 0), (0, 0, 255)]),
        (4, [(255, 0, 0), (128, 255, 0), (0, 255, 255), (128, 0, 255)]),
        (5, [(255, 0, 0), (204, 255, 0), (0, 255, 102), (0, 102, 255), (204, 0, 255)]),
    ],
)
def test_palette_matches_the_mods_colours(n: int, expected: list[tuple[int, int, int]]) -> None:
    palette = hsv_palette(n)
    assert tuple(palette[0]) == (0, 0, 0)
    assert [tuple(int(v) for v in row) for row in palette[1 : n + 1]] == expected


def test_face_mask_regions_are_the_hit_targets_in_component_order() -> None:
    bomb = _bomb(("Wires", "Keypad", "Maze", "Password"), front_only=True)
    picture = Compositor().render(Scene(bomb, "front", None, 0.0))
    assert list(picture.targets) == list(bomb.modules)
    mask = picture.mask()
    assert mask is not None and mask.shape == (480, 640, 3)
    palette = hsv_palette(4)
    for k, engine in enumerate(bomb.modules):
        ys, xs = np.nonzero((mask == palette[k + 1]).all(axis=2))
        assert len(xs) > 1000
        x, y = int(np.median(xs)), int(np.median(ys))
        assert picture.hit(x, y) is engine
    assert picture.hit(0, 0) is None


def test_back_face_shows_back_modules_only() -> None:
    bomb = _bomb(tuple(MODULE_KINDS), seed=5)
    compositor = Compositor()
    back = compositor.render(Scene(bomb, "back", None, 0.0))
    assert all(not m.slot.on_front for m in back.targets)  # type: ignore[attr-defined]
    front = compositor.render(Scene(bomb, "front", None, 0.0))
    assert len(front.targets) + len(back.targets) == 11
    assert not np.array_equal(front.image, back.image)


def test_six_module_face_mask_has_the_real_games_colours() -> None:
    path = FIXTURES / "bomb-6-segm.png"
    if not path.exists():
        pytest.skip("shared fixtures absent")
    real = np.asarray(Image.open(path).convert("RGB"))
    components = ("Wires", "Keypad", "Maze", "Password", "Simon", "Memory", "Morse")
    bombs = (_bomb(components, seed) for seed in range(500))
    bomb = next(b for b in bombs if sum(not m.slot.on_front for m in b.modules) == 6)
    mask = Compositor().render(Scene(bomb, "back", None, 0.0)).mask()
    assert mask is not None
    assert _colours(mask) == _colours(real, min_pixels=500)


def test_zoomed_in_mask_paints_each_element() -> None:
    bomb = _bomb(("Keypad",), front_only=True)
    keypad = bomb.modules[0]
    picture = Compositor().render(Scene(bomb, "front", keypad, 0.0))
    assert list(picture.targets) == keypad.elements()
    mask = picture.mask()
    assert mask is not None
    assert _colours(mask) == {tuple(int(v) for v in c) for c in hsv_palette(4)[1:5]}
    layout = FaceLayout(640, 480)
    placement = layout.zoomed_in(keypad.slot.index, bomb.timer_slot.index)
    x0, y0, x1, y1 = layout.slot_box(keypad.slot.index, placement)
    assert not picture.ids[:y0].any() and not picture.ids[:, :x0].any()  # only the module …
    assert not picture.ids[y1:].any() and not picture.ids[:, x1:].any()
    for k, element in enumerate(keypad.elements()):
        ys, xs = np.nonzero(picture.ids == k + 1)
        assert picture.hit(int(np.median(xs)), int(np.median(ys))) == element


def test_side_views_show_widgets_and_have_no_mask() -> None:
    bomb = _bomb(("Wires",), seed=11)
    compositor = Compositor()
    pictures = {
        side: compositor.render(Scene(bomb, side, None, 0.0))
        for side in ("top", "bottom", "left", "right")
    }
    assert all(p.mask() is None and not p.targets for p in pictures.values())
    serial_side = bomb.widgets[0].position
    plain = [s for s in pictures if s != serial_side and all(w.position != s for w in bomb.widgets)]
    for side in plain:  # a side with widgets looks different from one without
        assert not np.array_equal(pictures[serial_side].image, pictures[side].image)


def test_timer_and_leds_change_the_picture() -> None:
    bomb = _bomb(("Wires", "Keypad"), front_only=True)
    compositor = Compositor()
    first = compositor.render(Scene(bomb, "front", None, 0.0)).image.copy()
    bomb.advance(1.0)
    second = compositor.render(Scene(bomb, "front", None, 1.0)).image
    assert not np.array_equal(first, second)  # 05:00 → 04:59
    wires = bomb.modules[0]
    assert led_colour(wires, 1.0) == LED_OFF
    wires.last_strike_time = 1.0
    assert led_colour(wires, 1.5) == LED_RED
    assert led_colour(wires, 2.5) == LED_OFF
    bomb.force_solve(wires)
    assert led_colour(wires, 2.5) == LED_GREEN
    picture = compositor.render(Scene(bomb, "front", None, 2.5))
    x0, y0, x1, _ = FaceLayout(640, 480).slot_box(wires.slot.index)
    scale = (x1 - x0) / 512
    assert tuple(picture.image[int(y0 + 60 * scale), int(x0 + 452 * scale)]) == LED_GREEN


@pytest.mark.parametrize("size", [(320, 240), (1024, 768), (512, 384)])
def test_any_frame_size(size: tuple[int, int]) -> None:
    bomb = _bomb(("Wires", "Keypad"), front_only=True)
    compositor = Compositor(*size)
    for focused in (None, bomb.modules[0]):
        picture = compositor.render(Scene(bomb, "front", focused, 0.0))
        assert picture.image.shape == (size[1], size[0], 3)
        assert picture.ids.shape == (size[1], size[0])
        assert picture.mask() is not None
