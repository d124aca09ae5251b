"""Golden images pin the look of every module view, and its ids canvas exactly.

Each case generates one module from a fixed seed, drives it into a fixed state through its public
inputs (presses, the oracle's correct steps), draws it at a fixed game time and compares:

- the picture, shrunk to ``SIZE``×``SIZE``, with ``tests/sim/render/golden/<case>.png``. After a
  slight blur of both, the mean absolute difference and the share of strongly different pixels
  must stay small, and so must the signed mean difference over each tile of ``TILE`` pixels (a
  moved glyph edge adds and removes ink in the same tile, a recoloured part does not). This
  tolerates the anti-aliasing and one-pixel shifts of text, which differ between FreeType builds,
  but not a changed colour, a changed or moved part, or a lamp as small as a keypad LED changing
  colour (``test_tolerance_…`` checks both sides);
- the full-size ids canvas with ``golden/<case>-ids.png``, pixel for pixel: the geometry of what
  can be clicked must not drift.

After a deliberate change of a drawer (or of a module's generation), look at the new pictures
(``scripts/render_gallery.py``) and regenerate the goldens on purpose:

    GPTNT_UPDATE_GOLDEN=1 .venv/bin/pytest tests/sim/render/test_golden.py

That run writes the files and reports every case as skipped; commit the PNGs with the change.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageFilter

from gptnt.rules import Edgework, Press, oracle
from gptnt.rules.ruleset import V1
from gptnt.sim.modules import engine_for
from gptnt.sim.modules._base import ModuleEngine, Slot
from gptnt.sim.modules.big_button import GENERATION as BUTTON
from gptnt.sim.render._view import ModuleView
from gptnt.sim.render.modules import drawer_for, memory, whos_on_first

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("GPTNT_UPDATE_GOLDEN") == "1"
SIZE = 128  # goldens are stored at this size to keep the repository small
BLUR = 1.0  # Gaussian radius (pixels of the small picture) applied to both before comparing
MEAN_LIMIT = 1.5  # mean absolute difference, in 0–255 levels over all pixels and channels
OUTLIER_LEVEL = 24  # a pixel is an outlier when one channel differs by more than this …
OUTLIER_LIMIT = 0.0025  # … and at most this share of pixels may be outliers
TILE = 16  # side of the tiles (pixels of the small picture) whose signed mean difference …
TILE_LIMIT = 4.0  # … may not exceed this, in 0–255 levels, in any channel

ORACLE = "oracle"  # an action that presses the oracle's next correct element


class Bomb:
    """A quiet bomb: fixed serial, counts strikes, never explodes."""

    edgework = Edgework(serial="AB1CD2")
    strike_count = 0

    def timer_text(self) -> str:
        return "04:59"

    def seconds_remaining(self) -> float:
        return 299.0

    def strike(self, module: str) -> None:
        self.strike_count += 1


@dataclass(frozen=True)
class Case:
    """One pinned picture: a module from ``seed``, after ``presses`` (one per second of game
    time from t = 1), drawn at game time ``t``."""

    name: str
    kind: str
    seed: int
    t: float
    presses: tuple[str, ...] = ()
    hold: bool = False  # the last press is held, not released


CASES = [
    Case("wires-cut", "Wires", 5, 3.0, ("wire-2",)),
    Case("big_button", "BigButton", 2, 0.0),
    Case("big_button-held", "BigButton", 2, 1.0 + BUTTON.strip_delay + 0.5, ("button",), True),
    Case("keypad-two-down", "Keypad", 3, 4.0, (ORACLE, ORACLE)),
    Case("keypad-solved", "Keypad", 4, 6.0, (ORACLE,) * 4),
    Case("simon-lit", "Simon", 5, 0.1),
    Case("whos_on_first", "WhosOnFirst", 6, 10.0),
    Case("whos_on_first-emerging", "WhosOnFirst", 6, 2.05, (ORACLE,)),
    Case("memory", "Memory", 7, 10.0),
    Case("maze-moved", "Maze", 8, 3.0, (ORACLE,)),
    Case("morse-lit", "Morse", 9, 3.1, ("right",)),  # the lamp is on then
    Case("venn-cut", "Venn", 10, 3.0, ("wire-1",)),
    Case("wire_sequence-cut", "WireSequence", 11, 10.0, (ORACLE,)),
    Case("password", "Password", 12, 5.0, ("up-0", "up-0", "down-3")),
]


def _element(engine: ModuleEngine, press: str, t: float) -> str:
    """The element a case's press means: the one named, or the oracle's next correct one."""
    if press != ORACLE:
        assert press in engine.elements(), f"{press} is not an element of {engine.elements()}"
        return press
    steps = oracle.solve(engine.export(t, in_focus=True), Bomb.edgework, V1, 0)
    assert steps and isinstance(steps[0], Press), f"the oracle has no press here: {steps}"
    return steps[0].element


def drive(case: Case) -> tuple[Any, float]:
    """The case's engine in its state, and the game time to draw it at."""
    engine = engine_for(case.kind).generate(
        random.Random(case.seed), rules=V1, bomb=Bomb(), slot=Slot(True, 0)
    )
    for i, press in enumerate(case.presses):
        t = 1.0 + i
        element = _element(engine, press, t)
        engine.press(element, t)
        if not (case.hold and i == len(case.presses) - 1):
            engine.release(element, t)
        engine.advance(t)
    engine.advance(case.t)
    return engine, case.t


