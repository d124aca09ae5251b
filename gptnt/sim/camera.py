"""How the Defuser holds the bomb: which side faces the camera, and which module is zoomed in.

The mod keeps two angles (docs/protocol.md §6.3): a yaw of 0/90/180/270 degrees (front, right,
back, left), changed by ``right`` (+90), ``left`` (−90) and ``flip`` (+180 when upright); and a
tilt of −90/0/+90 (bottom, upright, top), changed by ``up``/``down`` and clamped, which ``flip``
mirrors while tilted. ``bomb_side`` is the tilt's name when tilted, else the yaw's. Modules can be
selected only when upright and showing the front or the back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gptnt.protocol import BombSide

if TYPE_CHECKING:
    from gptnt.sim.modules import ModuleEngine

_YAW_SIDES: dict[int, BombSide] = {0: "front", 90: "right", 180: "back", 270: "left"}


@dataclass
class Camera:
    yaw: int = 0
    tilt: int = 0  # +90 shows the top, −90 the bottom
    rear_selected: bool = False  # KTANE's held face, switched when upright at front/back
    focused: ModuleEngine | None = None  # the module zoomed into
    cursor: tuple[float, float] | None = None  # the last click's point (fractions of the frame)

    @property
    def side(self) -> BombSide:
        if self.tilt == 90:
            return "top"
        if self.tilt == -90:
            return "bottom"
        return _YAW_SIDES[self.yaw % 360]

    @property
    def facing_modules(self) -> bool:
        """Upright and showing the front or the back: modules can be selected."""
        return self.side in ("front", "back")

    def shows(self, engine: ModuleEngine) -> bool:
        """The module's face is the one in front of the camera."""
        return self.facing_modules and engine.slot.on_front == (self.side == "front")

    def turn(self, name: str) -> None:
        """Apply one rotation (``left``, ``right``, ``up``, ``down``, ``flip``)."""
        TURNS[name][0](self)
        if self.facing_modules:
            self.rear_selected = self.side == "back"

    def face(self, on_front: bool) -> None:
        """Hold the bomb upright with the front (or back) towards the camera."""
        self.tilt = 0
        self.yaw = 0 if on_front else 180
        self.rear_selected = not on_front


def _yaw(delta: int) -> Callable[[Camera], None]:
    def turn(camera: Camera) -> None:
        camera.yaw = (camera.yaw + delta) % 360

    return turn


def _tilt(delta: int) -> Callable[[Camera], None]:
    def turn(camera: Camera) -> None:
        camera.tilt = max(-90, min(90, camera.tilt + delta))

    return turn


def _flip(camera: Camera) -> None:
    if camera.tilt == 0:
        camera.yaw = (camera.yaw + 180) % 360
    else:
        camera.tilt = -camera.tilt


# Rotation action → (what it does, the mod's answer).
TURNS: dict[str, tuple[Callable[[Camera], None], str]] = {
    "left": (_yaw(-90), "flipped bomb left by 90 degrees"),
    "right": (_yaw(90), "flipped bomb right by 90 degrees"),
    "up": (_tilt(90), "flipped bomb up by 90 degrees"),
    "down": (_tilt(-90), "flipped bomb down by 90 degrees"),
    "flip": (_flip, "flipped bomb 180 degrees"),
}
