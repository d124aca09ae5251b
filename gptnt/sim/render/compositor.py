"""The full frame: the current view of the bomb, its hit-test canvas and its segmentation mask.

Views (``Scene.side`` and ``Scene.focused``), framed as the real game frames them
(``gptnt.sim.render.framing``):

- **face** (front/back, zoomed out): the room, the casing with six slots; each module is its
  drawer's 512×512 picture scaled into its slot; empty plates; the timer; status LEDs;
- **zoomed in**: the same face a little closer with the focused module at the centre, the rest
  of the face, the timer and the strikes still in view;
- **side** (left/right/top/bottom): one side of the case with its widgets.

Scene parts drawn over every face view: the alarm clock on the table (its own time of day, not
the bomb's), the yellow highlight around the module under the cursor (the last click's point),
the tops of the top and bottom edge widgets over the rim, and per-kind overlays (the Button's
translucent cover while it is not zoomed into).

Every picture comes with an ``ids`` canvas built with the same geometry: zoomed out, module k of
the face (bomb component order, timer and empty plates excluded) is painted k + 1 over its slot;
zoomed in, only the focused module's element ids, scaled nearest-neighbour into its square (the
mod segments only what can be clicked at the current zoom). Hit testing reads that canvas, and
the mask colours it HSV(i/N, 1, 1) on black (docs/protocol.md §3.3–§3.4), so a click on a marked
region always hits that region's element.

Performance: static layers (room, casing, empty plates, sides) are cached per bomb, size and
placement; module pictures are cached by ``(kind, look)`` (the drawer's key) and size; a frame is
a copy of a cached base plus a few array pastes.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image

from gptnt.protocol import BombSide, EdgeSide, timer_text
from gptnt.sim.bomb import Bomb
from gptnt.sim.render.edges import side_view
from gptnt.sim.render.faces import (
    LED_GREEN,
    LED_OFF,
    LED_RED,
    alarm_clock,
    blend,
    clipped,
    face_base,
    paint,
    paint_highlight,
    paint_led,
    paste,
    timer_module,
)
from gptnt.sim.render.framing import Box, FaceLayout, Placement
from gptnt.sim.render.modules import drawer_for

if TYPE_CHECKING:
    from gptnt.sim.modules import ModuleEngine

STRIKE_FLASH_SECONDS = 1.0  # the status LED shows red this long after a module's strike
MODULE_CACHE_SIZE = 512


@dataclass(frozen=True)
class Scene:
    """What the camera sees: a bomb at bomb time ``t`` from ``side``, maybe zoomed into a module."""

    bomb: Bomb
    side: BombSide
    focused: ModuleEngine | None
    t: float
    cursor: tuple[float, float] | None = None  # the last click's point (fractions of the frame)


@dataclass(frozen=True)
class Picture:
    """One rendered view: the RGB frame, the hit-test ids and what each id stands for.

    ``targets[k - 1]`` is what id k hits: a ``ModuleEngine`` zoomed out, an element id zoomed in.
    ``objects`` is the mod's object list behind the mask: how many objects it colours and which
    of them target k is (``None``: one object per target, in order). Complicated Wires has more
    objects than targets (``ModuleEngine.mask_objects``).
    """

    draw: Callable[[], np.ndarray]  # composes ``image`` (from values read at render time)
    draw_ids: Callable[[], np.ndarray]  # composes ``ids`` (likewise)
    targets: tuple[object, ...]
    objects: tuple[int, tuple[int, ...]] | None = None

    @functools.cached_property
    def image(self) -> np.ndarray:
        """The RGB frame, (H, W, 3) uint8, top-down; composed on first use."""
        return self.draw()

    @functools.cached_property
    def ids(self) -> np.ndarray:
        """(H, W) uint8 target ids, 0 = nothing; composed on first use (most captured frames
        are never hit-tested nor masked)."""
        return self.draw_ids()

    def hit(self, x: int, y: int) -> object | None:
        """The target under pixel (x, y), or None."""
        k = int(self.ids[y, x])
        return self.targets[k - 1] if k else None

    def colours(self) -> np.ndarray:
        """Row 0 black, row k the mask colour of target k (256 rows, for indexing ``ids``)."""
        count, index = self.objects or (len(self.targets), tuple(range(len(self.targets))))
        palette = hsv_palette(count)
        rows = np.zeros((256, 3), np.uint8)
        rows[1 : len(index) + 1] = palette[[i + 1 for i in index]]
        return rows

    def mask(self) -> np.ndarray | None:
        """The segmentation mask (flat mod colours on black), None if nothing is active."""
        if not self.targets:
            return None
        indexed = Image.fromarray(self.ids, mode="P")
        indexed.putpalette(self.colours().tobytes())
        return np.asarray(indexed.convert("RGB"))


@functools.lru_cache(maxsize=64)
def hsv_palette(n: int) -> np.ndarray:
    """Row 0 black, row i + 1 the colour the mod gives object i of n: HSV(h, 1, 1) with h a
    32-bit float sum of i steps of 1/n (the mod adds 1/n per object), converted as the game's
    colour conversion does (channel × 255, rounded half up). The float sum is why 9/12 comes
    out (127, 0, 255) while 3/12 is (128, 255, 0), as on the real masks."""
    f32 = np.float32
    rows: list[tuple[int, ...]] = [(0, 0, 0)]
    h, step = f32(0.0), f32(1.0) / f32(n)
    for _ in range(n):
        rows.append(tuple(int(np.floor(c * f32(255.0) + f32(0.5))) for c in _hsv_full(h)))
        h = f32(h + step)
    rows += [(0, 0, 0)] * (256 - len(rows))
    return np.array(rows, dtype=np.uint8)


def _hsv_full(h: np.float32) -> tuple[np.float32, np.float32, np.float32]:
    """RGB of HSV(h, 1, 1) in 32-bit floats."""
    f32 = np.float32
    h6 = h * f32(6.0)
    sector = int(np.floor(h6))
    rise = f32(h6 - f32(sector))
    one, zero, fall = f32(1.0), f32(0.0), f32(1.0) - rise
    return (
        (one, rise, zero),
        (fall, one, zero),
        (zero, one, rise),
        (zero, fall, one),
        (rise, zero, one),
        (one, zero, fall),
    )[sector % 6]


def led_colour(engine: ModuleEngine, t: float) -> tuple[int, int, int]:
    """Green once solved; red for a moment after the module's strike; else off."""
    if engine.solved:
        return LED_GREEN
    last = engine.last_strike_time
    if last is not None and 0.0 <= t - last < STRIKE_FLASH_SECONDS:
        return LED_RED
    return LED_OFF


