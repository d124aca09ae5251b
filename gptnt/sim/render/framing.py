"""Where the bomb face sits in the frame, zoomed out and zoomed in, as the real game frames it.

The numbers below were measured on the real game's frames and masks (512×384, captured with the
GPTNT mod; the measuring is described in ``docs/framing.md``), and are kept in units of the frame
**height**: Unity keeps the vertical field of view fixed, so at another aspect ratio the bomb keeps
its size relative to the height and the frame shows more or less room at the sides.

- **Zoomed out** (the face held up): the six slots of the face, from the bounding boxes of the
  six module regions of a six-module face's mask, and the casing, from the casing's outline in
  the same frame.
- **Zoomed in** the game moves the bomb only a little closer: the whole face stays in view, the
  selected module at the centre. The scale and the point the module lands on come from
  registering every zoomed-in frame against the zoomed-out frame of the same bomb; the top row
  comes closer than the bottom row because the held bomb leans back.

One deliberate difference: when the timer is on the face being looked at but would be cut off
(it sits two columns away from the selected module), the view slides sideways just enough to
show the whole timer — the Button's release rule needs its digits, and the game's own camera
would show them after a small mouse move.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (x1, y1 exclusive)


@dataclass(frozen=True)
class Framing:
    """The measured framing, in frame heights (H). Face units are frame heights at the zoomed-out
    scale, measured from the centre of the 3 × 2 grid of slots."""

    pitch: tuple[float, float] = (0.259, 0.258)  # slot centre to slot centre (x, y): 99 px / 384
    module: float = 0.238  # side of a module: the regions are 0.242 H wide, 0.232 H tall
    grid_offset: tuple[float, float] = (0.013, 0.0105)  # grid centre from the frame centre
    casing_border: float = 0.036  # casing outline beyond the outer slots (99–423 × 88–304 px)
    zoom_scale: tuple[float, float] = (1.18, 1.11)  # top row, bottom row (registration)
    focus_offset: tuple[float, float] = (0.016, -0.005)  # where the selected module's centre lands
    view_margin: float = 0.01  # kept between the timer (or the module) and the frame edge
    table_top: float = 0.74  # the table's far edge, in frame heights from the top


FRAMING = Framing()


@dataclass(frozen=True)
class Placement:
    """The face's position in a frame: pixels per face unit and the grid centre's pixel."""

    scale: float
    cx: float
    cy: float

    def box(self, u: float, v: float, half: float) -> Box:
        """The pixel box of a square of half-side ``half`` face units centred on (u, v)."""
        x0 = round(self.cx + (u - half) * self.scale)
        y0 = round(self.cy + (v - half) * self.scale)
        side = round(2 * half * self.scale)
        return (x0, y0, x0 + side, y0 + side)


@functools.lru_cache(maxsize=4096)
def _slot_box(layout: FaceLayout, index: int, placement: Placement) -> Box:
    """``FaceLayout.slot_box``, computed once per layout, slot and placement (every captured
    frame asks for the same few)."""
    u, v = slot_centre(index, layout.framing)
    return placement.box(u, v, layout.framing.module / 2)


@functools.lru_cache(maxsize=1024)
def _placement(layout: FaceLayout, slot: int | None, timer_slot: int | None) -> Placement:
    """``FaceLayout.placement``, computed once per layout, zoom and timer slot (every
    captured frame asks for the same one)."""
    return layout.zoomed_out if slot is None else layout.zoomed_in(slot, timer_slot)


def slot_centre(index: int, framing: Framing = FRAMING) -> tuple[float, float]:
    """Slot ``index``'s centre in face units (row-major, 3 per row, as seen on that face)."""
    col, row = index % 3, index // 3
    return ((col - 1) * framing.pitch[0], (row - 0.5) * framing.pitch[1])


@dataclass(frozen=True)
class FaceLayout:
    """The face's geometry in a frame of ``width`` × ``height`` pixels, zoomed out or in."""

    width: int
    height: int
    framing: Framing = FRAMING

    @property
    def zoomed_out(self) -> Placement:
        f, h = self.framing, self.height
        return Placement(h, self.width / 2 + f.grid_offset[0] * h, h / 2 + f.grid_offset[1] * h)

    def zoomed_in(self, slot: int, timer_slot: int | None = None) -> Placement:
        """The view zoomed into the module in ``slot``; ``timer_slot`` is the timer's slot when
        the timer is on the same face (the view then keeps it whole, see the module doc)."""
        f, w, h = self.framing, self.width, self.height
        scale = h * f.zoom_scale[slot // 3]
        u, v = slot_centre(slot, f)
        cx = w / 2 + f.focus_offset[0] * h - u * scale
        cy = h / 2 + f.focus_offset[1] * h - v * scale
        if timer_slot is not None:
            cx += _slide(self, Placement(scale, cx, cy), slot, timer_slot)
        return Placement(scale, cx, cy)

    def placement(self, slot: int | None, timer_slot: int | None = None) -> Placement:
        return _placement(self, slot, timer_slot)

    def slot_box(self, index: int, placement: Placement | None = None) -> Box:
        """The square of slot ``index`` (zoomed out unless a placement is given)."""
        return _slot_box(self, index, placement or self.zoomed_out)

    def casing(self, placement: Placement | None = None) -> Box:
        f = self.framing
        p = placement or self.zoomed_out
        hx = f.pitch[0] + f.module / 2 + f.casing_border
        hy = f.pitch[1] / 2 + f.module / 2 + f.casing_border
        return (
            round(p.cx - hx * p.scale),
            round(p.cy - hy * p.scale),
            round(p.cx + hx * p.scale),
            round(p.cy + hy * p.scale),
        )

    @property
    def slot(self) -> int:
        """A module's side in pixels, zoomed out."""
        x0, _, x1, _ = self.slot_box(0)
        return x1 - x0


def _slide(layout: FaceLayout, placement: Placement, slot: int, timer_slot: int) -> float:
    """How far to move the view sideways so that the timer is whole in the frame, keeping the
    selected module whole too (0 when it already is)."""
    margin = layout.framing.view_margin * layout.height
    tx0, _, tx1, _ = layout.slot_box(timer_slot, placement)
    mx0, _, mx1, _ = layout.slot_box(slot, placement)
    if tx0 < margin:
        return min(margin - tx0, layout.width - margin - mx1)
    if tx1 > layout.width - margin:
        return -min(tx1 - (layout.width - margin), mx0 - margin)
    return 0.0
