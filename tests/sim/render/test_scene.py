"""Scene parts around the bomb: the alarm clock (its own time), the highlight of the module under
the cursor, edge widgets over the rim, the Button's cover; frames stay deterministic."""

from __future__ import annotations

import numpy as np

from gptnt.rules.ruleset import V1
from gptnt.sim.bomb import Bomb, BombSpec
from gptnt.sim.render.compositor import Compositor, Scene, clock_text, format_for
from gptnt.sim.render.faces import ALARM_DIGIT_ON, HIGHLIGHT, RIM_WIDGET, alarm_clock
from gptnt.sim.render.modules import big_button


def _bomb(components: tuple[str, ...], seed: int = 3) -> Bomb:
    return Bomb.generate(BombSpec(seed=seed, components=components, front_only=True), V1)


def _near(image: np.ndarray, rgb: tuple[int, int, int], tol: int = 10) -> np.ndarray:
    return np.abs(image.astype(int) - rgb).max(axis=-1) <= tol


def test_the_alarm_clock_shows_its_own_time_in_green() -> None:
    bomb = _bomb(("Wires",))
    compositor = Compositor(640, 480)
    text = clock_text(bomb, 0.0)
    assert text != format_for(bomb, 0.0)[:5] and ":" in text
    assert clock_text(bomb, 59.0) == text and clock_text(bomb, 61.0) != text  # minutes pass
    image = compositor.render(Scene(bomb, "front", None, 0.0)).image
    _, (x0, y0, x1, y1) = alarm_clock(640, 480, text)
    assert _near(image[y0:y1, x0:x1], ALARM_DIGIT_ON).sum() > 40
    zoomed = compositor.render(Scene(bomb, "front", bomb.modules[0], 0.0)).image
    assert np.array_equal(zoomed[y0:y1, x0:x1], image[y0:y1, x0:x1])  # the room stays put


def _ring(image: np.ndarray, box: tuple[int, int, int, int], width: int = 2) -> np.ndarray:
    """The pixels in a band ``width`` wide just outside ``box``."""
    x0, y0, x1, y1 = box
    outer = image[y0 - width : y1 + width, x0 - width : x1 + width].copy()
    keep = np.ones(outer.shape[:2], bool)
    keep[width:-width, width:-width] = False
    return outer[keep]


def test_the_module_under_the_cursor_is_highlighted() -> None:
    bomb = _bomb(("Wires", "Keypad"))
    compositor = Compositor(640, 480)
    plain = compositor.render(Scene(bomb, "front", None, 0.0))
    wires, keypad = bomb.modules
    boxes = {m: compositor.layout.slot_box(m.slot.index) for m in bomb.modules}
    assert not _near(_ring(plain.image, boxes[wires]), HIGHLIGHT).any()
    ys, xs = np.nonzero(plain.ids == 1)
    cursor = (float(np.median(xs)) / 640, float(np.median(ys)) / 480)
    lit = compositor.render(Scene(bomb, "front", None, 0.0, cursor)).image
    assert _near(_ring(lit, boxes[wires]), HIGHLIGHT).all()  # an outline all round it …
    assert not _near(_ring(lit, boxes[keypad]), HIGHLIGHT).any()  # … and only round it
    # zoomed into the module under the cursor, the game shows no outline around it
    placement = compositor.layout.zoomed_in(wires.slot.index, bomb.timer_slot.index)
    zoomed = compositor.render(Scene(bomb, "front", wires, 0.0, cursor)).image
    box = compositor.layout.slot_box(wires.slot.index, placement)
    assert not _near(_ring(zoomed, box), HIGHLIGHT).any()


def test_top_and_bottom_widgets_show_over_the_rim() -> None:
    compositor = Compositor(640, 480)
    _, y0, _, y1 = compositor.layout.casing()
    counts = {}
    for seed in range(200):
        bomb = _bomb(("Wires",), seed)
        on_rim = sum(s.edge in ("top", "bottom") for s in bomb.widget_spots)
        if on_rim in counts:
            continue
        image = compositor.render(Scene(bomb, "front", None, 0.0)).image
        band = np.concatenate([image[y0 - 8 : y0], image[y1 : y1 + 8]])
        counts[on_rim] = int(_near(band, RIM_WIDGET, tol=4).sum())
        if len(counts) >= 3:
            break
    assert counts[0] == 0 and len(counts) >= 2
    assert all(n > 0 for on_rim, n in counts.items() if on_rim)
    assert sorted(counts.values()) == [counts[k] for k in sorted(counts)]  # more widgets, more


def test_the_buttons_cover_is_closed_unless_zoomed_into() -> None:
    bomb = _bomb(("BigButton", "Wires"))
    button = bomb.modules[0]
    compositor = Compositor(640, 480)
    layout = compositor.layout
    for placement, lid in (
        (layout.zoomed_out, True),
        (layout.zoomed_in(button.slot.index, bomb.timer_slot.index), False),
    ):
        focused = None if lid else button
        picture = compositor.render(Scene(bomb, "front", focused, 0.0))
        x0, y0, x1, y1 = layout.slot_box(button.slot.index, placement)
        bare, _ = compositor._module_picture(button, 0.0, x1 - x0)
        seen = picture.image[y0:y1, x0:x1]
        centre = (slice((y1 - y0) // 3, 2 * (y1 - y0) // 3), slice(0, (x1 - x0) // 2))
        covered = not np.array_equal(seen[centre], bare[centre])  # the cap, under the lid
        assert covered == lid
    # zoomed out, the lid sticks out left of the slot and belongs to the Button's region
    out = compositor.render(Scene(bomb, "front", None, 0.0))
    rgba, (dx, dy) = big_button.overlay(layout.slot)
    x0, y0, _, _ = layout.slot_box(button.slot.index)
    assert dx < 0 and out.hit(x0 + dx + 1, y0 + dy + rgba.shape[0] // 2) is button


def test_frames_are_deterministic() -> None:
    bomb = _bomb(("BigButton", "Wires", "Keypad"))
    scenes = [
        Scene(bomb, "front", None, 3.0, (0.4, 0.4)),
        Scene(bomb, "front", bomb.modules[1], 3.0),
        Scene(bomb, "top", None, 3.0),
    ]
    first = [Compositor(640, 480).render(s) for s in scenes]
    again = [Compositor(640, 480).render(s) for s in scenes]
    for a, b in zip(first, again, strict=True):
        assert np.array_equal(a.image, b.image) and np.array_equal(a.ids, b.ids)


def test_the_highlight_outlines_the_same_module_as_in_the_real_frame() -> None:
    from PIL import Image
    from test_framing import SOM, _fixture

    from gptnt.sim.render.real_frames import REAL_FRAMES, lookalike

    _fixture("maze")
    real = np.asarray(Image.open(SOM / "maze-screen.png").convert("RGB"))
    frame = next(f for f in REAL_FRAMES if f.name == "maze")
    seen = lookalike(frame)
    ours = Compositor(512, 384).render(Scene(seen.bomb, seen.side, seen.focused, 0.0, frame.cursor))
    boxes = []
    for image, tol in ((real, 40), (ours.image, 2)):  # the game's outline is shaded, ours flat
        ys, xs = np.nonzero(_near(image, HIGHLIGHT, tol=tol) & (image[..., 2] < 80))
        boxes.append(np.array([xs.min() / 512, ys.min() / 384, xs.max() / 512, ys.max() / 384]))
    assert np.abs(boxes[0] - boxes[1]).max() <= 0.025, f"ours {boxes[1]}, the game's {boxes[0]}"
