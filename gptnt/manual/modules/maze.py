"""The manual's section on Maze, written from its rule tables."""

from __future__ import annotations

from gptnt.manual import _figures as fig
from gptnt.manual._layout import Block, Heading, Paragraph, Section
from gptnt.protocol import kind_spec
from gptnt.rules.modules import maze

TITLE = kind_spec("Maze").title
LOOK = "a 6 × 6 grid of lights with arrow buttons"
"""How the Defuser can recognise the module (the manual's introduction lists it)."""


def section(rules: maze.MazeRules) -> Section:
    mazes = [(m.right_walls, m.down_walls, m.circles) for m in rules.mazes]
    border = (
        "The outer edge counts as a wall too."
        if rules.border_strikes
        else "Pressing towards the outer edge does nothing."
    )
    blocks: list[Block] = [
        Heading(f"Module: {TITLE}"),
        Paragraph(
            "A 6 × 6 grid of lights with four arrow buttons around it. A white square marks "
            "where you are and a red triangle marks where you must go. Two green circles tell "
            "you which of the mazes below is in play: find the maze with circles in the same "
            "two places. Rows and columns are counted from the top-left corner."
        ),
        Paragraph(
            "Each arrow press moves the white square one cell. The walls are invisible on the "
            f"module: moving into a wall is a strike and the square stays put. {border} "
            "Reaching the triangle disarms the module."
        ),
        fig.maze_grids(mazes),
    ]
    return Section(TITLE, tuple(blocks))
