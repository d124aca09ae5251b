"""Benchmark of the simulator core: bomb generation + oracle solve, and frame + mask rendering.

Prints medians over repeats, each next to a floor measured in the same run, so the numbers can
be compared across machines:

- **solve**: one-module bombs per second per module kind (generate the bomb, then follow the
  oracle until solved, as ``gptnt sim selfcheck`` does without the mistake probes); the floor is
  a plain loop of ``random.Random`` draws, and the ratio says how many draws one bomb costs;
- **render**: milliseconds for one 640×480 frame and its segmentation mask, zoomed out (an
  11-module bomb's front face) and zoomed in; the floor is one copy of a 640×480 RGB array.

Usage: ``.venv/bin/python scripts/bench_sim.py [--bombs 200] [--repeats 5] [--frames 200]``.
"""

from __future__ import annotations

import argparse
import random

import numpy as np
from _bench import median_seconds

from gptnt.protocol import MODULE_KINDS
from gptnt.rules.ruleset import V1
from gptnt.sim.bomb import Bomb, BombSpec
from gptnt.sim.modules import ModuleEngine
from gptnt.sim.render.compositor import Compositor, Scene
from gptnt.sim.selfcheck import check_module

FLOOR_DRAWS = 10_000


def draw_floor(repeats: int) -> float:
    """Seconds per ``random.Random.random()`` draw (median of repeats)."""
    rng = random.Random(0)

    def draws() -> None:
        for _ in range(FLOOR_DRAWS):
            rng.random()

    return median_seconds(draws, repeats) / FLOOR_DRAWS


def bench_solve(bombs: int, repeats: int) -> None:
    per_draw = draw_floor(repeats)
    print(f"floor: {1 / per_draw:,.0f} random.Random draws/s")
    print(f"{'module':<14}{'bombs/s':>10}{'draws/bomb':>12}")
    for kind in MODULE_KINDS:

        def solve(kind: str = kind) -> None:
            check_module(kind, bombs, 1, V1, try_mistakes=False)

        seconds = median_seconds(solve, repeats)
        per_bomb = seconds / bombs
        print(f"{kind:<14}{1 / per_bomb:>10,.0f}{per_bomb / per_draw:>12,.0f}")


def bench_render(frames: int, repeats: int) -> None:
    spec = BombSpec(seed=7, components=tuple(MODULE_KINDS), time_limit=300.0)
    bomb = Bomb.generate(spec, V1)
    compositor = Compositor(640, 480)
    source = np.zeros((480, 640, 3), np.uint8)

    def copies() -> None:
        for _ in range(frames):
            source.copy()

    floor = median_seconds(copies, repeats) / frames
    print(f"floor: {floor * 1000:.3f} ms per 640x480 RGB copy")
    focused = next(m for m in bomb.modules if m.slot.on_front)
    for label, target in (("zoomed out", None), ("zoomed in", focused)):
        compositor.render(Scene(bomb, "front", target, 0.0))  # warm the caches once

        def render(target: ModuleEngine | None = target) -> None:
            for i in range(frames):
                compositor.render(Scene(bomb, "front", target, i * 0.25)).mask()

        per_frame = median_seconds(render, repeats) / frames
        print(
            f"frame + mask, {label:<10}: {per_frame * 1000:6.2f} ms  ({per_frame / floor:,.0f}x floor)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bombs", type=int, default=200, help="bombs per module kind per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--frames", type=int, default=200, help="frames per render repeat")
    args = parser.parse_args()
    bench_solve(args.bombs, args.repeats)
    bench_render(args.frames, args.repeats)


if __name__ == "__main__":
    main()
