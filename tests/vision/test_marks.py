"""Set-of-marks on real game frames and on synthetic masks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from gptnt.errors import FrameBufferError
from gptnt.vision import PLACEMENTS, build_marks, find_regions, letter, normalise_mask, resize

SOM = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "real-game" / "som"

FIXTURE_KINDS = {
    "bomb-5": None,
    "bomb-6": None,
    "button": "BigButton",
    "keypad": "Keypad",
    "maze": "Maze",
    "memory": "Memory",
    "morse": "Morse",
    "password": "Password",
    "simon": "Simon",
    "venn-6": "Venn",
    "whoseonfirst": "WhosOnFirst",
    "wires-6": "Wires",
    "wireseq": "WireSequence",
}


def _pairs() -> list[str]:
    if not SOM.is_dir():
        return []
    return sorted(p.name.removesuffix("-segm.png") for p in SOM.glob("*-segm.png"))


def _load(name: str) -> tuple[np.ndarray, np.ndarray]:
    if not SOM.is_dir():
        pytest.skip("../shared/fixtures/real-game/som is absent")
    mask = np.asarray(Image.open(SOM / f"{name}-segm.png").convert("RGB"))
    frame = np.asarray(Image.open(SOM / f"{name}-screen.png").convert("RGB"))
    return mask, frame


def _flat_colours(mask: np.ndarray) -> int:
    """Distinct fully saturated, full-value colours covering more than 10 pixels."""
    rgb = mask.reshape(-1, 3).astype(int)
    flat = rgb[(rgb.max(axis=1) == 255) & (rgb.min(axis=1) == 0)]
    _, counts = np.unique(flat, axis=0, return_counts=True)
    return int((counts > 10).sum())


@pytest.fixture(params=_pairs() or [pytest.param("absent", marks=pytest.mark.skip("no fixtures"))])
def pair(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.mark.fixtures
def test_every_fixture_has_a_kind() -> None:
    assert set(_pairs()) <= set(FIXTURE_KINDS)


@pytest.mark.fixtures
def test_region_count_equals_flat_colours(pair: str) -> None:
    mask, _ = _load(pair)
    assert len(find_regions(mask)) == _flat_colours(mask)


@pytest.mark.fixtures
def test_click_points_lie_inside_their_region(pair: str) -> None:
    mask, frame = _load(pair)
    marks = build_marks(mask, frame, FIXTURE_KINDS[pair])
    assert marks.marks
    for mark in marks.marks:
        x, y = mark.click
        assert mark.region.contains(x, y), mark.label
        rx, ry = marks.click_point(mark.label)
        assert int(rx * marks.size[0]) == x and int(ry * marks.size[1]) == y


@pytest.mark.fixtures
def test_reading_order_is_stable_under_colour_permutation(pair: str) -> None:
    """The letters follow geometry, not which colour the mod happened to give an element."""
    mask, frame = _load(pair)
    kind = FIXTURE_KINDS[pair]
    before = build_marks(mask, frame, kind)
    colours = [m.region.colour for m in before.marks]
    rng = np.random.default_rng(7)
    shuffled = [colours[i] for i in rng.permutation(len(colours))]
    remapped = np.zeros_like(mask)
    norm = normalise_mask(mask)
    for old, new in zip(colours, shuffled):
        remapped[(norm == old).all(axis=-1)] = new
    after = build_marks(remapped, frame, kind)
    assert [m.click for m in after.marks] == [m.click for m in before.marks]
    assert after.labels == before.labels


@pytest.mark.fixtures
def test_reading_order_is_stable_under_a_one_pixel_shift(pair: str) -> None:
    mask, frame = _load(pair)
    kind = FIXTURE_KINDS[pair]
    before = build_marks(mask, frame, kind)
    after = build_marks(np.roll(mask, 1, axis=1), np.roll(frame, 1, axis=1), kind)
    assert [m.region.colour for m in after.marks] == [m.region.colour for m in before.marks]


@pytest.mark.fixtures
def test_labels_do_not_overlap_and_stay_on_screen(pair: str) -> None:
    mask, frame = _load(pair)
    marks = build_marks(mask, frame, FIXTURE_KINDS[pair])
    width, height = marks.size
    boxes = [m.box for m in marks.marks]
    for left, top, right, bottom in boxes:
        assert 0 <= left < right <= width and 0 <= top < bottom <= height
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            overlap_x = min(a[2], b[2]) - max(a[0], b[0])
            overlap_y = min(a[3], b[3]) - max(a[1], b[1])
            assert overlap_x <= 0 or overlap_y <= 0, (pair, a, b)


@pytest.mark.fixtures
def test_wires_are_lettered_top_to_bottom_and_labelled_on_the_left() -> None:
    mask, frame = _load("wires-6")
    marks = build_marks(mask, frame, "Wires")
    assert marks.labels == ("A", "B", "C", "D", "E", "F")
    tops = [m.region.bbox[1] for m in marks.marks]
    assert tops == sorted(tops)
    for mark in marks.marks:
        assert mark.box[2] <= mark.region.bbox[0]


@pytest.mark.fixtures
def test_wire_marks_take_the_wire_colour() -> None:
    """The fixture's wires are white, yellow, red, blue, black, red from top to bottom."""
    mask, frame = _load("wires-6")
    hues = [_name(m.colours[0]) for m in build_marks(mask, frame, "Wires").marks]
    assert hues == ["white", "yellow", "red", "blue", "black", "red"]


@pytest.mark.fixtures
def test_simon_marks_take_the_button_colour() -> None:
    mask, frame = _load("simon")
    hues = [_name(m.colours[0]) for m in build_marks(mask, frame, "Simon").marks]
    assert sorted(hues) == ["blue", "green", "red", "yellow"]


