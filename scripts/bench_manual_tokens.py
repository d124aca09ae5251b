"""How many input tokens the Expert's manual costs, per model family, at the paper's sizes.

The paper (Table H.23) reports the manual at 16,300 tokens for Sonnet 4.6, 12,518 for GPT-5.2,
12,945 for Gemini 3 Flash, 9,893 for Qwen3.5 (pages resized to 448 px) and 9,770 for InternVL
3.5 (504 px). Page images are sized like the model's frames (Appendix D.5): the long side of
the frame becomes the page height, portrait kept — 640 px for the 640×480 models, 448 / 504 px
for the square open-model frames.

Estimates (documented provider formulas; real tokenisers differ a little):

- text: characters / 4;
- Anthropic: ceil(width × height / 750) per image;
- OpenAI (high detail): fit into 2048², shrink so the short side is at most 768, then
  85 + 170 × (number of 512 px tiles);
- Gemini: 258 per image if both sides are ≤ 384 px, else 258 per 768 px tile;
- Qwen-VL: one token per 28 × 28 px patch (+2 delimiters);
- InternVL: 256 per 448 × 448 tile (its dynamic tiling, thumbnail when more than one tile).

GPTNT itself squashed the pages to the open models' square frames (448² / 504²); the rows
marked "square" show that for comparison (it explains the paper's InternVL figure: one tile
per page instead of seven for a portrait page).

Usage::

    python scripts/bench_manual_tokens.py                       # the generated v1 manual
    python scripts/bench_manual_tokens.py --manual manual-official   # an imported one too
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from dataclasses import dataclass

from gptnt.manual import Manual, load_manual


def anthropic(w: int, h: int) -> int:
    return math.ceil(w * h / 750)


def openai(w: int, h: int) -> int:
    scale = min(1.0, 2048 / max(w, h))
    w, h = w * scale, h * scale
    scale = min(1.0, 768 / min(w, h))
    w, h = w * scale, h * scale
    return 85 + 170 * math.ceil(w / 512) * math.ceil(h / 512)


def gemini(w: int, h: int) -> int:
    if w <= 384 and h <= 384:
        return 258
    return 258 * math.ceil(w / 768) * math.ceil(h / 768)


def qwen(w: int, h: int) -> int:
    return round(w / 28) * round(h / 28) + 2


def internvl(w: int, h: int, *, max_tiles: int = 12, tile: int = 448) -> int:
    """InternVL's dynamic tiling: the grid (i × j ≤ max_tiles) whose aspect ratio is closest to
    the image's (ties go to the larger grid when the image is big enough for it), plus a
    thumbnail tile when there is more than one tile; 256 tokens per tile."""
    aspect = w / h
    grids = sorted(
        {
            (i, j)
            for n in range(1, max_tiles + 1)
            for i in range(1, n + 1)
            for j in range(1, n + 1)
            if i * j <= max_tiles
        },
        key=lambda g: g[0] * g[1],
    )
    best, best_diff = (1, 1), float("inf")
    for i, j in grids:
        diff = abs(aspect - i / j)
        if diff < best_diff:
            best, best_diff = (i, j), diff
        elif diff == best_diff and w * h > 0.5 * tile * tile * i * j:
            best = (i, j)
    tiles = best[0] * best[1]
    return 256 * (tiles + (1 if tiles > 1 else 0))


@dataclass(frozen=True)
class Model:
    name: str
    page_height: int  # px: the long side of the model's frames
    image_tokens: Callable[[int, int], int]
    paper_tokens: int  # the manual's tokens in the paper (Table H.23)
    square: bool = False  # pages squashed to page_height² as GPTNT did (not portrait)


MODELS = (
    Model("Sonnet 4.6 (Anthropic)", 640, anthropic, 16_300),
    Model("GPT-5.2 (OpenAI)", 640, openai, 12_518),
    Model("Gemini 3 Flash (Google)", 640, gemini, 12_945),
    Model("Qwen3.5 27B", 448, qwen, 9_893),
    Model("Qwen3.5 27B, square", 448, qwen, 9_893, square=True),
    Model("InternVL 3.5 38B", 504, internvl, 9_770),
    Model("InternVL 3.5 38B, square", 504, internvl, 9_770, square=True),
)


def text_tokens(manual: Manual) -> int:
    return math.ceil(len(manual.text) / 4)


def rows(manual: Manual) -> list[tuple[str, ...]]:
    out = []
    text = text_tokens(manual)
    for model in MODELS:
        sizes = [
            (model.page_height, model.page_height)
            if model.square
            else p.image(model.page_height).size
            for p in manual.pages
        ]
        images = sum(model.image_tokens(w, h) for w, h in sizes)
        total = text + images
        w, h = sizes[0]
        out.append(
            (
                model.name,
                f"{w}×{h}",
                str(len(sizes)),
                f"{text:,}",
                f"{images:,}",
                f"{total:,}",
                f"{model.paper_tokens:,}",
                f"{total / model.paper_tokens:.2f}",
            )
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--manual",
        action="append",
        default=None,
        help="'generated' (default) or a manual directory; repeatable",
    )
    parser.add_argument("--rule-seed", type=int, default=1)
    args = parser.parse_args()
    header = ("model", "page px", "pages", "text tok", "image tok", "total", "paper", "ratio")
    for source in args.manual or ["generated"]:
        manual = load_manual(source, rule_seed=args.rule_seed)
        print(f"\n{manual.identity}  ({len(manual.text):,} characters of text)\n")
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows(manual):
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
