"""The manual's section on The Button, written from its rule tables."""

from __future__ import annotations

from gptnt.manual._layout import Block, Bullets, Heading, LayoutTable, Paragraph, Section
from gptnt.manual._structure import BATTERIES, INDICATORS, page_ref
from gptnt.manual.modules._words import edgework_condition
from gptnt.protocol import kind_spec
from gptnt.rules import Timing
from gptnt.rules.modules import big_button

TITLE = kind_spec("BigButton").title
LOOK = "one big coloured button with a word on it"
"""How the Defuser can recognise the module (the manual's introduction lists it)."""


def _button_condition(c: big_button.Condition) -> str:
    match c:
        case big_button.ColorIs(color):
            return f"the button is {color}"
        case big_button.WordIs(word):
            return f'the label says "{word.upper()}"'
    return edgework_condition(c)


_BUTTON_ACTION = {
    "tap": "press it and let go at once",
    "hold": "press and keep holding it (see Holding the button)",
    "tap_when_seconds_digits_match": (
        "press it and let go at once, at a moment when the two seconds digits of the timer are "
        "the same (00, 11, 22, 33, 44 or 55)"
    ),
}


def moment(t: Timing) -> str:
    """When to let go of the held button, as the strip table says it."""
    match t.kind:
        case "timer_has_digit":
            return f"let go when the timer shows a {t.digit} in any position"
        case "seconds_ones_digit_is":
            return f"let go when the last seconds digit is {t.digit}"
        case "any_time":
            return "let go at any time"
        case "seconds_digits_sum_multiple_of_4":
            return "let go when the two seconds digits add up to a multiple of 4 (0, 4, 8 or 12)"
        case "seconds_digits_sum_5":
            return "let go when the two seconds digits add up to 5"
        case "seconds_digits_sum_7":
            return "let go when the two seconds digits add up to 7"
        case "seconds_digits_sum_3_or_13":
            return "let go when the two seconds digits add up to 3 or 13"
        case "seconds_prime_or_zero":
            return "let go when the seconds shown are 00 or a prime number (02, 03, 05, …, 59)"
    raise AssertionError(f"no wording for release moment {t!r}")


def section(rules: big_button.ButtonRules) -> Section:
    items = [
        f"If {' and '.join(_button_condition(c) for c in r.when)}: {_BUTTON_ACTION[r.action]}."
        for r in rules.rules
    ]
    items.append(f"In every other case: {_BUTTON_ACTION[rules.otherwise]}.")
    strip_rows = tuple(
        (f"{colour} strip", moment(timing)) for colour, timing in rules.strip_release.items()
    ) + (("any other colour", moment(rules.other_release)),)
    moments = [*rules.strip_release.values(), rules.other_release]
    digits_only = all(t.kind == "timer_has_digit" for t in moments)
    blocks: list[Block] = [
        Heading(f"Module: {TITLE}"),
        Paragraph(
            "A single large coloured button with a word printed on it, and a narrow light strip "
            "beside it. Whether you tap it or hold it depends on the button and the bomb."
        ),
        Paragraph(
            "Go through these rules in order and follow the first one that applies (the "
            "button's label may be written in capitals on the module):"
        ),
        Bullets(tuple(items), numbered=True),
        Paragraph(
            f"Indicators are described in Appendix A ({page_ref(INDICATORS)}), batteries in "
            f"Appendix B ({page_ref(BATTERIES)}).",
            size=22,
        ),
        Heading("Holding the button", level=2),
        Paragraph(
            "While the button is held down, the strip next to it lights up in one colour. "
            "The colour tells you when to let go: release the button at a moment when the "
            "countdown timer displays the digit below anywhere in its reading (minutes, "
            "seconds, or hundredths under one minute). Releasing at any other moment is a "
            "strike."
        )
        if digits_only
        else Paragraph(
            "While the button is held down, the strip next to it lights up in one colour. "
            "The colour tells you when to let go, as the table below says. The seconds digits "
            "are the two digits of the whole seconds shown (under one minute, the two digits "
            "before the point). Releasing at any other moment is a strike."
        ),
        LayoutTable(("Strip colour", "When to release"), strip_rows, weights=(1, 3), size=24),
    ]
    return Section(TITLE, tuple(blocks))
