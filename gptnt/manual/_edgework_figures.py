"""Edgework drawings for the appendices: indicator plates, battery holders, port outlines."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from gptnt.manual._figures import CONTENT_WIDTH, centered
from gptnt.manual._layout import INK, Figure

# ---------------------------------------------------------------------------- edgework


def indicators(examples: Sequence[tuple[str, bool]]) -> Figure:
    """Indicator plates: a small light and a three-letter label, lit or unlit."""
    w, h, gap = 230, 80, 40
    width = len(examples) * (w + gap) - gap

    def paint(img: Image.Image, at: tuple[int, int]) -> None:
        draw = ImageDraw.Draw(img)
        for k, (label, lit) in enumerate(examples):
            x, y = at[0] + k * (w + gap), at[1]
            draw.rounded_rectangle((x, y, x + w, y + h), 10, fill=(60, 60, 60), outline=INK)
            light = (255, 250, 205) if lit else (35, 35, 35)
            draw.ellipse(
                (x + 18, y + 22, x + 54, y + 58), fill=light, outline=(150, 150, 150), width=2
            )
            draw.rectangle((x + 70, y + 16, x + w - 16, y + h - 16), fill=(240, 240, 240))
            centered(draw, (x + 70, y + 16, x + w - 16, y + h - 16), label, 30, bold=True)
            centered(draw, (x, y + h + 4, x + w, y + h + 34), "lit" if lit else "unlit", 20)

    text = ", ".join(f"{label} ({'lit' if lit else 'unlit'})" for label, lit in examples)
    return Figure(width, h + 40, paint, text)


def batteries() -> Figure:
    """A holder with one large D battery and a holder with two slim AA batteries."""
    width, height = 700, 200

    def paint(img: Image.Image, at: tuple[int, int]) -> None:
        draw = ImageDraw.Draw(img)
        x, y = at
        draw.rounded_rectangle((x, y, x + 300, y + 150), 12, outline=INK, width=3)
        draw.rounded_rectangle(
            (x + 30, y + 35, x + 270, y + 115), 30, fill=(200, 160, 40), outline=INK, width=2
        )
        draw.rectangle((x + 270, y + 62, x + 284, y + 88), fill=(150, 150, 150))
        centered(draw, (x, y + 155, x + 300, y + 195), "one D battery", 22)
        x += 400
        draw.rounded_rectangle((x, y, x + 300, y + 150), 12, outline=INK, width=3)
        for k in range(2):
            yy = y + 25 + k * 55
            draw.rounded_rectangle(
                (x + 35, yy, x + 255, yy + 42), 18, fill=(60, 110, 60), outline=INK, width=2
            )
            draw.rectangle((x + 255, yy + 13, x + 266, yy + 29), fill=(150, 150, 150))
        centered(draw, (x, y + 155, x + 300, y + 195), "two AA batteries", 22)

    return Figure(width, height, paint, "one D battery; two AA batteries")


def ports(names: Sequence[str]) -> Figure:
    """Outlines of the port types, three to a row, each with its name."""
    per_row, cw, ch = 3, CONTENT_WIDTH // 3, 170
    nrows = (len(names) + per_row - 1) // per_row

    def paint(img: Image.Image, at: tuple[int, int]) -> None:
        draw = ImageDraw.Draw(img)
        for k, name in enumerate(names):
            x = at[0] + (k % per_row) * cw + cw / 2
            y = at[1] + (k // per_row) * ch + 60
            _PORT_SHAPES.get(name, _port_generic)(draw, x, y)
            centered(draw, (x - cw / 2, y + 62, x + cw / 2, y + 100), name, 24, bold=True)

    return Figure(per_row * cw, nrows * ch, paint, ", ".join(names))


def _port_generic(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.rectangle((x - 60, y - 25, x + 60, y + 25), outline=INK, width=3)


def _port_pins(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    n: int,
    span: float,
    *,
    holes: bool,
    rows: int = 2,
) -> None:
    for r in range(rows):
        m = n - r
        for i in range(m):
            px = x - span / 2 + (i + r * 0.5) * span / max(n - 1, 1)
            py = y - 10 + r * 20
            draw.ellipse((px - 4, py - 4, px + 4, py + 4), outline=INK, fill=None if holes else INK)


def _port_dvi(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.polygon(
        [(x - 80, y - 28), (x + 80, y - 28), (x + 70, y + 28), (x - 70, y + 28)],
        outline=INK,
        width=3,
    )
    for r in range(3):
        for i in range(8):
            px, py = x - 55 + i * 12, y - 14 + r * 14
            draw.rectangle((px - 3, py - 3, px + 3, py + 3), fill=INK)
    draw.line((x + 50, y - 10, x + 50, y + 10), fill=INK, width=4)


def _port_parallel(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.polygon(
        [(x - 115, y - 28), (x + 115, y - 28), (x + 100, y + 28), (x - 100, y + 28)],
        outline=INK,
        width=3,
        fill=(235, 190, 200),
    )
    _port_pins(draw, x, y, 13, 190, holes=True)


def _port_serial(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.polygon(
        [(x - 60, y - 28), (x + 60, y - 28), (x + 48, y + 28), (x - 48, y + 28)],
        outline=INK,
        width=3,
        fill=(190, 220, 235),
    )
    _port_pins(draw, x, y, 5, 80, holes=False)


def _port_ps2(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.ellipse((x - 34, y - 34, x + 34, y + 34), outline=INK, width=3, fill=(200, 180, 230))
    for dx, dy in ((-16, -8), (16, -8), (-20, 10), (20, 10), (-8, 20), (8, 20)):
        draw.ellipse((x + dx - 4, y + dy - 4, x + dx + 4, y + dy + 4), fill=INK)
    draw.rectangle((x - 6, y - 28, x + 6, y - 16), fill=INK)


def _port_rj45(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.rectangle((x - 40, y - 30, x + 40, y + 30), outline=INK, width=3)
    draw.rectangle((x - 14, y + 30, x + 14, y + 40), outline=INK, width=3)
    for i in range(8):
        px = x - 28 + i * 8
        draw.line((px, y - 26, px, y - 10), fill=INK, width=2)


def _port_rca(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    for dx, colour in ((-40, (200, 40, 40)), (40, (240, 240, 240))):
        draw.ellipse((x + dx - 30, y - 30, x + dx + 30, y + 30), fill=colour, outline=INK, width=3)
        draw.ellipse((x + dx - 9, y - 9, x + dx + 9, y + 9), fill=INK)


_PORT_SHAPES = {
    "DVI-D": _port_dvi,
    "Parallel": _port_parallel,
    "Serial": _port_serial,
    "PS/2": _port_ps2,
    "RJ-45": _port_rj45,
    "Stereo RCA": _port_rca,
}
