"""The full frame: the current view of the bomb, its hit-test canvas and its segmentation mask.

Views (``Scene.side`` and ``Scene.focused``):

- **face** (front/back, zoomed out): the casing with six slots; each module is its drawer's
  512×512 picture scaled into its slot; empty plates; the timer on its face; status LEDs;
- **side** (left/right/top/bottom): one side of the case with its widgets;
- **zoomed in**: the focused module's picture large in the centre of the frame.

Every picture comes with an ``ids`` canvas built with the same geometry: zoomed out, module k of
the face (bomb component order, timer and empty plates excluded) is painted k + 1 over its slot;
zoomed in, the drawer's element ids are scaled nearest-neighbour into the module's square. Hit
testing reads that canvas, and the mask colours it HSV(i/N, 1, 1) on black (mod-protocol.md
§3.3–§3.4), so a click on a marked region always hits that region's element.

Performance: static layers (room, casing, empty plates, sides) are cached per bomb and size;
module pictures are cached by ``(kind, look)`` (the drawer's key) and size; a frame is a copy of
a cached base plus a few array pastes.
"""

from __future__ import annotations

import colorsys
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image, ImageDraw

from gptnt.protocol._state import BombSide, timer_text
from gptnt.sim.bomb import Bomb
from gptnt.sim.render.edges import side_view
from gptnt.sim.render.faces import (
    LED_GREEN,
    LED_OFF,
    LED_RED,
    FaceLayout,
    draw_casing,
    face_base,
    paint_led,
    room,
    timer_module,
)
from gptnt.sim.render.modules import drawer_for

if TYPE_CHECKING:
    from gptnt.sim.modules._base import ModuleEngine

STRIKE_FLASH_SECONDS = 1.0  # the status LED shows red this long after a module's strike
MODULE_CACHE_SIZE = 512


@dataclass(frozen=True)
class Scene:
    """What the camera sees: a bomb at bomb time ``t`` from ``side``, maybe zoomed into a module."""

    bomb: Bomb
    side: BombSide
    focused: ModuleEngine | None
    t: float


@dataclass(frozen=True)
class Picture:
    """One rendered view: the RGB frame, the hit-test ids and what each id stands for.

    ``targets[k - 1]`` is what id k hits: a ``ModuleEngine`` zoomed out, an element id zoomed in.
    """

    image: np.ndarray  # (H, W, 3) uint8, top-down
    ids: np.ndarray  # (H, W) uint8, 0 = nothing
    targets: tuple[object, ...]

    def hit(self, x: int, y: int) -> object | None:
        """The target under pixel (x, y), or None."""
        k = int(self.ids[y, x])
        return self.targets[k - 1] if k else None

    def mask(self) -> np.ndarray | None:
        """The segmentation mask (flat HSV(i/N) colours on black), None if nothing is active."""
        if not self.targets:
            return None
        indexed = Image.fromarray(self.ids, mode="P")
        indexed.putpalette(hsv_palette(len(self.targets)).tobytes())
        return np.asarray(indexed.convert("RGB"))


