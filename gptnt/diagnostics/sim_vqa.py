"""Simulator VQA: what a Defuser must read off a frame, as multiple-choice questions (paper §9.2).

Five categories (the paper's Table G.21): **reading** text or a value, **colour** of an element,
**counting** elements, **ambiguity** (the question fits several elements with different answers:
the right option says it cannot be told) and **hallucination** (the question asks about an
element the frame does not show: the right option says so). Templates per module kind are
instantiated from the bomb state of the frame; nothing is read from pixels.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from gptnt.diagnostics._dataset import ImageStore, Question
from gptnt.diagnostics._frames import Shot, draws, frame_prompt
from gptnt.diagnostics._words import KEY_NAMES, POSITIONS_6, mhz, ordinal
from gptnt.protocol import (
    BigButtonModule,
    KeypadModule,
    MemoryModule,
    MorseModule,
    PasswordModule,
    VennModule,
    WhosOnFirstModule,
    WireSequenceModule,
    WiresModule,
    encode_png,
    state_as,
)

AMBIGUOUS = "It cannot be told: the question fits more than one element."
ABSENT = "There is no such element in the picture."
COLOURS = ("red", "blue", "yellow", "white", "black", "green")

# (category, prompt, right option, wrong options)
Candidate = tuple[str, str, str, Sequence[str]]


_W = TypeVar("_W")


def _present(wires: Sequence[_W | None]) -> list[_W]:
    return [w for w in wires if w is not None]


def _count_options(n: int, rng: random.Random) -> list[str]:
    return [str(k) for k in range(max(0, n - 2), n + 3) if k != n]


def _wires(shot: Shot, rng: random.Random) -> list[Candidate]:
    wires = sorted(_present(state_as(shot.module, WiresModule).wires), key=lambda w: w.position)
    colours = [w.color for w in wires]
    out: list[Candidate] = []
    n = rng.randrange(len(wires))
    out.append(
        (
            "colour",
            f"What colour is the {ordinal(n + 1)} wire from the top?",
            colours[n],
            [c for c in COLOURS[:5] if c != colours[n]],
        )
    )
    out.append(
        (
            "counting",
            "How many wires does the module have?",
            str(len(wires)),
            _count_options(len(wires), rng),
        )
    )
    cut = sum(w.is_cut for w in wires)
    out.append(("counting", "How many of the wires are cut?", str(cut), _count_options(cut, rng)))
    colour = rng.choice(colours)
    out.append(
        (
            "counting",
            f"How many {colour} wires are there?",
            str(colours.count(colour)),
            _count_options(colours.count(colour), rng),
        )
    )
    if len(set(colours)) > 1:
        out.append(("ambiguity", "What colour is the wire?", AMBIGUOUS, sorted(set(colours))[:4]))
    out.append(
        (
            "hallucination",
            f"What colour is the {ordinal(len(wires) + 1)} wire from the top?",
            ABSENT,
            list(COLOURS[:4]),
        )
    )
    out.append(
        ("hallucination", "What does the module's display show?", ABSENT, ["ONE", "FIRST", "3"])
    )
    return out


def _button(shot: Shot, rng: random.Random) -> list[Candidate]:
    m = state_as(shot.module, BigButtonModule)
    words = ["ABORT", "DETONATE", "HOLD", "PRESS"]
    out: list[Candidate] = [
        (
            "reading",
            "What word is written on the button?",
            m.button_word.upper(),
            [w for w in words if w != m.button_word.upper()],
        ),
        (
            "colour",
            "What colour is the button?",
            m.button_color,
            [c for c in ("red", "blue", "yellow", "white", "black") if c != m.button_color],
        ),
        ("hallucination", "What number is written on the third button?", ABSENT, ["1", "2", "3"]),
    ]
    if m.is_held and m.strip_color:
        out.append(
            (
                "colour",
                "What colour is the lit strip beside the button?",
                m.strip_color,
                [c for c in ("red", "blue", "yellow", "white") if c != m.strip_color],
            )
        )
    return out


def _keypad(shot: Shot, rng: random.Random) -> list[Candidate]:
    m = state_as(shot.module, KeypadModule)
    keys = {
        "top-left": m.top_left,
        "top-right": m.top_right,
        "bottom-left": m.bottom_left,
        "bottom-right": m.bottom_right,
    }
    lit = sum(k.color == "green" for k in keys.values())
    return [
        (
            "counting",
            "How many of the keys have a lit green light?",
            str(lit),
            _count_options(lit, rng),
        ),
        ("counting", "How many keys does the keypad have?", "4", ["2", "3", "5", "6"]),
        (
            "hallucination",
            "What symbol is on the fifth key?",
            ABSENT,
            [k.symbol for k in keys.values()][:3],
        ),
    ]


def _simon(shot: Shot, rng: random.Random) -> list[Candidate]:
    return [
        ("counting", "How many coloured buttons does the module have?", "4", ["2", "3", "5", "6"]),
        (
            "hallucination",
            "What colour is the purple button's neighbour?",
            ABSENT,
            ["red", "blue", "green"],
        ),
        ("ambiguity", "What colour is the button?", AMBIGUOUS, ["red", "blue", "green", "yellow"]),
    ]


def _whos_on_first(shot: Shot, rng: random.Random) -> list[Candidate]:
    m = state_as(shot.module, WhosOnFirstModule)
    words = list(m.button_words or [])
    if not words or m.display_word is None:  # both None while the module is not emerged
        return []
    i = rng.randrange(len(words))
    others = [w for w in words if w != words[i]]
    display = "(nothing: it is empty)" if m.display_word == "" else m.display_word
    out: list[Candidate] = [
        (
            "reading",
            "What word does the display at the top show?",
            display,
            [w for w in others[:3] if w != m.display_word],
        ),
        ("reading", f"What word is on the {POSITIONS_6[i]} button?", words[i], others[:4]),
        ("counting", "How many word buttons are there?", "6", ["4", "5", "7", "8"]),
    ]
    if len(set(words)) > 1:
        out.append(("ambiguity", "What word is on the button?", AMBIGUOUS, words[:3]))
    out.append(("hallucination", "What word is on the seventh button?", ABSENT, words[:3]))
    return out


def _memory(shot: Shot, rng: random.Random) -> list[Candidate]:
    m = state_as(shot.module, MemoryModule)
    if m.display_number is None or not m.button_numbers:
        return []
    labels = [str(n) for n in m.button_numbers]
    i = rng.randrange(4)
    return [
        (
            "reading",
            "What number does the large display show?",
            str(m.display_number),
            [str(n) for n in range(1, 5) if n != m.display_number],
        ),
        (
            "reading",
            f"What number is on the {ordinal(i + 1)} button from the left?",
            labels[i],
            [x for x in labels if x != labels[i]],
        ),
        ("ambiguity", "What number is on the button?", AMBIGUOUS, labels[:3]),
        ("hallucination", "What number is on the fifth button from the left?", ABSENT, labels[:3]),
    ]


def _morse(shot: Shot, rng: random.Random) -> list[Candidate]:
    m = state_as(shot.module, MorseModule)
    right = mhz(m.current_frequency)
    near = [mhz(m.current_frequency + d) for d in (-10, -3, 3, 10)]
    return [
        ("reading", "What frequency does the module's display show?", right, near),
        (
            "hallucination",
            "What colour is the module's third wire?",
            ABSENT,
            ["red", "blue", "white"],
        ),
    ]


def _venn(shot: Shot, rng: random.Random) -> list[Candidate]:
    wires = _present(state_as(shot.module, VennModule).wires)
    n = rng.randrange(len(wires))
    names = {
        "white": "white",
        "red": "red",
        "blue": "blue",
        "red, white": "red and white",
        "blue, white": "blue and white",
        "red, blue": "red and blue",
    }
    colour = names[wires[n].color]
    stars = sum(w.has_star for w in wires)
    leds = sum(w.is_led_on for w in wires)
    out: list[Candidate] = [
        (
            "colour",
            f"What colour is the {ordinal(n + 1)} wire from the left?",
            colour,
            [c for c in names.values() if c != colour][:4],
        ),
        (
            "counting",
            "How many wires does the module have?",
            str(len(wires)),
            _count_options(len(wires), rng),
        ),
        (
            "counting",
            "How many stars are shown below the wires?",
            str(stars),
            _count_options(stars, rng),
        ),
        (
            "counting",
            "How many of the LEDs above the wires are lit?",
            str(leds),
            _count_options(leds, rng),
        ),
        (
            "hallucination",
            f"What colour is the {ordinal(len(wires) + 1)} wire from the left?",
            ABSENT,
            list(names.values())[:3],
        ),
    ]
    if len({w.color for w in wires}) > 1:
        out.append(
            (
                "ambiguity",
                "What colour is the wire?",
                AMBIGUOUS,
                sorted({names[w.color] for w in wires})[:3],
            )
        )
    return out


def _wire_sequence(shot: Shot, rng: random.Random) -> list[Candidate]:
    from gptnt.rules.modules.wire_sequence import panel_of

    m = state_as(shot.module, WireSequenceModule)
    here = [w for w in _present(m.wires) if panel_of(w.start_position_number) == m.panel]
    out: list[Candidate] = [
        (
            "counting",
            "How many wires are on the panel?",
            str(len(here)),
            _count_options(len(here), rng),
        ),
        (
            "hallucination",
            "What colour is the wire connected to D?",
            ABSENT,
            ["red", "blue", "black"],
        ),
    ]
    if here:
        w = rng.choice(here)
        out.append(
            (
                "colour",
                f"What colour is the wire that starts at {w.start_position_number % 3 + 1}?",
                w.color,
                [c for c in ("red", "blue", "black", "white") if c != w.color],
            )
        )
    if len({w.color for w in here}) > 1:
        out.append(
            ("ambiguity", "What colour is the wire?", AMBIGUOUS, sorted({w.color for w in here}))
        )
    return out


def _maze(shot: Shot, rng: random.Random) -> list[Candidate]:
    return [
        (
            "counting",
            "How many green circle markers does the maze show?",
            "2",
            ["0", "1", "3", "4"],
        ),
        ("counting", "How many arrow buttons surround the maze?", "4", ["2", "3", "5", "6"]),
        (
            "hallucination",
            "What word is written on the maze's display?",
            ABSENT,
            ["LEFT", "START", "EXIT"],
        ),
    ]


def _password(shot: Shot, rng: random.Random) -> list[Candidate]:
    m = state_as(shot.module, PasswordModule)
    word = m.current_word.upper()
    i = rng.randrange(5)
    letters = sorted(set("ABCDEFGHIJKLMNOPQRSTUVWXYZ") - {word[i]})
    rng.shuffle(letters)
    fakes = []
    for _ in range(3):
        w = list(word)
        w[rng.randrange(5)] = rng.choice(letters)
        fakes.append("".join(w))
    return [
        ("reading", "What five letters do the columns show, left to right?", word, fakes),
        ("reading", f"What letter does the {ordinal(i + 1)} column show?", word[i], letters[:3]),
        ("counting", "How many letter columns are there?", "5", ["4", "6", "3"]),
        ("hallucination", "What letter does the seventh column show?", ABSENT, letters[:3]),
    ]


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
    """``counts[category]`` questions per category, rotating over module kinds and frames."""
    rng = random.Random(f"sim_vqa:{seed}")

    def keep(shot: Shot, c: tuple) -> bool:
        return any(w != c[2] for w in c[3])

    questions: list[Question] = []
    for category, i, kind, shot, (_, prompt, right, wrong) in draws(
        counts, shots, TEMPLATES, rng, keep
    ):
        options = [right, *list(dict.fromkeys(w for w in wrong if w != right))[:5]]
        rng.shuffle(options)
        questions.append(
            Question(
                id=f"svqa-{category}-{i:04d}",
                task="sim_vqa",
                category=category,
                module=kind,
                prompt=frame_prompt(kind, prompt),
                options=tuple(options),
                answer=options.index(right),
                images={"frame": images.add(encode_png(shot.frame))},
                truth={"state": shot.state.to_wire(), "source": shot.source},
            )
        )
    return questions


__all__ = ["ABSENT", "AMBIGUOUS", "KEY_NAMES", "TEMPLATES", "build"]
