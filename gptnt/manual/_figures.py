"""The manual's drawings, each painted from rule data and paired with the words it shows.

Every function takes plain data (already read from the ruleset by the section writers) and
returns a ``Figure``: its size, a painter, and the text of everything it draws (labels, glyphs,
letters; for the mazes, their walls as a text drawing), so a page's text never misses what its
picture says. Complicated Wires and the
edgework appendices have their own files (``_venn_figures``, ``_edgework_figures``).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from gptnt.fonts import font
from gptnt.manual._layout import INK, MARGIN_X, PAGE_WIDTH, Figure

CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X
Cell = tuple[int, int]


def centered(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    text: str,
    size: int,
    *,
    bold: bool = False,
    fill: tuple[int, int, int] = INK,
) -> None:
    fnt = font(size, bold=bold)
    draw.text(
        ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, font=fnt, fill=fill, anchor="mm"
    )


# ---------------------------------------------------------------------------- keypad


def _fitting_size(text: str, width: float, size: int) -> int:
    """The largest font size up to ``size`` at which ``text`` fits in ``width`` pixels."""
    while size > 9 and font(size).getlength(text) > width:
        size -= 1
    return size


def keypad_columns(columns: Sequence[Sequence[tuple[str, str]]]) -> Figure:
    """The keypad columns side by side: each symbol drawn large with its name underneath.
    ``columns``: per column, (glyph, name) pairs from top to bottom."""
    cell_w, cell_h, head = 170, 118, 44
    rows = max(len(c) for c in columns)
    width, height = cell_w * len(columns), head + cell_h * rows

    def paint(img: Image.Image, at: tuple[int, int]) -> None:
        draw = ImageDraw.Draw(img)
        x0, y0 = at
        for i, column in enumerate(columns):
            x = x0 + i * cell_w
            centered(draw, (x, y0, x + cell_w, y0 + head), f"Column {i + 1}", 22, bold=True)
            for j, (glyph, name) in enumerate(column):
                y = y0 + head + j * cell_h
                draw.rectangle((x + 6, y + 4, x + cell_w - 6, y + cell_h - 4), outline=INK, width=2)
                centered(draw, (x, y + 6, x + cell_w, y + 78), glyph, 54)
                centered(
                    draw,
                    (x, y + 80, x + cell_w, y + cell_h - 8),
                    name,
                    _fitting_size(name, cell_w - 20, 17),
                )

    text = "\n".join(
        f"Column {i + 1}: " + ", ".join(f"{g} ({n})" for g, n in col)
        for i, col in enumerate(columns)
    )
    return Figure(width, height, paint, text)


# ---------------------------------------------------------------------------- mazes

_MAZE_GREEN = (30, 150, 60)


def maze_grids(
    mazes: Sequence[tuple[Sequence[Sequence[int]], Sequence[Sequence[int]], Sequence[Cell]]],
) -> Figure:
    """The mazes three to a row, walls drawn thick, circle markers green.
    Each maze is (right_walls, down_walls, circles) as in ``gptnt.rules.modules.maze.Maze``."""
    n = len(mazes[0][0])
    cell, pad, label = 44, 22, 36
    side = cell * n
    box_w, box_h = side + 2 * pad, side + 2 * pad + label
    cols = 3
    rows = (len(mazes) + cols - 1) // cols
    width, height = cols * box_w, rows * box_h

    def paint(img: Image.Image, at: tuple[int, int]) -> None:
        draw = ImageDraw.Draw(img)
        for k, (right, down, circles) in enumerate(mazes):
            bx = at[0] + (k % cols) * box_w + pad
            by = at[1] + (k // cols) * box_h + label
            centered(draw, (bx, by - label, bx + side, by - 4), f"Maze {k + 1}", 22, bold=True)
            draw.rectangle((bx, by, bx + side, by + side), fill=(248, 248, 248))
            for r in range(n + 1):  # faint grid
                draw.line((bx, by + r * cell, bx + side, by + r * cell), fill=(215, 215, 215))
                draw.line((bx + r * cell, by, bx + r * cell, by + side), fill=(215, 215, 215))
            for r in range(n):
                for c in range(n):
                    cx, cy = bx + c * cell + cell / 2, by + r * cell + cell / 2
                    if (r, c) in circles:
                        draw.ellipse(
                            (cx - 15, cy - 15, cx + 15, cy + 15), outline=_MAZE_GREEN, width=5
                        )
                    else:
                        draw.ellipse((cx - 4, cy - 4, cx + 4, cy + 4), fill=(120, 120, 120))
            for r in range(n):
                for c in range(n - 1):
                    if right[r][c]:
                        x = bx + (c + 1) * cell
                        draw.line(
                            (x, by + r * cell - 3, x, by + (r + 1) * cell + 3), fill=INK, width=6
                        )
            for r in range(n - 1):
                for c in range(n):
                    if down[r][c]:
                        y = by + (r + 1) * cell
                        draw.line(
                            (bx + c * cell - 3, y, bx + (c + 1) * cell + 3, y), fill=INK, width=6
                        )
            draw.rectangle((bx - 3, by - 3, bx + side + 3, by + side + 3), outline=INK, width=6)

    text = "\n".join(
        [
            "The mazes drawn as text: each cell is a dot, O marks a green circle, and the "
            "lines | and --- are walls. Row 1 is the top row and column 1 the leftmost column."
        ]
        + [f"Maze {k + 1}\n" + "\n".join(maze_ascii(*m)) for k, m in enumerate(mazes)]
    )
    return Figure(width, height, paint, text)


def maze_ascii(
    right: Sequence[Sequence[int]], down: Sequence[Sequence[int]], circles: Sequence[Cell]
) -> list[str]:
    """One maze as text: ``+---+`` and ``|`` are walls, ``O`` a circle marker, ``.`` a cell."""
    n = len(right)
    lines = ["+" + "---+" * n]
    for r in range(n):
        row = "|"
        for c in range(n):
            row += " O " if (r, c) in circles else " . "
            row += "|" if c == n - 1 or right[r][c] else " "
        lines.append(row)
        if r < n - 1:
            lines.append("+" + "".join("---+" if down[r][c] else "   +" for c in range(n)))
    lines.append("+" + "---+" * n)
    return lines


# ---------------------------------------------------------------------------- morse


def morse_chart(alphabet: Sequence[tuple[str, str]]) -> Figure:
    """Each character with its code drawn as dots and bars, four to a row."""
    per_row, cw, ch = 4, CONTENT_WIDTH // 4, 56
    nrows = (len(alphabet) + per_row - 1) // per_row

    def paint(img: Image.Image, at: tuple[int, int]) -> None:
        draw = ImageDraw.Draw(img)
        for k, (char, code) in enumerate(alphabet):
            x = at[0] + (k % per_row) * cw
            y = at[1] + (k // per_row) * ch
            draw.text((x + 10, y + ch / 2), char, font=font(28, bold=True), fill=INK, anchor="lm")
            px = x + 48
            for sym in code:
                if sym == ".":
                    draw.ellipse((px, y + ch / 2 - 6, px + 12, y + ch / 2 + 6), fill=INK)
                    px += 22
                else:
                    draw.rectangle((px, y + ch / 2 - 5, px + 30, y + ch / 2 + 5), fill=INK)
                    px += 40

    text = "\n".join(
        "   ".join(f"{c} {code}" for c, code in alphabet[i : i + per_row])
        for i in range(0, len(alphabet), per_row)
    )
    return Figure(per_row * cw, nrows * ch, paint, text)


# ---------------------------------------------------------------------------- who's on first


def _quoted(word: str) -> str:
    return f'"{word}"' if word else "empty"


def display_positions(entries: Sequence[tuple[str, int]], position_names: Sequence[str]) -> Figure:
    """Per display text, a small 2×3 picture of the buttons with the one to read filled in."""
    per_row, cw, ch = 6, CONTENT_WIDTH // 6, 150

    def paint(img: Image.Image, at: tuple[int, int]) -> None:
        draw = ImageDraw.Draw(img)
        for k, (word, pos) in enumerate(entries):
            x = at[0] + (k % per_row) * cw + 12
            y = at[1] + (k // per_row) * ch
            w = cw - 24
            draw.rectangle((x, y, x + w, y + 34), fill=(40, 40, 40))
            shown = word if word else "(empty)"
            centered(draw, (x, y, x + w, y + 34), shown, 17, bold=True, fill=(255, 255, 255))
            bw, bh = w / 2, 30
            for b in range(6):
                bx, by = x + (b % 2) * bw, y + 40 + (b // 2) * bh
                draw.rectangle(
                    (bx, by, bx + bw, by + bh),
                    outline=INK,
                    width=2,
                    fill=(30, 30, 30) if b == pos else None,
                )

    text = "\n".join(
        f"Display {_quoted(word)}: read the {position_names[pos]} button" for word, pos in entries
    )
    nrows = (len(entries) + per_row - 1) // per_row
    return Figure(per_row * cw, nrows * ch, paint, text)


# ---------------------------------------------------------------------------- simon says

_SIMON_RGB = {
    "red": (205, 40, 40),
    "blue": (40, 80, 210),
    "green": (40, 160, 70),
    "yellow": (235, 200, 40),
}


def simon_buttons(layout: Sequence[tuple[str, str]]) -> Figure:
    """The four buttons as a diamond; ``layout``: (colour, place) with place in top, right,
    bottom, left."""
    size, r = 300, 62
    centres = {"top": (150, 62), "right": (238, 150), "bottom": (150, 238), "left": (62, 150)}

    def paint(img: Image.Image, at: tuple[int, int]) -> None:
        draw = ImageDraw.Draw(img)
        for colour, place in layout:
            cx, cy = at[0] + centres[place][0], at[1] + centres[place][1]
            draw.polygon(
                [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)],
                fill=_SIMON_RGB.get(colour, (200, 200, 200)),
                outline=INK,
                width=3,
            )
            ink = INK if colour == "yellow" else (255, 255, 255)
            centered(
                draw, (cx - r, cy - r, cx + r, cy + r), colour.capitalize(), 19, bold=True, fill=ink
            )

    text = ", ".join(f"{colour.capitalize()} ({place})" for colour, place in layout)
    return Figure(size, size, paint, text)