def render(case: Case) -> ModuleView:
    engine, t = drive(case)
    return drawer_for(case.kind).draw(engine, t)


def _small(view: ModuleView) -> np.ndarray:
    return np.asarray(view.image.resize((SIZE, SIZE), Image.Resampling.BOX), dtype=np.uint8)


def _blurred(picture: np.ndarray) -> np.ndarray:
    image = Image.fromarray(picture, "RGB").filter(ImageFilter.GaussianBlur(BLUR))
    return np.asarray(image, dtype=np.int16)


@dataclass(frozen=True)
class Difference:
    """How far two small pictures are apart, in the three measures the limits apply to."""

    mean: float
    outliers: float
    tile: float

    def small(self) -> bool:
        return (
            self.mean <= MEAN_LIMIT and self.outliers <= OUTLIER_LIMIT and self.tile <= TILE_LIMIT
        )

    def __str__(self) -> str:
        return (
            f"mean difference {self.mean:.2f} (limit {MEAN_LIMIT}), outliers {self.outliers:.2%} "
            f"(limit {OUTLIER_LIMIT:.1%}), worst tile {self.tile:.1f} (limit {TILE_LIMIT})"
        )


def differences(ours: np.ndarray, golden: np.ndarray) -> Difference:
    """The measures between two small RGB pictures."""
    signed = _blurred(ours).astype(np.int32) - _blurred(golden)
    diff = np.abs(signed)
    n = SIZE // TILE
    tiles = signed.reshape(n, TILE, n, TILE, 3).mean(axis=(1, 3))
    return Difference(
        mean=float(diff.mean()),
        outliers=float((diff.max(axis=2) > OUTLIER_LEVEL).mean()),
        tile=float(np.abs(tiles).max()),
    )


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_module_view_matches_its_golden(case: Case) -> None:
    view = render(case)
    picture, ids = GOLDEN / f"{case.name}.png", GOLDEN / f"{case.name}-ids.png"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        Image.fromarray(_small(view), "RGB").save(picture, optimize=True)
        Image.fromarray(view.ids, "L").save(ids, optimize=True)
        pytest.skip(f"wrote {picture.name} and {ids.name}")
    assert picture.exists() and ids.exists(), (
        f"no golden for {case.name}; write it with GPTNT_UPDATE_GOLDEN=1 (see this file's docstring)"
    )
    difference = differences(_small(view), np.asarray(Image.open(picture).convert("RGB")))
    assert difference.small(), (
        f"{case.name} looks different: {difference}; if meant, regenerate the goldens"
    )
    golden_ids = np.asarray(Image.open(ids))
    moved = int((golden_ids != view.ids).sum())
    assert moved == 0, f"{case.name}: {moved} pixels of the ids canvas moved"


