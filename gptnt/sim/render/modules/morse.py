"""Morse Code, zoomed in: the amber lamp (lit or dark at time ``t``), the frequency scale with its
needle, the ``3.5xx MHz`` read-out between two arrows, and the TX button."""

from __future__ import annotations

from collections.abc import Hashable

from gptnt.fonts import font
from gptnt.sim.modules.morse import MorseEngine
from gptnt.sim.render._view import ModuleView
from gptnt.sim.render.modules._plate import Canvas, bevel, dim, label, put_label

LAMP_ON = (255, 190, 40)
LAMP_OFF = (120, 86, 36)
LAMP_CAP = (150, 110, 80)
LEAD = (130, 80, 50)
WINDOW = (88, 94, 106)
SCALE = (236, 216, 186)
NEEDLE = (210, 20, 20)
DISPLAY = (22, 10, 8)
DIGITS = (255, 132, 20)
ARROW = (70, 78, 112)
TX = (222, 204, 170)

SCALE_BOX = (110, 200, 402, 236)
ARROWS = {
    "left": ((66, 290), (96, 264), (96, 316)),
    "right": ((446, 290), (416, 264), (416, 316)),
}
TX_BOX = (196, 380, 316, 436)


def look(engine: MorseEngine, t: float) -> Hashable:
    return (engine.light_on(t), engine.dial_index)


def draw(engine: MorseEngine, t: float) -> ModuleView:
    canvas = Canvas()
    d = canvas.draw
    lit = engine.light_on(t)
    # The lamp: a glass tube between two caps, its leads running off to the plate.
    d.line([(40, 60), (130, 110)], fill=LEAD, width=7)
    d.line([(330, 100), (400, 84)], fill=LEAD, width=7)
    if lit:
        d.ellipse((150, 62, 310, 150), fill=dim(LAMP_ON, 0.75))
    d.rounded_rectangle((170, 78, 290, 134), radius=12, fill=LAMP_ON if lit else LAMP_OFF)
    d.rectangle((176, 86, 284, 94), fill=(255, 236, 170) if lit else dim(LAMP_OFF, 1.3))
    for x in (126, 290):
        bevel(d, (x, 68, x + 44, 144), LAMP_CAP, depth=4)
    # The frequency window: scale with needle, read-out, arrows.
    bevel(d, (60, 178, 452, 346), WINDOW, depth=5, sunk=True)
    d.rectangle(SCALE_BOX, fill=SCALE)
    x0, _, x1, _ = SCALE_BOX
    for k in range(21):
        x = x0 + 10 + k * (x1 - x0 - 20) // 20
        d.line([(x, 222), (x, 234 if k % 2 else 226)], fill=(110, 96, 80), width=2)
    dial = engine.rules.morse_rules.dial
    needle = x0 + 10 + (x1 - x0 - 20) * engine.dial_index // (len(dial) - 1)
    d.line([(needle, 202), (needle, 234)], fill=NEEDLE, width=4)
    d.rectangle((120, 262, 392, 318), fill=DISPLAY)
    text = label(f"3.{engine.frequency} MHz", 46, 256, squeeze=0.8)
    put_label(canvas.image, text, (256, 290), DIGITS)
    ids = {name: i + 1 for i, name in enumerate(engine.elements())}
    for name, points in ARROWS.items():
        d.polygon(points, fill=ARROW)
        canvas.id_draw.polygon(points, fill=ids[name])
    bevel(d, TX_BOX, TX, depth=4)
    d.text((256, 408), "TX", font=font(30, bold=True), fill=(40, 36, 32), anchor="mm")
    canvas.id_draw.rectangle(TX_BOX, fill=ids["transmit"])
    return canvas.view()
