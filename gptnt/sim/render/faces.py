"""The bomb seen from the front or the back: room, casing, 2×3 slots, timer, empty plates, LEDs,
and the scene around it (the alarm clock on the table, the highlight of the module under the
cursor, the edge widgets peeking over the rim).

Everything here is static or keyed by a small value (the timer text and strike count), so the
compositor caches each picture and only pastes arrays per frame. Geometry comes from
``gptnt.sim.render.framing`` and scales with the frame height; at 640×480 a slot is 114 px
square zoomed out.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw

from gptnt.sim.render._view import LED_CENTER, LED_RADIUS, MODULE_SIZE
from gptnt.sim.render.framing import FRAMING, Box, FaceLayout, Placement

# colours measured on the real frames (medians over a patch)
ROOM_TOP = (35, 33, 31)
ROOM_BOTTOM = (16, 16, 14)
TABLE = (170, 125, 100)
CASING = (142, 178, 196)
CASING_LIGHT = (170, 208, 220)
CASING_DARK = (54, 64, 82)
SLOT_BACK = (58, 66, 76)
PLATE = (134, 142, 147)  # the timer's plate, lit as the modules' (see modules._plate.LIGHTING)
EMPTY_PLATE = (158, 78, 42)  # measured on a real frame
EMPTY_RIDGE = (120, 54, 26)
DIGIT_ON = (255, 28, 20)
DIGIT_OFF = (58, 8, 8)
LED_OFF = (46, 48, 46)
LED_GREEN = (60, 235, 80)
LED_RED = (255, 36, 30)
LED_RIM = (30, 32, 34)


# The room behind the bomb, in frame heights from the frame centre (x right, y down), measured
# on the real frames: a dark brick wall, the door left of the bomb, the table from ``table_top``
# down, a purple binder at the right. Each part: (box, colour).
ROOM_PARTS: tuple[tuple[tuple[float, float, float, float], tuple[int, int, int]], ...] = (
    ((-0.405, -0.336, -0.163, 0.23), (36, 29, 26)),  # door frame
    ((-0.385, -0.31, -0.183, 0.23), (18, 22, 33)),  # door
    ((-0.04, -0.44, 0.03, -0.37), (62, 55, 44)),  # the loudspeaker grille on the wall
    ((0.45, 0.235, 0.9, 0.38), (96, 46, 150)),  # binder
)
ALARM_BOX = (-0.62, 0.225, -0.465, 0.33)  # the alarm clock on the table (frame heights)
ALARM_BODY = (30, 31, 34)
ALARM_DIGIT_ON = (19, 154, 10)  # measured on the real frames' alarm clock
ALARM_DIGIT_OFF = (10, 24, 12)


def room(width: int, height: int) -> np.ndarray:
    """The dark room behind the bomb (wall, door, binder) with the table at the bottom."""
    ramp = np.linspace(0.0, 1.0, height, dtype=np.float32)[:, None]
    top, bottom = np.array(ROOM_TOP, np.float32), np.array(ROOM_BOTTOM, np.float32)
    column = top * (1 - ramp) + bottom * ramp
    img = np.repeat(column[:, None, :], width, axis=1)
    table_y = int(height * FRAMING.table_top)
    img[table_y:] = (
        np.array(TABLE, np.float32) * np.linspace(1.0, 0.86, height - table_y)[:, None, None]
    )
    picture = Image.fromarray(img.astype(np.uint8))
    draw = ImageDraw.Draw(picture)
    for box, colour in ROOM_PARTS:
        draw.rectangle(_room_box(width, height, box), fill=colour)
    return np.asarray(picture).copy()


def _room_box(width: int, height: int, box: tuple[float, float, float, float]) -> Box:
    x0, y0, x1, y1 = box
    cx, cy = width / 2, height / 2
    return (
        round(cx + x0 * height),
        round(cy + y0 * height),
        round(cx + x1 * height),
        round(cy + y1 * height),
    )


@lru_cache(maxsize=64)
def alarm_clock(width: int, height: int, text: str) -> tuple[np.ndarray, Box]:
    """The alarm clock on the table showing ``text`` (HH:MM) in green, and where it goes."""
    box = _room_box(width, height, ALARM_BOX)
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    img = Image.new("RGB", (w, h), ROOM_BOTTOM)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, h // 5, w - 1, h - 1), radius=max(1, h // 6), fill=ALARM_BODY)
    draw.rectangle((w // 8, h // 3, w - w // 8, h - h // 5), fill=(8, 12, 10))
    pad = max(1, h // 12)
    _seven_segment(
        draw,
        text,
        (w // 8 + pad, h // 3 + pad, w - w // 8 - pad, h - h // 5 - pad),
        on=ALARM_DIGIT_ON,
        off=ALARM_DIGIT_OFF,
    )
    picture = np.asarray(img).copy()
    picture.setflags(write=False)
    return picture, box


def draw_casing(draw: ImageDraw.ImageDraw, box: Box, *, radius: int) -> None:
    """A bevelled metal frame: light rim, body, dark inner edge."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 - 3, y0 - 3, x1 + 2, y1 + 2), radius=radius + 3, fill=CASING_DARK)
    draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius, fill=CASING_LIGHT)
    draw.rounded_rectangle((x0 + 3, y0 + 3, x1 - 4, y1 - 4), radius=radius, fill=CASING)


