"""Per-module looks checked against the real frames by a number: colours under the masks, type
heights. Each test renders the module zoomed in at the fixture's size, in the fixture's slot
(see ``test_framing``), and skips when the fixtures are absent."""

from __future__ import annotations

import numpy as np
from PIL import Image
from test_framing import SOM, _fixture, regions

from gptnt.sim.render.compositor import Compositor, Picture, Scene
from gptnt.sim.render.modules import wires as wires_drawer
from gptnt.sim.render.real_frames import REAL_FRAMES, lookalike

COLOUR_TOLERANCE = 16  # per channel, 0–255 levels, between medians


def _shot(fixture: str) -> Picture:
    seen = lookalike(next(f for f in REAL_FRAMES if f.name == fixture))
    return Compositor(512, 384).render(Scene(seen.bomb, seen.side, seen.focused, 10.0))


def _screen(fixture: str) -> np.ndarray:
    return np.asarray(Image.open(SOM / f"{fixture}-screen.png").convert("RGB")).astype(int)


def _medians(image: np.ndarray, mask: np.ndarray) -> list[np.ndarray]:
    """The median colour of ``image`` under each flat-coloured region of ``mask``, in reading
    order (blended edge pixels left out)."""
    out = []
    for x0, y0, x1, y1 in regions(mask):
        h, w = mask.shape[:2]
        box = (slice(round(y0 * h), round(y1 * h)), slice(round(x0 * w), round(x1 * w)))
        sub, m = image[box], mask[box][..., :3].astype(int)
        flat = (m.max(axis=2) == 255) & (m.sum(axis=2) > 0)
        colours, counts = np.unique(m[flat].reshape(-1, 3), axis=0, return_counts=True)
        main = colours[np.argmax(counts)]
        out.append(np.median(sub[(m == main).all(axis=2)], axis=0))
    return out


def test_simons_unlit_buttons_are_as_dark_as_the_games() -> None:
    real_mask = _fixture("simon")
    real = _medians(_screen("simon"), real_mask)
    picture = _shot("simon")
    mask = picture.mask()
    assert mask is not None
    ours = _medians(picture.image.astype(int), mask)
    assert len(ours) == len(real) == 4
    for a, b in zip(real, ours, strict=True):  # reading order: the same button each time
        assert np.abs(a - b).max() <= COLOUR_TOLERANCE, f"ours {b}, the game's {a}"


def test_the_white_wire_is_the_games_grey() -> None:
    _fixture("wires-6")
    # the real white wire: the top wire of the real frame's Wires module (warm, light pixels)
    top_wire = _screen("wires-6")[148:168, 230:300]
    pick = (top_wire[..., 0] >= top_wire[..., 2] + 5) & (top_wire.min(axis=2) > 120)
    real = np.median(top_wire[pick], axis=0)
    ours = np.array(wires_drawer.WIRE_COLORS["white"])
    assert np.abs(real - ours).max() <= COLOUR_TOLERANCE, f"ours {ours}, the game's {real}"


def _text_rows(image: np.ndarray, box: tuple[float, float, float, float]) -> int:
    """Rows of dark ink in the middle two thirds of a button (fractions of the frame)."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = round(box[0] * w), round(box[1] * h), round(box[2] * w), round(box[3] * h)
    inner = image[y0 + 1 : y1 - 1, x0 + (x1 - x0) // 6 : x1 - (x1 - x0) // 6].sum(axis=2)
    rows = np.nonzero((inner < 0.6 * np.median(inner)).any(axis=1))[0]
    return int(rows.max() - rows.min() + 1) if len(rows) else 0


def test_whos_on_first_words_are_as_tall_as_the_games() -> None:
    real_mask = _fixture("whoseonfirst")
    real = [_text_rows(_screen("whoseonfirst"), b) for b in regions(real_mask)]
    picture = _shot("whoseonfirst")
    mask = picture.mask()
    assert mask is not None
    ours = [_text_rows(picture.image.astype(int), b) for b in regions(mask)]
    assert len(ours) == 6 and min(real) > 0
    assert abs(np.median(ours) - np.median(real)) <= 1, f"ours {ours} px, the game's {real} px"


def test_password_letters_have_one_height_and_buttons_no_arrows() -> None:
    from gptnt.sim.render.modules import password

    heights = {c: password._letter(c).height for c in "WMTHEIL"}
    assert len(set(heights.values())) == 1, heights  # a W is narrowed, never shrunk
    assert password._letter("W").width <= password.LETTER_W + 2
    button = password.BUTTON  # a plain button: no darker arrow drawn on it
    arrow = password.dim(button, 0.45)
    from gptnt.sim.render.modules._plate import Canvas

    canvas = Canvas()
    password._round_button(canvas, 100, 100, 1)
    face = np.asarray(canvas.image)[80:120, 80:120].astype(int)
    assert not (np.abs(face - arrow).max(axis=2) <= 6).any()


def test_memory_digits_are_as_tall_as_the_games() -> None:
    real_mask = _fixture("memory")
    real = [_text_rows(_screen("memory"), b) for b in regions(real_mask)]
    picture = _shot("memory")
    mask = picture.mask()
    assert mask is not None
    ours = [_text_rows(picture.image.astype(int), b) for b in regions(mask)]
    assert len(ours) == 4 and min(real) > 0
    assert abs(np.median(ours) - np.median(real)) <= 2, f"ours {ours} px, the game's {real} px"


def _luminance(pixels: np.ndarray) -> float:
    return float(np.median(pixels.astype(float) @ [0.299, 0.587, 0.114]))


def test_the_bomb_is_lit_as_dimly_as_in_the_game() -> None:
    real_mask = _fixture("bomb-6")
    real = _luminance(_screen("bomb-6")[real_mask.max(axis=2) > 0])
    seen = lookalike(next(f for f in REAL_FRAMES if f.name == "bomb-6"))
    picture = Compositor(512, 384).render(Scene(seen.bomb, seen.side, None, 0.0))
    ours = _luminance(picture.image[picture.ids > 0])
    assert abs(ours - real) <= 12, f"modules' median luminance {ours:.0f}, the game's {real:.0f}"
