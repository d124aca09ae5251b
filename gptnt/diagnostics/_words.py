"""Bomb states and manual answers in words: what a Defuser would say, what an Expert would say.

``describe(module, …)`` turns a module's exported state into the description a Defuser gives
over the channel (one function per module kind, looked up in ``DESCRIBERS``); ``say(kind,
steps, module)`` turns the oracle's steps into the instruction an Expert gives. The generators
build every option of a question with ``say``, so an option matches the truth exactly when its
steps are the oracle's steps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar, cast

from gptnt.protocol import (
    KINDS,
    BigButtonModule,
    KeypadModule,
    MazeCell,
    MazeModule,
    MemoryModule,
    ModuleBase,
    ModuleState,
    MorseModule,
    PasswordModule,
    SimonModule,
    VennModule,
    WhosOnFirstModule,
    WireSequenceModule,
    WiresModule,
    state_as,
)
from gptnt.rules import Edgework, Hold, Press, Release, Step, Timing
from gptnt.rules.modules.memory import MemoryPress
from gptnt.rules.ruleset import Ruleset

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
POSITIONS_6 = (
    "top left",
    "top right",
    "middle left",
    "middle right",
    "bottom left",
    "bottom right",
)
KEY_NAMES = {
    "top-left": "top left",
    "top-right": "top right",
    "bottom-left": "bottom left",
    "bottom-right": "bottom right",
}

TITLES: dict[str, str] = {spec.name: spec.title for spec in KINDS}
_Kind = TypeVar("_Kind", bound=ModuleBase)


def ordinal(n: int) -> str:
    """1 → "first"."""
    return ORDINALS[n - 1] if 0 < n <= len(ORDINALS) else f"{n}th"


def mhz(khz: float) -> str:
    """The protocol's kHz suffix as the module shows it: ``505`` → ``3.505 MHz``."""
    return f"3.{round(khz):03d} MHz"


# ----------------------------------------------------------------------------- edgework


def describe_edgework(edgework: Edgework, strikes: int, *, hide: str | None = None) -> str:
    """The edgework and strikes in words; ``hide`` leaves one fact out (ambiguity questions)."""
    facts: dict[str, str] = {
        "serial": f"The serial number is {edgework.serial}.",
        "batteries": f"There {'is' if edgework.batteries == 1 else 'are'} "
        f"{edgework.batteries} batter{'y' if edgework.batteries == 1 else 'ies'}.",
        "indicators": _indicators(edgework),
        "ports": _ports(edgework),
        "strikes": f"We have {strikes} strike{'' if strikes == 1 else 's'}.",
    }
    return " ".join(text for name, text in facts.items() if name != hide)


def _indicators(edgework: Edgework) -> str:
    if not edgework.indicators:
        return "There are no indicators."
    parts = [f"{'lit' if i.lit else 'unlit'} {i.label}" for i in edgework.indicators]
    return f"Indicators: {', '.join(parts)}."


def _ports(edgework: Edgework) -> str:
    ports = sorted({p for plate in edgework.port_plates for p in plate})
    return f"Ports: {', '.join(ports)}." if ports else "There are no ports."


# ----------------------------------------------------------------------------- modules


def _wires(m: WiresModule, rules: Ruleset, history: Sequence[object]) -> str:
    wires = sorted((w for w in m.wires if w is not None), key=lambda w: w.position)
    colours = [w.color + (" (cut)" if w.is_cut else "") for w in wires]
    return f"A Wires module with {len(wires)} wires, top to bottom: {', '.join(colours)}."


def _button(m: BigButtonModule, rules: Ruleset, history: Sequence[object]) -> str:
    text = f'A {m.button_color} button that says "{m.button_word.upper()}".'
    if m.is_held and m.strip_color:
        text += f" I am holding it and the strip beside it lights up {m.strip_color}."
    return text


def _keypad(m: KeypadModule, rules: Ruleset, history: Sequence[object]) -> str:
    keys = (m.top_left, m.top_right, m.bottom_left, m.bottom_right)
    named = ", ".join(
        f"{place}: {key.symbol}{' (lit green)' if key.color == 'green' else ''}"
        for place, key in zip(KEY_NAMES.values(), keys, strict=True)
    )
    return f"A Keypad with four symbols — {named}."