@pytest.mark.fixtures
def test_two_coloured_complicated_wires_get_striped_marks() -> None:
    mask, frame = _load("venn-6")
    marks = build_marks(mask, frame, "Venn").marks
    assert any(len(m.colours) == 2 for m in marks)
    assert any(len(m.colours) == 1 for m in marks)


@pytest.mark.fixtures
def test_drawn_then_resized() -> None:
    mask, frame = _load("keypad")
    marks = build_marks(mask, frame, "Keypad")
    drawn = marks.draw(frame)
    assert drawn.shape == frame.shape and not np.array_equal(drawn, frame)
    small = resize(drawn, (448, 448))
    assert small.shape == (448, 448, 3)


def _name(rgb: tuple[int, int, int]) -> str:
    r, g, b = rgb
    if max(rgb) < 60:
        return "black"
    if min(rgb) > 150:
        return "white"
    if r > 150 and g > 120 and b < 100:
        return "yellow"
    if r > max(g, b) * 1.5:
        return "red"
    if b > max(r, g) * 1.3:
        return "blue"
    if g > max(r, b) * 1.3:
        return "green"
    return "other"


# ----------------------------------------------------------------------------- synthetic


def _aa_line(
    canvas: np.ndarray, p0: tuple[float, float], p1: tuple[float, float], colour, width=1.6
):
    """Draw an anti-aliased line: pixel = coverage × colour (a blend with black)."""
    h, w = canvas.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    (x0, y0), (x1, y1) = p0, p1
    dx, dy = x1 - x0, y1 - y0
    t = np.clip(((xx - x0) * dx + (yy - y0) * dy) / (dx * dx + dy * dy), 0, 1)
    dist = np.hypot(xx - (x0 + t * dx), yy - (y0 + t * dy))
    cover = np.clip(width / 2 + 0.5 - dist, 0, 1)
    blend = (cover[..., None] * np.array(colour, dtype=float)).astype(np.uint8)
    canvas[:] = np.maximum(canvas, blend)


def test_thin_diagonal_wires_get_click_points_on_the_wire() -> None:
    mask = np.zeros((120, 160, 3), dtype=np.uint8)
    # Two thin diagonals, an arc-like zigzag: centroids of these fall off the wire.
    _aa_line(mask, (10, 10), (150, 110), (255, 0, 0))
    _aa_line(mask, (10, 110), (80, 20), (0, 255, 0))
    _aa_line(mask, (80, 20), (150, 110), (0, 255, 0))
    frame = np.full_like(mask, 90)
    marks = build_marks(mask, frame, "WireSequence")
    assert len(marks.marks) == 2
    for mark in marks.marks:
        assert mark.region.contains(*mark.click)
    zigzag = next(m for m in marks.marks if m.region.colour == (0, 255, 0))
    cx, cy = zigzag.region.centroid
    assert not zigzag.region.contains(round(cx), round(cy))  # the naive point would miss


def test_anti_aliased_edges_collapse_to_one_region_per_colour() -> None:
    mask = np.zeros((100, 100, 3), dtype=np.uint8)
    colours = [(255, 0, 0), (128, 255, 0), (0, 255, 255), (128, 0, 255)]
    for i, colour in enumerate(colours):
        _aa_line(mask, (10 + 20 * i, 10), (15 + 20 * i, 90), colour, width=4)
    assert len(np.unique(mask.reshape(-1, 3), axis=0)) > 20  # many blended shades
    regions = find_regions(mask)
    assert sorted(r.colour for r in regions) == sorted(colours)
    marks = build_marks(mask, np.zeros_like(mask), "Venn")
    assert [m.region.colour for m in marks.marks] == colours  # left to right


def test_tiny_specks_are_dropped() -> None:
    mask = np.zeros((50, 50, 3), dtype=np.uint8)
    mask[10:30, 10:30] = (0, 0, 255)
    mask[40:43, 40:43] = (255, 0, 0)  # 9 px
    assert [r.colour for r in find_regions(mask)] == [(0, 0, 255)]


def test_reading_order_rows() -> None:
    """Three on a row (slightly staggered), two below: A B C / D E."""
    mask = np.zeros((100, 200, 3), dtype=np.uint8)
    spots = {(0, 0, 255): (150, 12), (0, 255, 0): (20, 10), (255, 0, 0): (85, 16),
             (255, 0, 255): (120, 60), (255, 255, 0): (30, 62)}  # fmt: skip
    for colour, (x, y) in spots.items():
        mask[y : y + 20, x : x + 20] = colour
    marks = build_marks(mask, np.zeros_like(mask), None)
    order = [m.region.colour for m in marks.marks]
    assert order == [(0, 255, 0), (255, 0, 0), (0, 0, 255), (255, 255, 0), (255, 0, 255)]
    assert marks.get("c").region.colour == (0, 0, 255)
    assert marks.get("F") is None and marks.click_point("F") is None


def test_letters_go_past_z() -> None:
    assert [letter(i) for i in (0, 25, 26, 27, 51, 52)] == ["A", "Z", "AA", "AB", "AZ", "BA"]


def test_every_module_kind_has_a_placement() -> None:
    from gptnt.protocol import MODULE_KINDS

    assert set(MODULE_KINDS) | {None} == set(PLACEMENTS)


def test_empty_mask_gives_no_marks() -> None:
    mask = np.zeros((30, 40, 3), dtype=np.uint8)
    assert build_marks(mask, mask, None).marks == ()


def test_mismatched_frame_is_a_clear_error() -> None:
    with pytest.raises(FrameBufferError, match="same moment"):
        build_marks(np.zeros((30, 40, 3), np.uint8), np.zeros((40, 30, 3), np.uint8), None)
