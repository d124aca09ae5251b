"""Password, zoomed in: five letters on a green LCD in a dark frame, a small plain round button
above and below each column (up / down; the game's carry no arrows), and the SUBMIT button
underneath. Every letter has the same height: a wide one (W, M) is narrowed to its cell, never
shrunk, so it cannot read as lower case."""

from __future__ import annotations

from collections.abc import Hashable

from PIL import Image

from gptnt.fonts import font
from gptnt.sim.modules.password import PasswordEngine
from gptnt.sim.render._view import ModuleView
from gptnt.sim.render.modules._plate import CONDENSED, Canvas, bevel, dim, label, put_label

FRAME = (30, 36, 62)
SIDE = (226, 150, 52)
LCD = (128, 206, 22)
LCD_CELL = (116, 190, 18)
LETTER = (24, 40, 8)
BUTTON = (196, 140, 86)
SUBMIT = (222, 204, 170)

X0, PITCH = 120, 68  # centre of column 0 and the spacing
LCD_BOX = (78, 186, 434, 306)
UP_Y, DOWN_Y = 148, 344  # centres of the arrow buttons
BUTTON_R = 20
SUBMIT_BOX = (186, 410, 326, 458)
LETTER_SIZE, LETTER_W = 88, 56  # font size of every letter, and the widest a letter may be


def look(engine: PasswordEngine, t: float) -> Hashable:
    return engine.current_word


def _letter(letter: str) -> Image.Image:
    """A letter's label at ``LETTER_SIZE``, condensed as the game's face and narrowed to fit."""
    width = font(LETTER_SIZE, bold=True).getlength(letter)
    return label(letter, LETTER_SIZE, squeeze=min(CONDENSED, LETTER_W / width))


def _round_button(canvas: Canvas, cx: int, cy: int, index: int) -> None:
    r = BUTTON_R
    d = canvas.draw
    d.ellipse((cx - r, cy - r + 3, cx + r, cy + r + 3), fill=dim(BUTTON, 0.55))
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BUTTON)
    d.ellipse((cx - r + 5, cy - r + 4, cx + r - 9, cy + r - 12), fill=dim(BUTTON, 1.15))
    canvas.id_draw.ellipse((cx - r, cy - r, cx + r, cy + r + 3), fill=index)


def draw(engine: PasswordEngine, t: float) -> ModuleView:
    canvas = Canvas()
    d = canvas.draw
    x0, y0, x1, y1 = LCD_BOX
    d.rectangle((x0 - 40, y0 + 24, x1 + 40, y1 - 24), fill=SIDE)  # orange side clamps
    d.rectangle((x0 - 34, y0 + 30, x1 + 34, y1 - 30), fill=FRAME)
    bevel(d, (x0 - 14, y0 - 14, x1 + 14, y1 + 14), FRAME, depth=4)
    d.rectangle(LCD_BOX, fill=LCD)
    ids = {name: i + 1 for i, name in enumerate(engine.elements())}
    for i, letter in enumerate(engine.current_word):
        cx = X0 + i * PITCH
        d.rectangle((cx - 30, y0 + 10, cx + 30, y1 - 10), fill=LCD_CELL)
        put_label(canvas.image, _letter(letter), (cx, (y0 + y1) // 2), LETTER)
        _round_button(canvas, cx, UP_Y, ids[f"up-{i}"])
        _round_button(canvas, cx, DOWN_Y, ids[f"down-{i}"])
    bevel(d, SUBMIT_BOX, SUBMIT, depth=4)
    d.text((256, 434), "SUBMIT", font=font(26, bold=True), fill=(48, 40, 34), anchor="mm")
    canvas.id_draw.rectangle(SUBMIT_BOX, fill=ids["submit"])
    return canvas.view()