def test_cases_reach_their_states() -> None:
    """The cases show what their names say (so a golden cannot silently pin a dull state)."""
    state = {c.name: drive(c) for c in CASES}
    wires, _ = state["wires-cut"]
    assert wires.cut == {2}
    button, t = state["big_button-held"]
    assert button.strip_lit(t) is not None
    assert len(state["keypad-two-down"][0].down) == 2 and state["keypad-solved"][0].solved
    simon, t = state["simon-lit"]
    assert simon.lit_color(t) is not None
    whos, t = state["whos_on_first-emerging"]
    assert whos.emerging(t) and whos.stages_done() == 1
    maze, _ = state["maze-moved"]
    assert maze.square != drive(Case("maze", "Maze", 8, 0.0))[0].square
    morse, t = state["morse-lit"]
    assert morse.light_on(t) and morse.dial_index == morse.timing.start_index + 1
    venn, _ = state["venn-cut"]
    assert [w is not None and w.cut for w in venn.wires].count(True) == 1
    sequence, t = state["wire_sequence-cut"]
    assert any(w.cut for _, w in sequence.panel_wires()) and not sequence.emerging(t)


def _jitter_text(view: ModuleView, screen: tuple[int, int, int, int]) -> Image.Image:
    """The picture with the words (inside the display and inside each button, clear of their
    bevels) moved one pixel right and down: a coarse stand-in for another FreeType build."""
    margin = 10
    boxes = [screen]
    for i in range(1, int(view.ids.max()) + 1):
        ys, xs = np.nonzero(view.ids == i)
        boxes.append((xs.min() + margin, ys.min() + margin, xs.max() - margin, ys.max() - margin))
    image = view.image.copy()
    for x0, y0, x1, y1 in boxes:
        image.paste(view.image.crop((x0, y0, x1 - 1, y1 - 1)), (x0 + 1, y0 + 1))
    return image


@pytest.mark.parametrize(
    ("name", "screen"),
    [("whos_on_first", whos_on_first.SCREEN), ("memory", memory.SCREEN)],  # the most text
)
def test_tolerance_accepts_text_jitter(name: str, screen: tuple[int, int, int, int]) -> None:
    """The limits let through font rasterisation noise …"""
    view = render(next(c for c in CASES if c.name == name))
    jittered = differences(_small(ModuleView(_jitter_text(view, screen), view.ids)), _small(view))
    assert jittered.mean > 0 and jittered.small(), jittered


def test_tolerance_rejects_real_changes() -> None:
    """… but not a real change of the picture, however small."""
    view = render(next(c for c in CASES if c.name == "whos_on_first"))
    for change in (_duller_buttons, _red_lamp, _warmer_screen):
        changed = differences(_small(ModuleView(change(view), view.ids)), _small(view))
        assert not changed.small(), f"{change.__name__}: {changed}"


def _duller_buttons(view: ModuleView) -> Image.Image:
    """Every button 5 % darker."""
    image = np.asarray(view.image).copy()
    image[view.ids > 0] = (image[view.ids > 0] * 0.95).astype(np.uint8)
    return Image.fromarray(image)


def _red_lamp(view: ModuleView) -> Image.Image:
    """A red lamp the size of a keypad LED appears on the plate."""
    image = view.image.copy()
    image.paste((250, 40, 30), (200, 40, 252, 49))
    return image


def _warmer_screen(view: ModuleView) -> Image.Image:
    """The display's red channel 20 levels up."""
    image = np.asarray(view.image).copy()
    x0, y0, x1, y1 = whos_on_first.SCREEN
    image[y0:y1, x0:x1, 0] = np.minimum(255, image[y0:y1, x0:x1, 0].astype(int) + 20)
    return Image.fromarray(image)