def face_base(
    layout: FaceLayout,
    placement: Placement,
    empty_slots: tuple[int, ...],
    rim_widgets: tuple[tuple[str, float], ...] = (),
) -> np.ndarray:
    """The face without modules or timer: room, edge widgets over the rim, casing, slot wells,
    empty plates. ``rim_widgets`` are (edge, position 0–1 along it) of the widgets on the top and
    bottom sides, whose tops show over the casing's rim as in the real frames."""
    img = Image.fromarray(room(layout.width, layout.height))
    draw = ImageDraw.Draw(img)
    casing = layout.casing(placement)
    side = layout.slot_box(0, placement)
    slot = side[2] - side[0]
    _rim_widgets(draw, casing, slot, rim_widgets)
    draw_casing(draw, casing, radius=max(4, slot // 10))
    for index in range(6):
        x0, y0, x1, y1 = layout.slot_box(index, placement)
        draw.rectangle((x0 - 1, y0 - 1, x1, y1), fill=SLOT_BACK)
    for index in empty_slots:
        img.paste(empty_plate(slot), layout.slot_box(index, placement)[:2])
    return np.asarray(img).copy()


RIM_WIDGET = (52, 54, 58)
RIM_WIDGET_LIGHT = (92, 96, 102)


def _rim_widgets(
    draw: ImageDraw.ImageDraw, casing: Box, slot: int, widgets: tuple[tuple[str, float], ...]
) -> None:
    """The tops of the widgets on the top and bottom sides, just over and under the casing."""
    x0, y0, x1, y1 = casing
    w, h = max(3, slot // 3), max(2, slot // 14)
    for edge, at in widgets:
        cx = x0 + (x1 - x0) * (0.12 + 0.76 * at)
        y = y0 - h + 1 if edge == "top" else y1 - 1
        draw.rounded_rectangle(
            (cx - w / 2, y, cx + w / 2, y + h),
            radius=max(1, h // 3),
            fill=RIM_WIDGET,
            outline=RIM_WIDGET_LIGHT,
        )


@lru_cache(maxsize=8)
def empty_plate(size: int) -> Image.Image:
    """KTANE's blank component: an orange vented cover."""
    img = Image.new("RGB", (size, size), SLOT_BACK)
    draw = ImageDraw.Draw(img)
    m = max(2, size // 20)
    draw.rounded_rectangle((m, m, size - m - 1, size - m - 1), radius=m * 2, fill=EMPTY_PLATE)
    step = max(3, size // 14)
    for y in range(m * 3, size - m * 3, step):
        draw.line((m * 3, y, size - m * 3, y), fill=EMPTY_RIDGE, width=max(1, step // 3))
    return img


# ---------------------------------------------------------------- timer

# Segments a–g of a seven-segment digit, as (x0, y0, x1, y1) in a 10 × 18 cell.
_SEGMENTS = {
    "a": (2, 0, 8, 2),
    "b": (8, 1, 10, 9),
    "c": (8, 9, 10, 17),
    "d": (2, 16, 8, 18),
    "e": (0, 9, 2, 17),
    "f": (0, 1, 2, 9),
    "g": (2, 8, 8, 10),
}
_DIGIT_SEGMENTS = {
    "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg",
    "5": "acdfg", "6": "acdefg", "7": "abc", "8": "abcdefg", "9": "abcdfg",
}  # fmt: skip


def _seven_segment(
    draw: ImageDraw.ImageDraw,
    text: str,
    box: Box,
    *,
    on: tuple[int, int, int] = DIGIT_ON,
    off: tuple[int, int, int] = DIGIT_OFF,
) -> None:
    """Four seven-segment digits with a colon or a point between the pairs, unlit ones dim."""
    x0, y0, x1, y1 = box
    digits = [c for c in text if c.isdigit()]
    sep = ":" if ":" in text else "."
    cell_h = y1 - y0
    unit = cell_h / 18
    cell_w = 10 * unit
    sep_w = 4 * unit
    total = 4 * cell_w + 3 * 2 * unit + sep_w
    x = x0 + ((x1 - x0) - total) / 2
    for i, digit in enumerate(digits[:4]):
        lit = _DIGIT_SEGMENTS.get(digit, "")
        for name, (sx0, sy0, sx1, sy1) in _SEGMENTS.items():
            colour = on if name in lit else off
            left, top = x + sx0 * unit, y0 + sy0 * unit
            # max(): at tiny frame sizes a segment is thinner than the 1-pixel inset.
            right, bottom = max(left, x + sx1 * unit - 1), max(top, y0 + sy1 * unit - 1)
            draw.rectangle((left, top, right, bottom), fill=colour)
        x += cell_w + 2 * unit
        if i == 1:
            cx = x + sep_w / 2 - unit * 2
            r = unit * 1.1
            dots = (6, 12) if sep == ":" else (16.5,)
            for dy in dots:
                cy = y0 + dy * unit
                draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=on)
            x += sep_w


@lru_cache(maxsize=512)
def timer_module(size: int, text: str, strikes: int, max_strikes: int) -> np.ndarray:
    """The timer component: grey plate, strike window (hidden if one strike loses), red digits."""
    img = Image.new("RGB", (size, size), SLOT_BACK)
    draw = ImageDraw.Draw(img)
    m = max(2, size // 24)
    draw.rounded_rectangle((m, m, size - m - 1, size - m - 1), radius=m * 2, fill=PLATE)
    # digit window, lower half
    wx0, wy0, wx1, wy1 = int(size * 0.1), int(size * 0.47), int(size * 0.9), int(size * 0.86)
    draw.rectangle((wx0 - 3, wy0 - 3, wx1 + 2, wy1 + 2), fill=(70, 72, 74))
    draw.rectangle((wx0, wy0, wx1 - 1, wy1 - 1), fill=(12, 6, 6))
    pad = max(2, (wy1 - wy0) // 8)
    _seven_segment(draw, text, (wx0 + pad, wy0 + pad, wx1 - pad, wy1 - pad))
    if max_strikes > 1:
        sx0, sy0, sx1, sy1 = int(size * 0.3), int(size * 0.12), int(size * 0.7), int(size * 0.36)
        draw.rectangle((sx0 - 2, sy0 - 2, sx1 + 1, sy1 + 1), fill=(70, 72, 74))
        draw.rectangle((sx0, sy0, sx1 - 1, sy1 - 1), fill=(12, 6, 6))
        marks = min(strikes, max_strikes - 1, 2)
        cw = (sx1 - sx0) / 2
        for i in range(2):
            cx0 = sx0 + i * cw + cw * 0.22
            cx1 = sx0 + (i + 1) * cw - cw * 0.22
            cy0, cy1 = sy0 + (sy1 - sy0) * 0.2, sy1 - (sy1 - sy0) * 0.2
            colour = DIGIT_ON if i < marks else DIGIT_OFF
            w = max(2, size // 40)
            draw.line((cx0, cy0, cx1, cy1), fill=colour, width=w)
            draw.line((cx0, cy1, cx1, cy0), fill=colour, width=w)
    picture = np.asarray(img).copy()
    picture.setflags(write=False)  # cached and shared
    return picture


# ---------------------------------------------------------------- status LED


@lru_cache(maxsize=16)
def led_discs(size: int) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """Boolean masks (rim, light) of a module's status LED scaled to a ``size`` square, and
    the top-left offset of those masks within the square."""
    scale = size / MODULE_SIZE
    r = max(2.0, LED_RADIUS * scale)
    cx, cy = LED_CENTER[0] * scale, LED_CENTER[1] * scale
    x0, y0 = int(cx - r - 1), int(cy - r - 1)
    n = int(2 * r + 3)
    yy, xx = np.mgrid[0:n, 0:n]
    d2 = (xx + x0 + 0.5 - cx) ** 2 + (yy + y0 + 0.5 - cy) ** 2
    rim = d2 <= r * r
    light = d2 <= (r * 0.72) ** 2
    return rim, light, (max(0, x0), max(0, y0))


def paint_led(frame: np.ndarray, box: Box, colour: tuple[int, int, int]) -> None:
    """Paint the status LED of the module occupying ``box`` in ``frame`` (in place, clipped)."""
    x, y, x1, _ = box
    rim, light, (ox, oy) = led_discs(x1 - x)
    paint(frame, rim, (x + ox, y + oy), LED_RIM)
    paint(frame, light, (x + ox, y + oy), colour)


HIGHLIGHT = (237, 213, 17)  # the game's yellow outline of the module under the cursor


def paint_highlight(frame: np.ndarray, box: Box) -> None:
    """The yellow outline around the module in ``box`` (in place, clipped)."""
    x0, y0, x1, y1 = box
    t = max(2, (x1 - x0) // 30)
    h, w = frame.shape[:2]
    for bx0, by0, bx1, by1 in (
        (x0 - t, y0 - t, x1 + t, y0),
        (x0 - t, y1, x1 + t, y1 + t),
        (x0 - t, y0, x0, y1),
        (x1, y0, x1 + t, y1),
    ):
        frame[max(0, by0) : max(0, min(h, by1)), max(0, bx0) : max(0, min(w, bx1))] = HIGHLIGHT


def clipped(
    shape: tuple[int, ...], size: tuple[int, int], at: tuple[int, int]
) -> tuple[slice, slice, slice, slice] | None:
    """The slices (frame rows, frame cols, source rows, source cols) of a ``size`` (h, w) array
    placed with its top-left at ``at`` (x, y) in a frame of ``shape``; None if nothing shows."""
    h, w = size
    x, y = at
    fx0, fy0 = max(0, x), max(0, y)
    fx1, fy1 = min(shape[1], x + w), min(shape[0], y + h)
    if fx0 >= fx1 or fy0 >= fy1:
        return None
    return (
        slice(fy0, fy1),
        slice(fx0, fx1),
        slice(fy0 - y, fy1 - y),
        slice(fx0 - x, fx1 - x),
    )


def paste(frame: np.ndarray, picture: np.ndarray, at: tuple[int, int]) -> None:
    """Copy ``picture`` into ``frame`` with its top-left at ``at`` (x, y), clipped."""
    s = clipped(frame.shape, picture.shape[:2], at)
    if s is not None:
        frame[s[0], s[1]] = picture[s[2], s[3]]


def paint(frame: np.ndarray, where: np.ndarray, at: tuple[int, int], value: object) -> None:
    """Set ``frame`` to ``value`` where the boolean ``where`` (placed at ``at``) is true."""
    s = clipped(frame.shape, where.shape, at)
    if s is not None:
        frame[s[0], s[1]][where[s[2], s[3]]] = value


def blend(frame: np.ndarray, rgba: np.ndarray, at: tuple[int, int]) -> None:
    """Composite the translucent ``rgba`` picture over ``frame`` at ``at`` (x, y), clipped."""
    s = clipped(frame.shape, rgba.shape[:2], at)
    if s is not None:
        part = rgba[s[2], s[3]].astype(np.uint16)
        alpha = part[..., 3:]
        under = frame[s[0], s[1]].astype(np.uint16)
        frame[s[0], s[1]] = ((under * (255 - alpha) + part[..., :3] * alpha) // 255).astype(
            np.uint8
        )
