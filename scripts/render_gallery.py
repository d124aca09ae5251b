"""Side-by-side sheets of the real game's frames and the simulator's, for a person to look at.

Usage: ``.venv/bin/python scripts/render_gallery.py OUT_DIR [--seed N]``

Writes into OUT_DIR:

- ``sheets/<frame>.png`` for every real frame in ``gptnt.sim.render.real_frames`` whose files
  exist under ``<repo>/../shared/fixtures/real-game/som``: top row the real frame and the
  simulator's frame of a bomb laid out the same way (same module kind in the same slot, zoomed in
  or out), at the real frame's size; bottom row the same two with set-of-marks drawn from each
  one's own mask. Sheets are skipped (with a line saying so) when the fixtures are absent.
- ``modules/<stem>.png`` (each module kind's 512×512 face from seed N) and
  ``modules/<stem>-ids.png`` (its ids canvas spread over the grey scale), and each drawer's
  median draw time on stdout.

Nothing here is committed output.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from gptnt.fonts import font
from gptnt.protocol import KINDS
from gptnt.rules import Edgework
from gptnt.rules.ruleset import V1
from gptnt.sim.modules import Slot, engine_for
from gptnt.sim.render.compositor import Compositor, Scene
from gptnt.sim.render.modules import drawer_for
from gptnt.sim.render.real_frames import REAL_FRAMES, RealFrame, lookalike
from gptnt.vision import build_marks

SOM = Path(__file__).resolve().parents[1] / ".." / "shared" / "fixtures" / "real-game" / "som"
GAP = 8
CAPTION = 22


class _Bomb:
    """Just enough bomb for a module engine to be generated and pressed."""

    edgework = Edgework(serial="AB1CD2")
    strike_count = 0

    def timer_text(self) -> str:
        return "04:59"

    def strike(self, module: str) -> None:
        self.strike_count += 1


def _marked(frame: np.ndarray, mask: np.ndarray | None, kind: str | None) -> np.ndarray:
    if mask is None:
        return frame
    return build_marks(mask[..., :3], frame, kind).draw(frame)  # type: ignore[arg-type]


def sheet(real: RealFrame) -> Image.Image | None:
    """The 2×2 sheet of one real frame, or None when its files are absent."""
    screen, segm = real.paths(SOM)
    if not (screen.exists() and segm.exists()):
        return None
    real_frame = np.asarray(Image.open(screen).convert("RGB"))
    real_mask = np.asarray(Image.open(segm).convert("RGB"))
    h, w = real_frame.shape[:2]
    seen = lookalike(real)
    scene = Scene(seen.bomb, seen.side, seen.focused, 10.0, real.cursor)
    picture = Compositor(w, h).render(scene)
    cells = [
        ("real game", real_frame),
        ("simulator", picture.image),
        ("real game, marks", _marked(real_frame, real_mask, real.kind)),
        ("simulator, marks", _marked(picture.image, picture.mask(), real.kind)),
    ]
    out = Image.new("RGB", (2 * w + GAP, 2 * (h + CAPTION) + GAP), (24, 24, 24))
    draw = ImageDraw.Draw(out)
    for i, (caption, image) in enumerate(cells):
        x, y = (i % 2) * (w + GAP), (i // 2) * (h + CAPTION + GAP)
        draw.text((x + 4, y + 3), f"{real.name}: {caption}", font=font(14), fill=(230, 230, 230))
        out.paste(Image.fromarray(image), (x, y + CAPTION))
    return out


def modules(out: Path, seed: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for kind, stem in ((spec.name, spec.stem) for spec in KINDS):
        engine = engine_for(kind).generate(
            random.Random(seed), rules=V1, bomb=_Bomb(), slot=Slot(True, 0)
        )
        drawer = drawer_for(kind)
        times = []
        for _ in range(15):
            start = time.perf_counter()
            view = drawer.draw(engine, 0.0)
            times.append(time.perf_counter() - start)
        view.image.save(out / f"{stem}.png")
        spread = (view.ids.astype(np.int32) * (255 // max(1, int(view.ids.max())))).astype(np.uint8)
        Image.fromarray(spread, "L").save(out / f"{stem}-ids.png")
        print(f"{stem:14s} draw median {statistics.median(times) * 1000:5.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sheets = args.out / "sheets"
    sheets.mkdir(parents=True, exist_ok=True)
    for real in REAL_FRAMES:
        picture = sheet(real)
        if picture is None:
            print(f"{real.name:14s} skipped: no real frame under {SOM}")
            continue
        picture.save(sheets / f"{real.name}.png")
        print(f"{real.name:14s} sheet written")
    modules(args.out / "modules", args.seed)


if __name__ == "__main__":
    main()
