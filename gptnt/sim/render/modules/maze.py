"""Maze, zoomed in: a dark screen with a 6×6 grid of dots, two green circles, the white square and
the red triangle, and four arrow buttons around it. The walls are invisible, as in the game."""

from __future__ import annotations

from collections.abc import Hashable

from gptnt.rules.modules.maze import Cell
from gptnt.sim.modules.maze import MazeEngine
from gptnt.sim.render._view import ModuleView
from gptnt.sim.render.modules._plate import Canvas, bevel

SCREEN = (5, 11, 30)
BEZEL = (150, 160, 170)
DOT = (44, 98, 118)
CIRCLE = (96, 224, 72)
SQUARE = (250, 250, 250)
TRIANGLE = (226, 22, 24)
ARROW = (28, 34, 52)

GRID_X, GRID_Y = 146, 150  # centre of cell (0, 0)
PITCH = 44  # pixels between cell centres

# Arrow triangles, outside the screen: (tip, base corner, base corner).
ARROWS: dict[str, tuple[tuple[int, int], ...]] = {
    "up": ((256, 50), (226, 78), (286, 78)),
    "left": ((46, 260), (74, 230), (74, 290)),
    "right": ((466, 260), (438, 230), (438, 290)),
    "down": ((256, 478), (226, 450), (286, 450)),
}


def _centre(cell: Cell) -> tuple[int, int]:
    return GRID_X + cell[1] * PITCH, GRID_Y + cell[0] * PITCH


def look(engine: MazeEngine, t: float) -> Hashable:
    return (engine.maze.circles, engine.square, engine.goal)


def draw(engine: MazeEngine, t: float) -> ModuleView:
    canvas = Canvas()
    d = canvas.draw
    bevel(d, (96, 100, 416, 420), BEZEL, depth=6)
    bevel(d, (110, 114, 402, 406), SCREEN, depth=3, sunk=True)
    for r in range(engine.maze.size):
        for c in range(engine.maze.size):
            x, y = _centre((r, c))
            d.rectangle((x - 4, y - 4, x + 4, y + 4), fill=DOT)
    for cell in engine.maze.circles:
        x, y = _centre(cell)
        d.ellipse((x - 16, y - 16, x + 16, y + 16), outline=CIRCLE, width=5)
    x, y = _centre(engine.goal)
    d.polygon([(x, y - 11), (x - 11, y + 9), (x + 11, y + 9)], fill=TRIANGLE)
    x, y = _centre(engine.square)
    d.rectangle((x - 7, y - 7, x + 7, y + 7), fill=SQUARE)
    for index, arrow in enumerate(engine.elements()):
        points = ARROWS[arrow]
        d.polygon(points, fill=ARROW)
        canvas.id_draw.polygon(points, fill=index + 1)
    return canvas.view()
