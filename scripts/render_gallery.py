"""Write every module view to a folder for eyeballing, beside the matching real game frame.

Usage: ``.venv/bin/python scripts/render_gallery.py OUT_DIR [--seed N]``

For each module kind it writes ``<stem>.png`` (the 512×512 face), ``<stem>-ids.png`` (the ids
canvas, spread over the grey scale so it is visible) and, when the real-game fixtures exist
(``<repo>/../shared/fixtures/real-game/som``), ``<stem>-side.png``: the real frame, the module
cut out of it and enlarged, and ours, side by side at the same height. It also prints each
drawer's median draw time. Nothing here is committed output.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

import numpy as np
from PIL import Image

from gptnt.protocol import KINDS
from gptnt.rules._edgework import Edgework
from gptnt.rules.ruleset import V1
from gptnt.sim.modules import engine_for
from gptnt.sim.modules._base import Slot
from gptnt.sim.render.modules import drawer_for

SOM = Path(__file__).resolve().parents[1] / ".." / "shared" / "fixtures" / "real-game" / "som"
# stem → (real frame showing that module, the module's box in it): measured by eye
REAL_MODULE: dict[str, tuple[str, tuple[int, int, int, int]]] = {
    "wires": ("wires-6", (205, 135, 320, 245)),
    "big_button": ("password", (205, 245, 325, 384)),
    "keypad": ("keypad", (205, 132, 325, 245)),
    "simon": ("keypad", (92, 30, 210, 135)),
    "whos_on_first": ("keypad", (318, 132, 438, 245)),
    "memory": ("keypad", (205, 30, 325, 135)),
    "maze": ("maze", (205, 130, 330, 245)),
    "morse": ("keypad", (318, 30, 438, 135)),
    "venn": ("venn-6", (205, 128, 325, 243)),
    "wire_sequence": ("maze", (200, 240, 340, 380)),
    "password": ("password", (205, 130, 325, 250)),
}


class _Bomb:
    """Just enough bomb for a module engine to be generated and pressed."""

    edgework = Edgework(serial="AB1CD2")
    strike_count = 0

    def timer_text(self) -> str:
        return "04:59"

    def strike(self, module: str) -> None:
        self.strike_count += 1


def _side_by_side(
    real: Image.Image, box: tuple[int, int, int, int], ours: Image.Image
) -> Image.Image:
    """The real frame, its module enlarged, and our view, all at the frame's height."""
    h = real.height
    crop = real.crop(box)
    crop = crop.resize((round(crop.width * h / crop.height), h), Image.Resampling.LANCZOS)
    ours = ours.resize((h, h), Image.Resampling.LANCZOS)
    sheet = Image.new("RGB", (real.width + crop.width + h + 16, h), (255, 0, 255))
    for x, part in ((0, real), (real.width + 8, crop), (real.width + crop.width + 16, ours)):
        sheet.paste(part, (x, 0))
    return sheet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for kind, stem in ((spec.name, spec.stem) for spec in KINDS):
        engine = engine_for(kind).generate(
            random.Random(args.seed), rules=V1, bomb=_Bomb(), slot=Slot(True, 0)
        )
        drawer = drawer_for(kind)
        times = []
        for _ in range(15):
            start = time.perf_counter()
            view = drawer.draw(engine, 0.0)
            times.append(time.perf_counter() - start)
        view.image.save(args.out / f"{stem}.png")
        spread = (view.ids.astype(np.int32) * (255 // max(1, int(view.ids.max())))).astype(np.uint8)
        Image.fromarray(spread, "L").save(args.out / f"{stem}-ids.png")
        frame, box = REAL_MODULE[stem]
        real = SOM / f"{frame}-screen.png"
        if real.exists():
            side = _side_by_side(Image.open(real).convert("RGB"), box, view.image)
            side.save(args.out / f"{stem}-side.png")
        print(f"{stem:14s} draw median {statistics.median(times) * 1000:5.1f} ms")


if __name__ == "__main__":
    main()