@lru_cache(maxsize=64)
def hsv_palette(n: int) -> np.ndarray:
    """Row 0 black, row i + 1 = HSV(i/n, 1, 1): the mod's segmentation colours."""
    rows = [(0, 0, 0)] + [
        tuple(round(255 * c) for c in colorsys.hsv_to_rgb(i / n, 1.0, 1.0)) for i in range(n)
    ]
    rows += [(0, 0, 0)] * (256 - len(rows))
    return np.array(rows, dtype=np.uint8)


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
        self._static: dict[Hashable, tuple[np.ndarray, np.ndarray]] = {}
        self._modules: OrderedDict[Hashable, tuple[np.ndarray, np.ndarray]] = OrderedDict()

    @property
    def size(self) -> tuple[int, int]:
        return self.layout.width, self.layout.height

    def render(self, scene: Scene) -> Picture:
        if scene.bomb is not self._bomb:
            self._bomb = scene.bomb
            self._static.clear()
        if scene.focused is not None:
            return self._zoomed(scene, scene.focused)
        if scene.side in ("front", "back"):
            return self._face(scene, scene.side == "front")
        return self._side(scene)

    # ---------------------------------------------------------------- views

    def _face(self, scene: Scene, on_front: bool) -> Picture:
        bomb, layout = scene.bomb, self.layout
        modules = bomb.modules_on_face(on_front)
        base, ids = self._static_layer(
            ("face", on_front), lambda: self._face_layers(bomb, on_front)
        )
        frame = base.copy()
        s = layout.slot
        for engine in modules:
            x0, y0, x1, y1 = layout.slot_box(engine.slot.index)
            frame[y0:y1, x0:x1] = self._module_picture(engine, scene.t, s)[0]
            paint_led(frame, (x0, y0, x1, y1), led_colour(engine, scene.t))
        if bomb.timer_slot.on_front == on_front:
            x0, y0, x1, y1 = layout.slot_box(bomb.timer_slot.index)
            frame[y0:y1, x0:x1] = timer_module(
                s, format_for(bomb, scene.t), min(len(bomb.strikes), 9), bomb.spec.max_strikes
            )
        return Picture(frame, ids, tuple(modules))

    def _face_layers(self, bomb: Bomb, on_front: bool) -> tuple[np.ndarray, np.ndarray]:
        layout = self.layout
        taken = {m.slot.index for m in bomb.modules_on_face(on_front)}
        if bomb.timer_slot.on_front == on_front:
            taken.add(bomb.timer_slot.index)
        base = face_base(layout, tuple(i for i in range(6) if i not in taken))
        ids = np.zeros((layout.height, layout.width), np.uint8)
        inset = max(1, layout.slot // 25)
        for k, engine in enumerate(bomb.modules_on_face(on_front)):
            x0, y0, x1, y1 = layout.slot_box(engine.slot.index)
            ids[y0 + inset : y1 - inset, x0 + inset : x1 - inset] = k + 1
        return base, ids

    def _side(self, scene: Scene) -> Picture:
        bomb = scene.bomb
        edge = scene.side
        base, ids = self._static_layer(
            ("side", edge),
            lambda: (
                side_view(self.layout, edge, bomb.widgets, bomb.widget_spots),  # type: ignore[arg-type]
                np.zeros((self.layout.height, self.layout.width), np.uint8),
            ),
        )
        return Picture(base.copy(), ids, ())

    def _zoomed(self, scene: Scene, engine: ModuleEngine) -> Picture:
        layout = self.layout
        base, blank = self._static_layer(("zoom",), self._zoom_layers)
        x0, y0, x1, y1 = layout.zoom_box()
        image, small_ids = self._module_picture(engine, scene.t, x1 - x0)
        frame = base.copy()
        frame[y0:y1, x0:x1] = image
        paint_led(frame, (x0, y0, x1, y1), led_colour(engine, scene.t))
        ids = blank.copy()
        ids[y0:y1, x0:x1] = small_ids
        return Picture(frame, ids, tuple(engine.elements()))

    def _zoom_layers(self) -> tuple[np.ndarray, np.ndarray]:
        layout = self.layout
        img = Image.fromarray(room(layout.width, layout.height))
        x0, y0, x1, y1 = layout.zoom_box()
        pad = (x1 - x0) // 10
        draw_casing(ImageDraw.Draw(img), (x0 - pad, y0 - pad, x1 + pad, y1 + pad), radius=pad // 2)
        return np.asarray(img).copy(), np.zeros((layout.height, layout.width), np.uint8)

    # ---------------------------------------------------------------- caches

    def _static_layer(
        self, key: Hashable, build: Callable[[], tuple[np.ndarray, np.ndarray]]
    ) -> tuple[np.ndarray, np.ndarray]:
        layer = self._static.get(key)
        if layer is None:
            layer = self._static[key] = build()
            for array in layer:
                array.setflags(write=False)  # shared by every frame: copy before drawing
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


def format_for(bomb: Bomb, t: float) -> str:
    """The timer text at bomb time ``t``."""
    return timer_text(bomb.seconds_remaining(t))