def _simon(m: SimonModule, rules: Ruleset, history: Sequence[object]) -> str:
    flashes = m.beep_sequence[: m.solve_progress + 1]
    return f"Simon Says: the buttons flash {', '.join(flashes)}, in that order."


def _whos_on_first(m: WhosOnFirstModule, rules: Ruleset, history: Sequence[object]) -> str:
    buttons = "; ".join(
        f'{place}: "{word}"' for place, word in zip(POSITIONS_6, m.button_words or (), strict=False)
    )
    return (
        f'Who\'s on First, stage {m.stage}: the display says "{m.display_word}". '
        f"The buttons — {buttons}."
    )


def _memory(m: MemoryModule, rules: Ruleset, history: Sequence[object]) -> str:
    labels = ", ".join(str(n) for n in m.button_numbers or ())
    text = (
        f"Memory, stage {m.stage}: the display shows {m.display_number}; the buttons, left to "
        f"right, are labelled {labels}."
    )
    for stage, press in enumerate(history, start=1):
        if not isinstance(press, MemoryPress):
            raise TypeError(f"a Memory history holds MemoryPress entries, not {press!r}")
        text += (
            f" In stage {stage} I pressed the button in position {press.position} "
            f"labelled {press.label}."
        )
    return text


def _morse(m: MorseModule, rules: Ruleset, history: Sequence[object]) -> str:
    letters = " / ".join(rules.morse_rules.code(c) for c in m.sequence)
    return (
        f"Morse Code: the light blinks {letters}, then a long pause and it repeats. "
        f"The display shows {mhz(m.current_frequency)}."
    )


def _venn(m: VennModule, rules: Ruleset, history: Sequence[object]) -> str:
    parts = []
    for n, w in enumerate((w for w in m.wires if w is not None), start=1):
        colour = " and ".join(w.color.split(", ")) if ", " in w.color else w.color
        bits = [
            f"wire {n} is {colour}",
            "LED on" if w.is_led_on else "LED off",
            "star" if w.has_star else "no star",
        ]
        if w.is_cut:
            bits.append("already cut")
        parts.append(", ".join(bits))
    return f"Complicated Wires, left to right: {'; '.join(parts)}."


def _wire_sequence(m: WireSequenceModule, rules: Ruleset, history: Sequence[object]) -> str:
    from gptnt.rules.modules.wire_sequence import panel_of

    here = [w for w in m.wires if w is not None and panel_of(w.start_position_number) == m.panel]
    earlier = [w for w in m.wires if w is not None and panel_of(w.start_position_number) < m.panel]
    wires = "; ".join(
        f"{w.color} from {w.start_position_number % 3 + 1} to {w.end_position_letter}"
        + (" (cut)" if w.is_cut else "")
        for w in sorted(here, key=lambda w: w.start_position_number)
    )
    counts = {c: sum(1 for w in earlier if w.color == c) for c in ("red", "blue", "black")}
    seen = ", ".join(f"{n} {c}" for c, n in counts.items())
    return (
        f"Wire Sequence, panel {m.panel}: {wires or 'no wires'}. "
        f"On the earlier panels there were {seen} wires."
    )


def _maze(m: MazeModule, rules: Ruleset, history: Sequence[object]) -> str:
    def cell(c: MazeCell) -> str:
        return f"column {c.column + 1}, row {c.row + 1}"

    circles = " and ".join(cell(c) for c in m.circle_positions)
    return (
        f"Maze: green circles at {circles}; the white square (me) is at "
        f"{cell(m.square_position)}; the red triangle is at {cell(m.triangle_position)} "
        "(columns from the left, rows from the top)."
    )


def _password(m: PasswordModule, rules: Ruleset, history: Sequence[object]) -> str:
    columns = cast("Sequence[Sequence[str]]", history[0]) if history else None
    if columns:
        listed = "; ".join(f"column {i + 1}: {' '.join(col)}" for i, col in enumerate(columns))
        return f"Password: the columns can show these letters — {listed}."
    return f"Password: the columns show {' '.join(m.current_word)}."


Describer = Callable[[ModuleState, Ruleset, Sequence[object]], str]


def _of(
    kind: type[_Kind], describer: Callable[[_Kind, Ruleset, Sequence[object]], str]
) -> Describer:
    """``describer`` of one kind's state, taking any module state (and refusing another kind's)."""
    return lambda m, rules, history: describer(state_as(m, kind), rules, history)


