"""The bomb seen from the front or the back: room, casing, 2×3 slots, timer, empty plates, LEDs.

Everything here is static or keyed by a small value (the timer text and strike count), so the
compositor caches each picture and only pastes arrays per frame. Geometry scales with the frame
size; at 640×480 a slot is 160 px square.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw

from gptnt.sim.render._view import LED_CENTER, LED_RADIUS, MODULE_SIZE

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (x1, y1 exclusive)

ROOM_TOP = (34, 33, 36)
ROOM_BOTTOM = (14, 14, 16)
TABLE = (196, 150, 120)
CASING = (150, 170, 190)
CASING_LIGHT = (196, 212, 226)
CASING_DARK = (86, 102, 120)
SLOT_BACK = (58, 66, 76)
PLATE = (168, 178, 184)
EMPTY_PLATE = (186, 96, 44)
EMPTY_RIDGE = (142, 66, 28)
DIGIT_ON = (255, 28, 20)
DIGIT_OFF = (58, 8, 8)
LED_OFF = (46, 48, 46)
LED_GREEN = (60, 235, 80)
LED_RED = (255, 36, 30)
LED_RIM = (30, 32, 34)


@dataclass(frozen=True)
class FaceLayout:
    """Where the casing and the six slots of a face sit in a frame of ``width`` × ``height``."""

    width: int
    height: int

    @property
    def slot(self) -> int:
        return int(min(self.width * 0.25, self.height * 0.335))

    @property
    def gap(self) -> int:
        return max(2, self.slot // 20)

    @property
    def grid(self) -> Box:
        s, g = self.slot, self.gap
        w, h = 3 * s + 2 * g, 2 * s + g
        x0 = (self.width - w) // 2
        y0 = (self.height - h) // 2
        return (x0, y0, x0 + w, y0 + h)

    @property
    def casing(self) -> Box:
        b = max(4, self.slot // 9)
        x0, y0, x1, y1 = self.grid
        return (x0 - b, y0 - b, x1 + b, y1 + b)

    def slot_box(self, index: int) -> Box:
        """The square of slot ``index`` (row-major, 3 per row, as seen on that face)."""
        s, g = self.slot, self.gap
        x0, y0, _, _ = self.grid
        col, row = index % 3, index // 3
        x, y = x0 + col * (s + g), y0 + row * (s + g)
        return (x, y, x + s, y + s)

    def zoom_box(self) -> Box:
        """The square a focused module fills when zoomed in."""
        z = int(min(self.width, self.height) * 0.86)
        x0 = (self.width - z) // 2
        y0 = (self.height - z) // 2
        return (x0, y0, x0 + z, y0 + z)


def room(width: int, height: int) -> np.ndarray:
    """The dark room behind the bomb, with the table edge at the bottom."""
    ramp = np.linspace(0.0, 1.0, height, dtype=np.float32)[:, None]
    top, bottom = np.array(ROOM_TOP, np.float32), np.array(ROOM_BOTTOM, np.float32)
    column = top * (1 - ramp) + bottom * ramp
    img = np.repeat(column[:, None, :], width, axis=1)
    table_y = int(height * 0.86)
    img[table_y:] = (
        np.array(TABLE, np.float32) * np.linspace(1.0, 0.8, height - table_y)[:, None, None]
    )
    return img.astype(np.uint8)


def draw_casing(draw: ImageDraw.ImageDraw, box: Box, *, radius: int) -> None:
    """A bevelled metal frame: light rim, body, dark inner edge."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 - 3, y0 - 3, x1 + 2, y1 + 2), radius=radius + 3, fill=CASING_DARK)
    draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius, fill=CASING_LIGHT)
    draw.rounded_rectangle((x0 + 3, y0 + 3, x1 - 4, y1 - 4), radius=radius, fill=CASING)


def face_base(layout: FaceLayout, empty_slots: tuple[int, ...]) -> np.ndarray:
    """The zoomed-out face without modules or timer: room, casing, slot wells, empty plates."""
    img = Image.fromarray(room(layout.width, layout.height))
    draw = ImageDraw.Draw(img)
    draw_casing(draw, layout.casing, radius=max(4, layout.slot // 10))
    for index in range(6):
        x0, y0, x1, y1 = layout.slot_box(index)
        draw.rectangle((x0 - 1, y0 - 1, x1, y1), fill=SLOT_BACK)
    for index in empty_slots:
        img.paste(empty_plate(layout.slot), layout.slot_box(index)[:2])
    return np.asarray(img).copy()


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


def _seven_segment(draw: ImageDraw.ImageDraw, text: str, box: Box) -> None:
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
            colour = DIGIT_ON if name in lit else DIGIT_OFF
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
                draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DIGIT_ON)
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
    """Paint the status LED of the module occupying ``box`` in ``frame`` (in place)."""
    x, y, x1, _ = box
    rim, light, (ox, oy) = led_discs(x1 - x)
    h, w = rim.shape
    region = frame[y + oy : y + oy + h, x + ox : x + ox + w]
    hh, ww = region.shape[:2]
    region[rim[:hh, :ww]] = LED_RIM
    region[light[:hh, :ww]] = colour
