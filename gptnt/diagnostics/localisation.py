"""Localisation: "click the …" instructions on frames, answered by label or by point (paper §9.3).

Seven categories (the paper's Table G.22): **reading** (the target's text), **colour**,
**counting** (an ordinal among elements of one type), **element** (the type alone, where only
one exists), **position** (a spatial descriptor), **ambiguity** (the instruction fits several
elements: the right answer is AMBIGUOUS) and **hallucination** (no element fits: NONE).

Each question keeps the marked frame (set-of-marks paradigm), the raw frame (coordinate
paradigm) and the mask (ground truth, never shown). A label answer is right when it is the
target's label; a point is right when the mask pixel under it has the target's colour, in
whichever coordinate convention the player uses (``score_point``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

import numpy as np

from gptnt.diagnostics._dataset import ImageStore, Question, Target
from gptnt.diagnostics._frames import Shot, draws, frame_prompt
from gptnt.diagnostics._words import KEY_NAMES, POSITIONS_6, ordinal
from gptnt.protocol import (
    BigButtonModule,
    MemoryModule,
    VennModule,
    WhosOnFirstModule,
    WireSequenceModule,
    WiresModule,
    encode_png,
    state_as,
)

AMBIGUOUS = "AMBIGUOUS"
NONE = "NONE"

# (category, instruction, target element id or AMBIGUOUS / NONE)
Candidate = tuple[str, str, str]


_W = TypeVar("_W")


def _present(wires: Sequence[_W | None]) -> list[_W]:
    return [w for w in wires if w is not None]


def _wires(shot: Shot, rng: random.Random) -> list[Candidate]:
    wires = sorted(_present(state_as(shot.module, WiresModule).wires), key=lambda w: w.position)
    colours = [w.color for w in wires]
    out: list[Candidate] = []
    n = rng.randrange(len(wires))
    out.append(
        ("counting", f"Cut the {ordinal(n + 1)} wire from the top.", f"wire-{wires[n].position}")
    )
    for colour in dict.fromkeys(colours):  # first-seen order: a set's order follows the hash seed
        if colours.count(colour) == 1:
            out.append(
                (
                    "colour",
                    f"Cut the {colour} wire.",
                    f"wire-{wires[colours.index(colour)].position}",
                )
            )
        else:
            out.append(("ambiguity", f"Cut the {colour} wire.", AMBIGUOUS))
    out.append(("position", "Cut the bottom wire.", f"wire-{wires[-1].position}"))
    out.append(("position", "Cut the top wire.", f"wire-{wires[0].position}"))
    missing = ("green", "orange", "purple")  # wire colours the game never draws
    out.append(("hallucination", f"Cut the {rng.choice(missing)} wire.", NONE))
    if len(wires) > 1:
        out.append(("ambiguity", "Cut the wire.", AMBIGUOUS))
    return out


def _button(shot: Shot, rng: random.Random) -> list[Candidate]:
    m = state_as(shot.module, BigButtonModule)
    return [
        ("element", "Press the button.", "button"),
        ("reading", f"Press the button that says {m.button_word.upper()}.", "button"),
        ("colour", f"Press the {m.button_color} button.", "button"),
        ("hallucination", "Press the green button that says STOP.", NONE),
    ]


def _keypad(shot: Shot, rng: random.Random) -> list[Candidate]:
    out: list[Candidate] = [
        ("position", f"Press the {name} key.", key) for key, name in KEY_NAMES.items()
    ]
    out.append(("ambiguity", "Press the key.", AMBIGUOUS))
    out.append(("hallucination", "Press the fifth key.", NONE))
    return out


def _simon(shot: Shot, rng: random.Random) -> list[Candidate]:
    out: list[Candidate] = [
        ("colour", f"Press the {c} button.", c) for c in ("red", "blue", "green", "yellow")
    ]
    out += _positions(shot, ("red", "blue", "green", "yellow"), "button")
    out.append(("ambiguity", "Press the coloured button.", AMBIGUOUS))
    out.append(("hallucination", "Press the purple button.", NONE))
    return out


_DECOYS = ("FIRST", "NOTHING", "LEFT", "OKAY", "WAIT")
_RESERVE = ("READY", "BLANK", "MIDDLE", "PRESS", "UHHH", "YES", "NO")


def _whos_on_first(shot: Shot, rng: random.Random) -> list[Candidate]:
    words = list(state_as(shot.module, WhosOnFirstModule).button_words or [])
    out: list[Candidate] = []
    for i, word in enumerate(words):
        if words.count(word) == 1:
            out.append(("reading", f"Press the button that says {word}.", f"button-{i}"))
        out.append(("position", f"Press the {POSITIONS_6[i]} button.", f"button-{i}"))
    # Six buttons can show all five of the usual decoys; the reserve (more than six words in
    # all) keeps the pool non-empty without changing the questions of every other build.
    absent = [w for w in _DECOYS if w not in words] or [w for w in _RESERVE if w not in words]
    out.append(("hallucination", f"Press the button that says {rng.choice(absent)}.", NONE))
    out.append(("ambiguity", "Press the word button.", AMBIGUOUS))
    return out


def _memory(shot: Shot, rng: random.Random) -> list[Candidate]:
    labels = list(state_as(shot.module, MemoryModule).button_numbers or [])
    out: list[Candidate] = []
    for i, n in enumerate(labels):
        out.append(("reading", f"Press the button labelled {n}.", f"button-{i}"))
        out.append(("counting", f"Press the {ordinal(i + 1)} button from the left.", f"button-{i}"))
    out.append(("position", "Press the leftmost button.", "button-0"))
    out.append(("position", "Press the rightmost button.", "button-3"))
    out.append(("hallucination", "Press the button labelled 7.", NONE))
    out.append(("ambiguity", "Press the numbered button.", AMBIGUOUS))
    return out


def _morse(shot: Shot, rng: random.Random) -> list[Candidate]:
    return [
        ("reading", "Press the TX button.", "transmit"),
        ("element", "Press the transmit button.", "transmit"),
        ("position", "Press the left arrow.", "left"),
        ("position", "Press the right arrow.", "right"),
        ("ambiguity", "Press the arrow.", AMBIGUOUS),
        ("hallucination", "Press the RX button.", NONE),
    ]


def _venn(shot: Shot, rng: random.Random) -> list[Candidate]:
    wires = _present(state_as(shot.module, VennModule).wires)
    out: list[Candidate] = []
    n = rng.randrange(len(wires))
    out.append(
        ("counting", f"Cut the {ordinal(n + 1)} wire from the left.", f"wire-{wires[n].position}")
    )
    out.append(("position", "Cut the leftmost wire.", f"wire-{wires[0].position}"))
    out.append(("position", "Cut the rightmost wire.", f"wire-{wires[-1].position}"))
    colours = [w.color for w in wires]
    for colour in ("white", "red", "blue"):
        if colours.count(colour) == 1:
            out.append(
                (
                    "colour",
                    f"Cut the plain {colour} wire.",
                    f"wire-{wires[colours.index(colour)].position}",
                )
            )
    out.append(("hallucination", "Cut the green wire.", NONE))
    if len(wires) > 1:
        out.append(("ambiguity", "Cut the wire.", AMBIGUOUS))
    return out


def _wire_sequence(shot: Shot, rng: random.Random) -> list[Candidate]:
    from gptnt.rules.modules.wire_sequence import panel_of

    m = state_as(shot.module, WireSequenceModule)
    here = [w for w in _present(m.wires) if panel_of(w.start_position_number) == m.panel]
    out: list[Candidate] = [
        ("element", "Press the button that goes to the next panel.", "down"),
        ("position", "Press the lower of the two panel buttons.", "down"),
        ("position", "Press the upper of the two panel buttons.", "up"),
        ("hallucination", "Cut the wire connected to D.", NONE),
    ]
    colours = [w.color for w in here]
    for w in here:
        out.append(
            (
                "counting",
                f"Cut the wire that starts at {w.start_position_number % 3 + 1}.",
                f"wire-{w.start_position_number}",
            )
        )
        if colours.count(w.color) == 1:
            out.append(("colour", f"Cut the {w.color} wire.", f"wire-{w.start_position_number}"))
        else:
            out.append(("ambiguity", f"Cut the {w.color} wire.", AMBIGUOUS))
    return out


def _maze(shot: Shot, rng: random.Random) -> list[Candidate]:
    out: list[Candidate] = [
        ("position", f"Press the {a} arrow.", a) for a in ("up", "down", "left", "right")
    ]
    out.append(("ambiguity", "Press the arrow.", AMBIGUOUS))
    out.append(("hallucination", "Press the red triangle's button.", NONE))
    return out


def _password(shot: Shot, rng: random.Random) -> list[Candidate]:
    i = rng.randrange(5)
    return [
        ("element", "Press the submit button.", "submit"),
        ("reading", "Press SUBMIT.", "submit"),
        ("counting", f"Press the up arrow above the {ordinal(i + 1)} letter.", f"up-{i}"),
        ("counting", f"Press the down arrow below the {ordinal(i + 1)} letter.", f"down-{i}"),
        ("ambiguity", "Press the up arrow.", AMBIGUOUS),
        ("hallucination", "Press the down arrow below the seventh letter.", NONE),
    ]


def _positions(shot: Shot, elements: tuple[str, ...], noun: str) -> list[Candidate]:
    """Top / bottom / leftmost / rightmost among ``elements``, measured on the mask."""
    centres = {}
    for e in elements:
        region = shot.region(e)
        if region is not None:
            centres[e] = (float(region.xs.mean()), float(region.ys.mean()))
    if len(centres) < 2:
        return []
    out: list[Candidate] = []
    for word, pick in (
        ("top", lambda c: -c[1]),
        ("bottom", lambda c: c[1]),
        ("leftmost", lambda c: -c[0]),
        ("rightmost", lambda c: c[0]),
    ):
        ranked = sorted(centres, key=lambda e: pick(centres[e]), reverse=True)
        if pick(centres[ranked[0]]) - pick(centres[ranked[1]]) > 8:  # clearly first
            out.append(("position", f"Press the {word} {noun}.", ranked[0]))
    return out


TEMPLATES: dict[str, Callable[[Shot, random.Random], list[Candidate]]] = {
    "Wires": _wires,
    "BigButton": _button,
    "Keypad": _keypad,
    "Simon": _simon,
    "WhosOnFirst": _whos_on_first,
    "Memory": _memory,
    "Morse": _morse,
    "Venn": _venn,
    "WireSequence": _wire_sequence,
    "Maze": _maze,
    "Password": _password,
}


def build(
    counts: dict[str, int], shots: dict[str, list[Shot]], images: ImageStore, seed: int
) -> list[Question]:
    rng = random.Random(f"localisation:{seed}")

    def keep(shot: Shot, c: tuple) -> bool:
        return c[2] in (AMBIGUOUS, NONE) or c[2] in shot.labels

    questions: list[Question] = []
    for category, i, kind, shot, (_, instruction, element) in draws(
        counts, shots, TEMPLATES, rng, keep
    ):
        special = element in (AMBIGUOUS, NONE)
        target = Target(
            label=None if special else shot.labels[element],
            mask_colour=None if special else shot.colour_of(element),
            labels=tuple(m.label for m in shot.marks.marks),
        )
        questions.append(
            Question(
                id=f"loc-{category}-{i:04d}",
                task="localisation",
                category=category,
                module=kind,
                prompt=frame_prompt(kind, instruction),
                images={
                    "frame": images.add(encode_png(shot.frame)),
                    "marked": images.add(encode_png(shot.marks.draw(shot.frame))),
                    "mask": images.add(encode_png(np.ascontiguousarray(shot.mask[..., :3]))),
                },
                target=target,
                truth={"element": element, "state": shot.state.to_wire()},
            )
        )
    return questions


Convention = str  # "absolute" (pixels), "scaled" (0–1000), "relative" (0–1)


def to_pixel(
    point: tuple[float, float], convention: Convention, size: tuple[int, int]
) -> tuple[int, int]:
    """A point in a player's coordinate convention → a pixel of the frame (``size`` = W, H)."""
    x, y = point
    width, height = size
    match convention:
        case "absolute":
            px, py = x, y
        case "scaled":
            px, py = x / 1000 * width, y / 1000 * height
        case "relative":
            px, py = x * width, y * height
        case _:
            raise ValueError(f"coordinate convention {convention!r}")
    return int(px), int(py)


def score_point(mask: np.ndarray, target: Target, pixel: tuple[int, int]) -> bool:
    """Whether ``pixel`` lies on the target element (the mask has its colour there)."""
    if target.mask_colour is None:
        return False
    x, y = pixel
    height, width = mask.shape[:2]
    if not (0 <= x < width and 0 <= y < height):
        return False
    return tuple(int(c) for c in mask[y, x, :3]) == tuple(target.mask_colour)
