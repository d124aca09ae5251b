"""Maze under a rule seed: nine mazes carved depth-first from a drawn start, circles drawn from
one shared list of cells (no cell carries a circle in two mazes)."""

from __future__ import annotations

from gptnt.rules.modules import maze
from gptnt.rules.ruleseed._random import MonoRandom

SIZE = 6
_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # (dx, dy): left, right, up, down


def _carve(rng: MonoRandom) -> tuple[list[list[int]], list[list[int]]]:
    right = [[1] * (SIZE - 1) for _ in range(SIZE)]  # [y][x]: wall between x and x + 1
    down = [[1] * SIZE for _ in range(SIZE - 1)]  # [y][x]: wall between y and y + 1
    for x in range(SIZE):
        for y in range(SIZE):
            # The game's "hidden wall" rolls: probability 0, but they consume draws.
            if x > 0:
                rng.draw()
            if y > 0:
                rng.draw()
    x = rng.next(0, SIZE)
    y = rng.next(0, SIZE)
    visited = {(x, y)}
    stack: list[tuple[int, int]] = []
    while True:
        visited.add((x, y))
        nexts = [
            (x + dx, y + dy)
            for dx, dy in _STEPS
            if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE and (x + dx, y + dy) not in visited
        ]
        if nexts:
            nx, ny = rng.pick(nexts)
            if ny == y:
                right[y][min(x, nx)] = 0
            else:
                down[min(y, ny)][x] = 0
            stack.append((x, y))
            x, y = nx, ny
        elif stack:
            x, y = stack.pop()
        else:
            return right, down


def generate(rng: MonoRandom) -> maze.MazeRules:
    cells = [(x, y) for x in range(SIZE) for y in range(SIZE)]
    mazes = []
    for _ in range(9):
        right, down = _carve(rng)
        (x1, y1), (x2, y2) = rng.pop(cells), rng.pop(cells)
        mazes.append(
            maze.Maze(tuple(map(tuple, right)), tuple(map(tuple, down)), ((y1, x1), (y2, x2)))
        )
    return maze.MazeRules(mazes=tuple(mazes))
