"""The four sides of the case with their widgets (serial plate, batteries, indicators, ports).

A side is a metal strip seen head-on: the long sides (top, bottom) are as wide as the casing and
hold 3 × 2 widget spots; the short sides (left, right) are as tall as the casing and hold a
column of spots (``gptnt.sim.edgework.EDGE_CAPACITY``). Nothing on a side is interactable, so
these views have no segmentation. The picture is static per bomb: the compositor caches it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from gptnt.fonts import font
from gptnt.protocol import (
    BatteryWidget,
    EdgeSide,
    IndicatorWidget,
    PortWidget,
    SerialNumberWidget,
    Widget,
)
from gptnt.sim.edgework import EDGE_CAPACITY, WidgetSpot
from gptnt.sim.render.faces import draw_casing, room
from gptnt.sim.render.framing import Box, FaceLayout, Placement

WidgetPainter = Callable[[ImageDraw.ImageDraw, Widget, Box], None]


SIDE_SCALE = 1.33
"""How much closer than the zoomed-out face a side is shown. No real frame of a side was
measured; this keeps the serial number and indicator labels as large as they were."""


def side_box(layout: FaceLayout, edge: EdgeSide) -> Box:
    """The strip of a side: casing-wide for top/bottom, casing-tall for left/right."""
    h = layout.height
    x0, y0, x1, y1 = layout.casing(Placement(h * SIDE_SCALE, layout.width / 2, h / 2))
    depth = int(min(layout.width, layout.height) * 0.46)
    cx, cy = layout.width // 2, layout.height // 2
    if edge in ("top", "bottom"):
        return (x0, cy - depth // 2, x1, cy + depth // 2)
    return (cx - depth // 2, y0, cx + depth // 2, y1)


def spot_box(layout: FaceLayout, edge: EdgeSide, index: int) -> Box:
    """Spot ``index`` of a side, in reading order (3 columns on long sides, 1 on short)."""
    x0, y0, x1, y1 = side_box(layout, edge)
    pad = max(3, (y1 - y0) // 16)
    cols = 3 if edge in ("top", "bottom") else 1
    rows = EDGE_CAPACITY[edge] // cols
    w = (x1 - x0 - pad * (cols + 1)) / cols
    h = (y1 - y0 - pad * (rows + 1)) / rows
    col, row = index % cols, index // cols
    sx = x0 + pad + col * (w + pad)
    sy = y0 + pad + row * (h + pad)
    return (int(sx), int(sy), int(sx + w), int(sy + h))


def side_view(
    layout: FaceLayout, edge: EdgeSide, widgets: Sequence[Widget], spots: Sequence[WidgetSpot]
) -> np.ndarray:
    """The frame showing one side of the case and the widgets on it."""
    img = Image.fromarray(room(layout.width, layout.height))
    draw = ImageDraw.Draw(img)
    box = side_box(layout, edge)
    draw_casing(draw, box, radius=max(4, layout.slot // 12))
    for widget, spot in zip(widgets, spots, strict=True):
        if spot.edge == edge:
            _PAINTERS[widget.name](draw, widget, spot_box(layout, edge, spot.index))
    return np.asarray(img).copy()


def _fit_text(
    draw: ImageDraw.ImageDraw, text: str, box: Box, *, bold: bool, mono: bool = False
) -> tuple[ImageFont.FreeTypeFont, tuple[float, float]]:
    """The largest bundled font for which ``text`` fits in ``box``, and its top-left corner."""
    x0, y0, x1, y1 = box
    size = max(6, int((y1 - y0) * 0.9))
    while size > 6:
        f = font(size, bold=bold, mono=mono)
        left, t, r, b = draw.textbbox((0, 0), text, font=f)
        if r - left <= x1 - x0 and b - t <= y1 - y0:
            break
        size -= 1
    f = font(size, bold=bold, mono=mono)
    left, t, r, b = draw.textbbox((0, 0), text, font=f)
    return f, (x0 + ((x1 - x0) - (r - left)) / 2 - left, y0 + ((y1 - y0) - (b - t)) / 2 - t)


def _serial(draw: ImageDraw.ImageDraw, widget: Widget, box: Box) -> None:
    assert isinstance(widget, SerialNumberWidget)
    x0, y0, x1, y1 = box
    h = y1 - y0
    draw.rounded_rectangle(box, radius=max(2, h // 10), fill=(236, 234, 226), outline=(90, 90, 90))
    band = (x0 + 2, y0 + 2, x1 - 2, y0 + int(h * 0.3))
    draw.rectangle(band, fill=(200, 30, 36))
    f, at = _fit_text(draw, "SERIAL #", band, bold=True)
    draw.text(at, "SERIAL #", font=f, fill=(255, 255, 255))
    body = (x0 + 6, y0 + int(h * 0.36), x1 - 6, y1 - 4)
    f, at = _fit_text(draw, widget.serial_number, body, bold=True, mono=True)
    draw.text(at, widget.serial_number, font=f, fill=(16, 16, 16))


def _battery(draw: ImageDraw.ImageDraw, widget: Widget, box: Box) -> None:
    assert isinstance(widget, BatteryWidget)
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=4, fill=(48, 50, 54), outline=(20, 20, 20))
    count = widget.batteries_count
    inner_h = (y1 - y0 - 8) / count
    for i in range(count):
        by0 = y0 + 4 + i * inner_h + inner_h * (0.12 if count == 2 else 0.08)
        by1 = y0 + 4 + (i + 1) * inner_h - inner_h * (0.12 if count == 2 else 0.08)
        bx0, bx1 = x0 + (x1 - x0) * 0.08, x1 - (x1 - x0) * 0.14
        body = (208, 164, 40) if widget.battery_type == "D" else (40, 150, 70)
        draw.rounded_rectangle((bx0, by0, bx1, by1), radius=int((by1 - by0) / 2.5), fill=body)
        draw.rectangle(
            (bx0 + (bx1 - bx0) * 0.62, by0, bx1 - (by1 - by0) * 0.3, by1), fill=(30, 30, 30)
        )
        nub_h = (by1 - by0) * 0.4
        draw.rectangle(
            (
                bx1,
                by0 + (by1 - by0 - nub_h) / 2,
                bx1 + (x1 - x0) * 0.04,
                by1 - (by1 - by0 - nub_h) / 2,
            ),
            fill=(190, 190, 190),
        )
        label = widget.battery_type
        f, at = _fit_text(
            draw,
            label,
            (int(bx0) + 4, int(by0) + 2, int(bx0 + (bx1 - bx0) * 0.55), int(by1) - 2),
            bold=True,
        )
        draw.text(at, label, font=f, fill=(250, 250, 250))


def _indicator(draw: ImageDraw.ImageDraw, widget: Widget, box: Box) -> None:
    assert isinstance(widget, IndicatorWidget)
    x0, y0, x1, y1 = box
    h = y1 - y0
    draw.rounded_rectangle(box, radius=4, fill=(26, 26, 28), outline=(70, 70, 70))
    r = h * 0.24
    cx, cy = x0 + h * 0.45, (y0 + y1) / 2
    if widget.light_activated:
        draw.ellipse((cx - r * 1.5, cy - r * 1.5, cx + r * 1.5, cy + r * 1.5), fill=(90, 90, 70))
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 252, 220))
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(62, 62, 60), outline=(20, 20, 20))
    f, at = _fit_text(
        draw,
        widget.label,
        (int(cx + r * 1.8), y0 + int(h * 0.2), x1 - 6, y1 - int(h * 0.2)),
        bold=True,
    )
    draw.text(at, widget.label, font=f, fill=(236, 236, 236))


def _port_plate(draw: ImageDraw.ImageDraw, widget: Widget, box: Box) -> None:
    assert isinstance(widget, PortWidget)
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=4, fill=(120, 124, 130), outline=(60, 60, 64))
    for sx, sy in ((x0 + 6, y0 + 6), (x1 - 6, y0 + 6), (x0 + 6, y1 - 6), (x1 - 6, y1 - 6)):
        draw.ellipse((sx - 2, sy - 2, sx + 2, sy + 2), fill=(70, 70, 70))
    ports = widget.port_type
    if not ports:
        return
    w = (x1 - x0 - 16) / len(ports)
    for i, port in enumerate(ports):
        cell = (
            int(x0 + 8 + i * w + 2),
            int(y0 + (y1 - y0) * 0.22),
            int(x0 + 8 + (i + 1) * w - 2),
            int(y1 - (y1 - y0) * 0.22),
        )
        _PORTS[port](draw, cell)


def _trapezoid(draw: ImageDraw.ImageDraw, cell: Box, fill: tuple[int, int, int], pins: int) -> None:
    x0, y0, x1, y1 = cell
    h = y1 - y0
    ty0, ty1 = y0 + h * 0.2, y1 - h * 0.2
    inset = (x1 - x0) * 0.08
    draw.polygon(
        [(x0, ty0), (x1, ty0), (x1 - inset, ty1), (x0 + inset, ty1)],
        fill=fill,
        outline=(20, 20, 20),
    )
    for k in range(pins):
        px = x0 + inset + (k + 0.5) * (x1 - x0 - 2 * inset) / pins
        draw.ellipse(
            (px - 1.2, (ty0 + ty1) / 2 - 1.2, px + 1.2, (ty0 + ty1) / 2 + 1.2), fill=(20, 20, 20)
        )


def _parallel(draw: ImageDraw.ImageDraw, cell: Box) -> None:
    _trapezoid(draw, cell, (216, 80, 170), 10)


def _serial_port(draw: ImageDraw.ImageDraw, cell: Box) -> None:
    x0, y0, x1, y1 = cell
    cx, w = (x0 + x1) / 2, (x1 - x0) * 0.32
    _trapezoid(draw, (int(cx - w), y0, int(cx + w), y1), (60, 170, 220), 5)


def _dvi(draw: ImageDraw.ImageDraw, cell: Box) -> None:
    x0, y0, x1, y1 = cell
    h = y1 - y0
    box = (x0 + (x1 - x0) * 0.08, y0 + h * 0.22, x1 - (x1 - x0) * 0.08, y1 - h * 0.22)
    draw.rectangle(box, fill=(240, 240, 240), outline=(30, 30, 30))
    for k in range(8):
        px = box[0] + (k + 0.5) * (box[2] - box[0]) / 8
        for py in (box[1] + (box[3] - box[1]) * 0.33, box[1] + (box[3] - box[1]) * 0.67):
            draw.rectangle((px - 1, py - 1, px + 1, py + 1), fill=(40, 40, 40))


def _ps2(draw: ImageDraw.ImageDraw, cell: Box) -> None:
    x0, y0, x1, y1 = cell
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = min(x1 - x0, y1 - y0) * 0.42
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(132, 84, 196), outline=(20, 20, 20))
    draw.ellipse((cx - r * 0.5, cy - r * 0.5, cx + r * 0.5, cy + r * 0.5), fill=(30, 30, 30))
    draw.rectangle((cx - r * 0.15, cy + r * 0.5, cx + r * 0.15, cy + r * 0.85), fill=(30, 30, 30))


def _rj45(draw: ImageDraw.ImageDraw, cell: Box) -> None:
    x0, y0, x1, y1 = cell
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    s = min(x1 - x0, y1 - y0) * 0.4
    draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=(236, 236, 226), outline=(20, 20, 20))
    draw.rectangle((cx - s * 0.7, cy - s * 0.5, cx + s * 0.7, cy + s * 0.4), fill=(24, 24, 24))
    draw.rectangle((cx - s * 0.3, cy + s * 0.4, cx + s * 0.3, cy + s * 0.75), fill=(24, 24, 24))


def _rca(draw: ImageDraw.ImageDraw, cell: Box) -> None:
    x0, y0, x1, y1 = cell
    cy = (y0 + y1) / 2
    r = min((x1 - x0) / 4, (y1 - y0) / 2) * 0.8
    for cx, colour in (
        ((x0 + x1) / 2 - r * 1.15, (220, 40, 36)),
        ((x0 + x1) / 2 + r * 1.15, (240, 240, 240)),
    ):
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=(20, 20, 20))
        draw.ellipse((cx - r * 0.3, cy - r * 0.3, cx + r * 0.3, cy + r * 0.3), fill=(30, 30, 30))


_PORTS: dict[str, Callable[[ImageDraw.ImageDraw, Box], None]] = {
    "Parallel": _parallel,
    "Serial": _serial_port,
    "DVI-D": _dvi,
    "PS/2": _ps2,
    "RJ-45": _rj45,
    "Stereo RCA": _rca,
}
_PAINTERS: dict[str, WidgetPainter] = {
    "SerialNumber": _serial,
    "Battery": _battery,
    "Indicator": _indicator,
    "Port": _port_plate,
}
