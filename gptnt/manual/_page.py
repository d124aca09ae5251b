"""The manual as the Expert receives it: numbered pages, each with its text and its page image.

A page's text is exactly what its image shows (for a generated page) or what the PDF's text
layer holds (for an imported page). Images are kept as PNG bytes keyed by pixel height, so a
player can take the variant prepared for its image size, or have one made with Lanczos.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from PIL import Image

# Page heights (px) the paper's player configs need: the long side of each model's frame size
# (640×480 for Sonnet, GPT and Gemini; 504×504 InternVL; 448×448 Qwen). Pages keep portrait.
PLAYER_PAGE_HEIGHTS: tuple[int, ...] = (640, 504, 448)


@dataclass(frozen=True)
class ManualPage:
    """One page. ``number`` is the page number printed on it (imported pages keep the PDF's)."""

    number: int
    title: str
    text: str
    images: Mapping[int, bytes] = field(default_factory=dict)  # pixel height -> PNG bytes

    def __post_init__(self) -> None:
        # Manuals are shared (one per rule seed per process): keep the images read-only.
        object.__setattr__(self, "images", MappingProxyType(dict(self.images)))

    @property
    def full_height(self) -> int:
        """The height of the largest stored image (the page as typeset or rendered)."""
        return max(self.images)

    def image(self, height: int | None = None) -> Image.Image:
        """The page at ``height`` pixels tall (aspect kept), or the largest stored one."""
        return Image.open(io.BytesIO(self.png(height))).convert("RGB")

    def png(self, height: int | None = None) -> bytes:
        """PNG bytes at ``height`` px: a stored variant if there is one, else a Lanczos resize."""
        if height is None:
            return self.images[self.full_height]
        if height in self.images:
            return self.images[height]
        return to_png(resize_to_height(self.image(), height))


@dataclass(frozen=True)
class Manual:
    """A whole manual. ``identity`` names it in records: ``generated:rule-seed-1:<hash>`` or
    ``imported:<sha256 of the PDF>``."""

    identity: str
    kind: str  # "generated" | "imported"
    pages: tuple[ManualPage, ...]
    rule_seed: int | None = None  # generated manuals only
    source: str = ""  # where it came from (ruleset or PDF file name)

    @property
    def text(self) -> str:
        """Every page's text, in page order (what the Expert reads besides the images)."""
        return "\n\n".join(p.text for p in self.pages)


def resize_to_height(img: Image.Image, height: int) -> Image.Image:
    """Scale to ``height`` px with Lanczos, keeping the aspect (so portrait stays portrait)."""
    width = max(1, round(img.width * height / img.height))
    return img.resize((width, height), Image.Resampling.LANCZOS)


def to_png(img: Image.Image, *, colors: int | None = None) -> bytes:
    """PNG bytes; with ``colors`` the image is palette-quantised first (pages are mostly flat)."""
    if colors is not None:
        img = img.quantize(
            colors=colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()