class Compositor:
    """Renders ``Scene``s at one frame size, caching everything that does not change."""

    def __init__(self, width: int = 640, height: int = 480) -> None:
        if width < 64 or height < 48:
            from gptnt.errors import ConfigError

            raise ConfigError(f"frame size {width}x{height}: use at least 64x48")
        self.layout = FaceLayout(width, height)
        self._bomb: Bomb | None = None  # the bomb the static layers belong to (kept alive)
        self._static: dict[Hashable, np.ndarray] = {}
        self._modules: OrderedDict[Hashable, tuple[np.ndarray, np.ndarray]] = OrderedDict()

    @property
    def size(self) -> tuple[int, int]:
        return self.layout.width, self.layout.height

    def render(self, scene: Scene) -> Picture:
        if scene.bomb is not self._bomb:
            self._bomb = scene.bomb
            self._static.clear()
        side = scene.side
        if side == "front" or side == "back":  # (== narrows the side to an edge below)
            return self._face(scene, side == "front")
        return self._side(scene, side)

    # ---------------------------------------------------------------- views

    def _face(self, scene: Scene, on_front: bool) -> Picture:
        """Everything the face's picture depends on is read now (module pictures from their
        cache, LEDs, texts, the highlighted slot); the pixels are composed only when
        ``Picture.image`` is first asked for (most captured frames never are), and the ids when
        ``Picture.ids`` is."""
        bomb, layout, focused = scene.bomb, self.layout, scene.focused
        modules = bomb.modules_on_face(on_front)
        timer_here = bomb.timer_slot.on_front == on_front
        timer_slot = bomb.timer_slot.index if timer_here else None
        placement = layout.placement(None if focused is None else focused.slot.index, timer_slot)
        base = self._static_layer(
            ("face", on_front, placement),
            lambda: self._face_layer(bomb, on_front, placement),
        )
        if focused is None:
            layer = self._static_layer(
                ("face-ids", on_front), lambda: self._face_ids(modules, placement)
            )
            draw_ids: Callable[[], np.ndarray] = functools.partial(_same, layer)
        else:
            draw_ids = functools.partial(np.zeros, base.shape[:2], np.uint8)
        parts: list[_Part] = []
        for engine in modules:
            box = layout.slot_box(engine.slot.index, placement)
            image, small_ids = self._module_picture(engine, scene.t, box[2] - box[0])
            cover = None if engine is focused else _cover(engine, box)
            parts.append((image, box, led_colour(engine, scene.t), cover))
            if engine is focused:
                draw_ids = functools.partial(_zoomed_ids, base.shape[:2], small_ids, box[:2])
        timer = None
        if timer_slot is not None:
            timer = (
                layout.slot_box(timer_slot, placement),
                format_for(bomb, scene.t),
                min(len(bomb.strikes), 9),
                bomb.spec.max_strikes,
            )
        hovered = self._under_cursor(scene, modules, placement)
        highlight = (
            layout.slot_box(hovered.slot.index, placement)
            if hovered is not None and hovered is not focused
            else None
        )
        room = (layout.width, layout.height, clock_text(bomb, scene.t), layout.casing(placement))
        draw = functools.partial(_compose_face, base, tuple(parts), timer, room, highlight)
        if focused is None:
            return Picture(draw, draw_ids, tuple(modules))
        return Picture(draw, draw_ids, tuple(focused.elements()), focused.mask_objects())

    def _face_ids(self, modules: Sequence[ModuleEngine], placement: Placement) -> np.ndarray:
        """Zoomed out: module k + 1 over its slot and over any cover sticking out of it (covers
        first, so that a neighbour's own slot wins over a cover)."""
        layout = self.layout
        ids = np.zeros((layout.height, layout.width), np.uint8)
        boxes = [layout.slot_box(engine.slot.index, placement) for engine in modules]
        for k, (engine, box) in enumerate(zip(modules, boxes, strict=True)):
            cover = _cover(engine, box)
            if cover is not None:
                paint(ids, cover[0][..., 3] > 0, cover[1], k + 1)
        for k, (x0, y0, x1, y1) in enumerate(boxes):
            paint(ids, np.ones((y1 - y0, x1 - x0), bool), (x0, y0), k + 1)
        return ids

    def _face_layer(self, bomb: Bomb, on_front: bool, placement: Placement) -> np.ndarray:
        taken = {m.slot.index for m in bomb.modules_on_face(on_front)}
        if bomb.timer_slot.on_front == on_front:
            taken.add(bomb.timer_slot.index)
        rim = tuple(
            (spot.edge, (spot.index % 3 + 0.5) / 3)
            for spot in bomb.widget_spots
            if spot.edge in ("top", "bottom")
        )
        if not on_front:  # seen from the back, the top and bottom sides are mirrored
            rim = tuple((edge, 1 - at) for edge, at in rim)
        return face_base(self.layout, placement, tuple(i for i in range(6) if i not in taken), rim)

    def _under_cursor(
        self, scene: Scene, modules: Sequence[ModuleEngine], placement: Placement
    ) -> ModuleEngine | None:
        if scene.cursor is None:
            return None
        x, y = scene.cursor[0] * self.layout.width, scene.cursor[1] * self.layout.height
        for engine in modules:
            x0, y0, x1, y1 = self.layout.slot_box(engine.slot.index, placement)
            if x0 <= x < x1 and y0 <= y < y1:
                return engine
        return None

    def _side(self, scene: Scene, edge: EdgeSide) -> Picture:
        bomb = scene.bomb
        base = self._static_layer(
            ("side", edge), lambda: side_view(self.layout, edge, bomb.widgets, bomb.widget_spots)
        )
        return Picture(base.copy, functools.partial(np.zeros, base.shape[:2], np.uint8), ())

    # ---------------------------------------------------------------- caches

    def _static_layer(self, key: Hashable, build: Callable[[], np.ndarray]) -> np.ndarray:
        layer = self._static.get(key)
        if layer is None:
            layer = self._static[key] = build()
            layer.setflags(write=False)  # shared by every frame: copy before drawing
        return layer

    def _module_picture(
        self, engine: ModuleEngine, t: float, size: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """The module's picture and ids scaled to a ``size`` square, cached by its look."""
        drawer = drawer_for(engine.kind)
        key = (engine.kind, drawer.look(engine, t), size)
        hit = self._modules.get(key)
        if hit is not None:
            self._modules.move_to_end(key)
            return hit
        view = drawer.draw(engine, t)
        image = np.asarray(view.image.convert("RGB").resize((size, size), Image.Resampling.LANCZOS))
        ids = np.asarray(Image.fromarray(view.ids).resize((size, size), Image.Resampling.NEAREST))
        image.setflags(write=False)
        ids.setflags(write=False)
        self._modules[key] = (image, ids)
        if len(self._modules) > MODULE_CACHE_SIZE:
            self._modules.popitem(last=False)
        return image, ids


_Part = tuple[np.ndarray, Box, "tuple[int, int, int]", "tuple[np.ndarray, tuple[int, int]] | None"]
"""A module on the face: its picture, its slot, its LED colour, its cover (if any)."""


def _compose_face(
    base: np.ndarray,
    parts: tuple[_Part, ...],
    timer: tuple[Box, str, int, int] | None,
    room: tuple[int, int, str, Box],
    highlight: Box | None,
) -> np.ndarray:
    """The face's pixels from what ``Compositor._face`` read (no engine is looked at here)."""
    frame = base.copy()
    for image, box, led, cover in parts:
        paste(frame, image, box[:2])
        paint_led(frame, box, led)
        if cover is not None:
            blend(frame, *cover)
    if timer is not None:
        box, text, strikes, max_strikes = timer
        paste(frame, timer_module(box[2] - box[0], text, strikes, max_strikes), box[:2])
    width, height, clock, casing = room
    _behind_bomb(frame, *alarm_clock(width, height, clock), casing)
    if highlight is not None:
        paint_highlight(frame, highlight)
    return frame


def _behind_bomb(frame: np.ndarray, picture: np.ndarray, box: Box, casing: Box) -> None:
    """Paste a part of the room (``picture`` at ``box``) where the bomb's casing does not hide it."""
    x0, y0 = box[:2]
    visible = np.ones(picture.shape[:2], bool)
    cx0, cy0, cx1, cy1 = casing
    visible[max(0, cy0 - y0) : max(0, cy1 - y0), max(0, cx0 - x0) : max(0, cx1 - x0)] = False
    s = clipped(frame.shape, picture.shape[:2], (x0, y0))
    if s is not None:
        region, keep = frame[s[0], s[1]], visible[s[2], s[3]]
        region[keep] = picture[s[2], s[3]][keep]


def _same(layer: np.ndarray) -> np.ndarray:
    return layer


def _zoomed_ids(shape: tuple[int, ...], small_ids: np.ndarray, at: tuple[int, int]) -> np.ndarray:
    """Zoomed in: the focused module's ids placed at ``at`` (x, y) on an empty frame."""
    ids = np.zeros(shape, np.uint8)
    paste(ids, small_ids, at)
    return ids


def _cover(engine: ModuleEngine, box: Box) -> tuple[np.ndarray, tuple[int, int]] | None:
    """What covers a module unless it is zoomed into (the Button's translucent lid, which can
    stick out of the slot), as an RGBA picture and its top-left pixel; None for most kinds.
    The mod's mask covers it zoomed out."""
    return _cover_of(engine.kind, box)


@functools.lru_cache(maxsize=256)
def _cover_of(kind: str, box: Box) -> tuple[np.ndarray, tuple[int, int]] | None:
    overlay = getattr(drawer_for(kind), "overlay", None)
    if overlay is None:
        return None
    rgba, (dx, dy) = overlay(box[2] - box[0])
    return rgba, (box[0] + dx, box[1] + dy)


def format_for(bomb: Bomb, t: float) -> str:
    """The timer text at bomb time ``t``."""
    return timer_text(bomb.seconds_remaining(t))


ALARM_START_MINUTES = (11 * 60, 60)  # the alarm clock starts between 11:00 and 11:59


def clock_text(bomb: Bomb, t: float) -> str:
    """The alarm clock's time of day (HH:MM): its own clock, not the bomb's — it starts at a
    minute drawn from the bomb's seed and runs with game time."""
    first, spread = ALARM_START_MINUTES
    minutes = first + bomb.spec.seed % spread + int(max(t, 0.0) // 60)
    return f"{minutes // 60 % 24:02d}:{minutes % 60:02d}"