DESCRIBERS: dict[str, Describer] = {
    "Wires": _of(WiresModule, _wires),
    "BigButton": _of(BigButtonModule, _button),
    "Keypad": _of(KeypadModule, _keypad),
    "Simon": _of(SimonModule, _simon),
    "WhosOnFirst": _of(WhosOnFirstModule, _whos_on_first),
    "Memory": _of(MemoryModule, _memory),
    "Morse": _of(MorseModule, _morse),
    "Venn": _of(VennModule, _venn),
    "WireSequence": _of(WireSequenceModule, _wire_sequence),
    "Maze": _of(MazeModule, _maze),
    "Password": _of(PasswordModule, _password),
}


def describe(module: ModuleState, rules: Ruleset, history: Sequence[object] = ()) -> str:
    """The module as a Defuser describes it (history: earlier stages, or Password's columns)."""
    return DESCRIBERS[module.name](module, rules, history)


# ----------------------------------------------------------------------------- instructions


def say(module: ModuleState, steps: Sequence[Step], rules: Ruleset) -> str:
    """The Expert's instruction that carries out ``steps`` on ``module``."""
    if isinstance(module, MorseModule):
        presses = [s for s in steps if isinstance(s, Press)]
        if presses and presses[-1].element == "transmit":
            dial = list(rules.morse_rules.dial)
            at = dial.index(round(module.current_frequency))
            for s in presses[:-1]:
                at += 1 if s.element == "right" else -1
            return f"Set the frequency to {mhz(dial[at])} and press TX."
    phrases = [_step_words(module, s) for s in steps]
    if not phrases:
        return "Do nothing: the module is solved."
    text = ", then ".join(phrases)
    return text[0].upper() + text[1:] + "."


TIMINGS = {
    "timer_has_digit": "when the timer shows a {digit} in any position",
    "seconds_ones_digit_is": "when the last digit of the seconds is {digit}",
    "any_time": "at any time",
    "seconds_digits_sum_multiple_of_4": "when the two seconds digits add up to a multiple of 4",
    "seconds_digits_sum_5": "when the two seconds digits add up to 5 or 15",
    "seconds_digits_sum_7": "when the two seconds digits add up to 7 or 17",
    "seconds_digits_sum_3_or_13": "when the two seconds digits add up to 3 or 13",
    "seconds_prime_or_zero": "when the seconds shown are 0 or a prime number",
    "seconds_digits_match": "when the two seconds digits are the same",
    "seconds_digits_differ": "when the two seconds digits differ",
}
"""A moment of the bomb timer (``Timing``) in words."""


def when(timing: Timing) -> str:
    return TIMINGS[timing.kind].format(digit=timing.digit)


def _step_words(module: ModuleState, step: Step) -> str:
    if isinstance(step, Release):
        return f"release it {when(step.when)}"
    element = step.element
    if isinstance(step, Hold):
        return "hold the button down"
    assert isinstance(step, Press)
    if step.when is not None:
        return f"press and immediately release the button {when(step.when)}"
    match module:
        case WiresModule():
            present = sorted(w.position for w in module.wires if w is not None)
            return f"cut the {ordinal(present.index(int(element.split('-')[1])) + 1)} wire"
        case VennModule():
            present = [w.position for w in module.wires if w is not None]
            return f"cut wire {present.index(int(element.split('-')[1])) + 1}"
        case BigButtonModule():
            return "press and immediately release the button"
        case KeypadModule():
            key = getattr(module, element.replace("-", "_"))
            return f"press {key.symbol}"
        case SimonModule():
            return f"press {element}"
        case MazeModule():
            return f"move {element}"
        case WhosOnFirstModule():
            index = int(element.split("-")[1])
            return f'press "{(module.button_words or [])[index]}"'
        case MemoryModule():
            index = int(element.split("-")[1])
            return f"press the button in position {index + 1} (labelled {(module.button_numbers or [])[index]})"
        case WireSequenceModule():
            if element in ("up", "down"):
                return "go to the next panel" if element == "down" else "go back a panel"
            slot = int(element.split("-")[1])
            wire = next(
                w for w in module.wires if w is not None and w.start_position_number == slot
            )
            return f"cut the {wire.color} wire from {slot % 3 + 1} to {wire.end_position_letter}"
        case MorseModule():
            return {"left": "turn the dial left", "right": "turn the dial right"}.get(
                element, "press TX"
            )
    return f"press {element}"
