"""The Keypad page, as typeset now, against a committed image of it (at the 640 px player
height). The comparison tolerates font rasterisation differences between FreeType builds but
not a changed layout: another page of the manual is far beyond the threshold."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from gptnt.manual import Manual

GOLDEN = Path(__file__).parent / "golden" / "keypad-h640.png"
THRESHOLD = 4.0  # mean absolute difference per channel, 0–255


def mean_abs_diff(a: Image.Image, b: Image.Image) -> float:
    assert a.size == b.size
    return float(np.abs(np.asarray(a, dtype=np.int16) - np.asarray(b, dtype=np.int16)).mean())


def page(manual: Manual, title: str) -> Image.Image:
    return next(p for p in manual.pages if p.title == title).image(640)


def test_keypad_page_matches_the_golden_image(v1_manual: Manual) -> None:
    golden = Image.open(GOLDEN).convert("RGB")
    assert mean_abs_diff(page(v1_manual, "Keypad"), golden) < THRESHOLD


def test_the_threshold_tells_pages_apart(v1_manual: Manual) -> None:
    golden = Image.open(GOLDEN).convert("RGB")
    assert mean_abs_diff(page(v1_manual, "Memory"), golden) > 2 * THRESHOLD
