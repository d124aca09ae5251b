"""The bundled DejaVu fonts (free licence, see LICENSE-DejaVu.txt): they carry every keypad glyph.

Shared by the simulator's renderer and the manual builder, so neither depends on the other.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

__all__ = ["font"]

_DIR = Path(__file__).parent


def font(size: int, *, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    """A DejaVu face at ``size`` pixels: sans (default), sans bold, or mono bold."""
    name = (
        "DejaVuSansMono-Bold.ttf" if mono else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    )
    return _load(name, size)


@lru_cache(maxsize=256)
def _load(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(_DIR / name), size)
