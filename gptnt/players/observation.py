"""What the Defuser is shown each turn (paper §4.2.1, D.3, D.4).

- the last frame of each of its previous turns, up to the config's ``previous_frames``
  (1 by default, GPTNT's ``preserve_last_frame_for_n_turns``), oldest first and *without*
  marks, so it can see what its previous commands changed;
- for Simon Says and Morse Code, whose information blinks, the recent frames of the buffer,
  oldest first (four seconds at 0.25 s apart), so a whole cycle is visible;
- the newest frame, with set-of-marks labels when the player uses marks.

Every image is drawn at the game's resolution and then resized with Lanczos to the player's
image size. Captions say which image is which.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from gptnt.players.conversation import Attachment
from gptnt.protocol import KINDS, ModuleKind, encode_png
from gptnt.vision import SetOfMarks, resize

MOTION_KINDS: frozenset[str] = frozenset(spec.name for spec in KINDS if spec.blinks)
"""Modules whose state can only be read over time (the registry's ``blinks``): they get the
frame sequence."""

SEQUENCE_LENGTH = 16
"""Frames of the mod's ring buffer: four seconds of game time, 0.25 s apart."""

_CAPTIONS = {
    "previous": "The last picture of your previous turn (no markers):",
    "earlier": "The last picture of your turn {k} turns ago (no markers):",
    "sequence": "Recent picture {i} of {n}, oldest first, 0.25 s of game time apart:",
    "newest_marked": "The newest picture, with location markers (your command acts on this):",
    "newest": "The newest picture (your command acts on this):",
}


@dataclass(frozen=True)
class ModelObservation:
    """One turn's images, the marks valid for this turn, and the raw newest frame (which is
    the ``previous`` frame of the next turn).
    """

    attachments: tuple[Attachment, ...]
    marks: SetOfMarks | None
    newest: np.ndarray = field(repr=False)


def observe(
    frames: Sequence[np.ndarray],
    marks: SetOfMarks | None,
    kind: ModuleKind | None,
    *,
    previous: Sequence[np.ndarray],
    image_size: tuple[int, int],
    sequence_length: int = SEQUENCE_LENGTH,
) -> ModelObservation:
    """The images for one Defuser turn.

    ``frames`` are the buffer's frames oldest first (H×W×3 uint8, top-down); ``marks`` the
    set-of-marks of the newest frame (``None``: none drawn, e.g. a coordinates player);
    ``kind`` the module zoomed into (``None`` when zoomed out: Simon and Morse get the
    sequence); ``previous`` the newest frame of each earlier turn still shown, oldest first
    (empty: none); ``image_size`` the
    model's ``(width, height)``.
    """
    if not frames:
        raise ValueError("observe needs at least one frame")
    newest = np.ascontiguousarray(frames[-1][..., :3])
    attachments: list[Attachment] = []
    for back, frame in zip(range(len(previous), 0, -1), previous, strict=True):
        caption = _CAPTIONS["previous"] if back == 1 else _CAPTIONS["earlier"].format(k=back)
        attachments.append(Attachment(caption, _png(frame, image_size)))
    if kind in MOTION_KINDS and len(frames) > 1:
        earlier = list(frames[-sequence_length:-1])
        count = len(earlier) + 1
        for i, frame in enumerate(earlier, start=1):
            caption = _CAPTIONS["sequence"].format(i=i, n=count)
            attachments.append(Attachment(caption, _png(frame, image_size)))
    shown = marks.draw(newest) if marks is not None else newest
    caption = _CAPTIONS["newest_marked" if marks is not None else "newest"]
    attachments.append(Attachment(caption, _png(shown, image_size)))
    return ModelObservation(tuple(attachments), marks, newest)


def _png(image: np.ndarray, size: tuple[int, int]) -> bytes:
    return encode_png(resize(np.ascontiguousarray(image[..., :3]), size), compress_level=6)
