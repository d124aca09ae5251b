"""Who's on First: the display names a button to read; that button's word names a priority list.

Step 1 (``display_position``): the display word → the button (reading order 0–5) whose label to
read. Step 2 (``priority``): that label → a list of words; press the first one present among
the six buttons. ``button_groups`` are the two word groups the game draws the six labels from
(each priority list only holds words of its own group). ``""`` is an empty display, not BLANK.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gptnt.errors import ConfigError
from gptnt.protocol import WhosOnFirstModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._file import no_history
from gptnt.rules._steps import Press, Step

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset

BUTTONS: tuple[str, ...] = tuple(f"button-{i}" for i in range(6))  # TL, TR, ML, MR, BL, BR


@dataclass(frozen=True)
class WhosOnFirstRules:
    display_position: Mapping[str, int]  # display word → button index whose label to read
    priority: Mapping[str, tuple[str, ...]]  # label → words to look for, first present wins
    button_groups: tuple[tuple[str, ...], ...]  # the word groups buttons are drawn from

    @property
    def display_words(self) -> tuple[str, ...]:
        return tuple(self.display_position)


def _positions(*rows: tuple[int, str]) -> dict[str, int]:
    return {word: pos for pos, words in rows for word in words.split("|")}


def _lists(text: str) -> dict[str, tuple[str, ...]]:
    """``LABEL: W1, W2, ...`` lines → the priority table."""
    table: dict[str, tuple[str, ...]] = {}
    for line in text.strip().splitlines():
        label, words = line.split(":", 1)
        table[label.strip()] = tuple(w.strip() for w in words.split(","))
    return table


V1 = WhosOnFirstRules(
    display_position=_positions(
        (0, "UR"),
        (1, "FIRST|OKAY|C"),
        (2, "YES|NOTHING|LED|THEY ARE"),
        (3, "BLANK|READ|RED|YOU|YOUR|YOU'RE|THEIR"),
        (4, "|REED|LEED|THEY'RE"),
        (5, "DISPLAY|SAYS|NO|LEAD|HOLD ON|YOU ARE|THERE|SEE|CEE"),
    ),
    priority=_lists(
        """
        READY: YES, OKAY, WHAT, MIDDLE, LEFT, PRESS, RIGHT, BLANK, READY, NO, FIRST, UHHH, NOTHING, WAIT
        FIRST: LEFT, OKAY, YES, MIDDLE, NO, RIGHT, NOTHING, UHHH, WAIT, READY, BLANK, WHAT, PRESS, FIRST
        NO: BLANK, UHHH, WAIT, FIRST, WHAT, READY, RIGHT, YES, NOTHING, LEFT, PRESS, OKAY, NO, MIDDLE
        BLANK: WAIT, RIGHT, OKAY, MIDDLE, BLANK, PRESS, READY, NOTHING, NO, WHAT, LEFT, UHHH, YES, FIRST
        NOTHING: UHHH, RIGHT, OKAY, MIDDLE, YES, BLANK, NO, PRESS, LEFT, WHAT, WAIT, FIRST, NOTHING, READY
        YES: OKAY, RIGHT, UHHH, MIDDLE, FIRST, WHAT, PRESS, READY, NOTHING, YES, LEFT, BLANK, NO, WAIT
        WHAT: UHHH, WHAT, LEFT, NOTHING, READY, BLANK, MIDDLE, NO, OKAY, FIRST, WAIT, YES, PRESS, RIGHT
        UHHH: READY, NOTHING, LEFT, WHAT, OKAY, YES, RIGHT, NO, PRESS, BLANK, UHHH, MIDDLE, WAIT, FIRST
        LEFT: RIGHT, LEFT, FIRST, NO, MIDDLE, YES, BLANK, WHAT, UHHH, WAIT, PRESS, READY, OKAY, NOTHING
        RIGHT: YES, NOTHING, READY, PRESS, NO, WAIT, WHAT, RIGHT, MIDDLE, LEFT, UHHH, BLANK, OKAY, FIRST
        MIDDLE: BLANK, READY, OKAY, WHAT, NOTHING, PRESS, NO, WAIT, LEFT, MIDDLE, RIGHT, FIRST, UHHH, YES
        OKAY: MIDDLE, NO, FIRST, YES, UHHH, NOTHING, WAIT, OKAY, LEFT, READY, BLANK, PRESS, WHAT, RIGHT
        WAIT: UHHH, NO, BLANK, OKAY, YES, LEFT, FIRST, PRESS, WHAT, WAIT, NOTHING, READY, RIGHT, MIDDLE
        PRESS: RIGHT, MIDDLE, YES, READY, PRESS, OKAY, NOTHING, UHHH, BLANK, LEFT, FIRST, WHAT, NO, WAIT
        YOU: SURE, YOU ARE, YOUR, YOU'RE, NEXT, UH HUH, UR, HOLD, WHAT?, YOU, UH UH, LIKE, DONE, U
        YOU ARE: YOUR, NEXT, LIKE, UH HUH, WHAT?, DONE, UH UH, HOLD, YOU, U, YOU'RE, SURE, UR, YOU ARE
        YOUR: UH UH, YOU ARE, UH HUH, YOUR, NEXT, UR, SURE, U, YOU'RE, YOU, WHAT?, HOLD, LIKE, DONE
        YOU'RE: YOU, YOU'RE, UR, NEXT, UH UH, YOU ARE, U, YOUR, WHAT?, UH HUH, SURE, DONE, LIKE, HOLD
        UR: DONE, U, UR, UH HUH, WHAT?, SURE, YOUR, HOLD, YOU'RE, LIKE, NEXT, UH UH, YOU ARE, YOU
        U: UH HUH, SURE, NEXT, WHAT?, YOU'RE, UR, UH UH, DONE, U, YOU, LIKE, HOLD, YOU ARE, YOUR
        UH HUH: UH HUH, YOUR, YOU ARE, YOU, DONE, HOLD, UH UH, NEXT, SURE, LIKE, YOU'RE, UR, U, WHAT?
        UH UH: UR, U, YOU ARE, YOU'RE, NEXT, UH UH, DONE, YOU, UH HUH, LIKE, YOUR, SURE, HOLD, WHAT?
        WHAT?: YOU, HOLD, YOU'RE, YOUR, U, DONE, UH UH, LIKE, YOU ARE, UH HUH, UR, NEXT, WHAT?, SURE
        DONE: SURE, UH HUH, NEXT, WHAT?, YOUR, UR, YOU'RE, HOLD, LIKE, YOU, U, YOU ARE, UH UH, DONE
        NEXT: WHAT?, UH HUH, UH UH, YOUR, HOLD, SURE, NEXT, LIKE, DONE, YOU ARE, UR, YOU'RE, U, YOU
        HOLD: YOU ARE, U, DONE, UH UH, YOU, UR, SURE, WHAT?, YOU'RE, NEXT, HOLD, UH HUH, YOUR, LIKE
        SURE: YOU ARE, DONE, LIKE, YOU'RE, YOU, HOLD, UH HUH, UR, SURE, U, WHAT?, NEXT, YOUR, UH UH
        LIKE: YOU'RE, NEXT, U, UR, HOLD, DONE, UH UH, WHAT?, UH HUH, YOU, LIKE, SURE, YOU ARE, YOUR
        """
    ),
    button_groups=(
        ("READY", "FIRST", "NO", "BLANK", "NOTHING", "YES", "WHAT", "UHHH", "LEFT", "RIGHT",
         "MIDDLE", "OKAY", "WAIT", "PRESS"),
        ("YOU", "YOU ARE", "YOUR", "YOU'RE", "UR", "U", "UH HUH", "UH UH", "WHAT?", "DONE",
         "NEXT", "HOLD", "SURE", "LIKE"),
    ),
)  # fmt: skip


def button_to_press(display: str, buttons: Sequence[str], rules: WhosOnFirstRules) -> int:
    """Index (reading order) of the button to press for this display and these labels."""
    try:
        label = buttons[rules.display_position[display]]
    except KeyError:
        raise ConfigError(
            f"display_word={display!r}: not a Who's on First display word of this manual"
        ) from None
    try:
        wanted = rules.priority[label]
    except KeyError:
        raise ConfigError(f"button_words: {label!r} has no priority list in this manual") from None
    for word in wanted:
        if word in buttons:
            return list(buttons).index(word)
    raise ConfigError(f"button_words={list(buttons)}: none is on the list of {label!r}")


# ---------------------------------------------------------------- oracle interface


def elements(module: WhosOnFirstModule) -> list[str]:
    return list(BUTTONS)


def solve(
    module: WhosOnFirstModule,
    edgework: Edgework,
    rules: WhosOnFirstRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """The one press of the current stage. Empty while solved or while the buttons emerge
    (display and labels unknown: wait for ``is_emerged`` and ask again)."""
    if module.is_solved or module.display_word is None or module.button_words is None:
        return []
    return [Press(BUTTONS[button_to_press(module.display_word, module.button_words, rules)])]


def mistakes(
    module: WhosOnFirstModule,
    edgework: Edgework,
    rules: WhosOnFirstRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """Every other button: each is one strike (and new words appear; the stage is kept)."""
    right = solve(module, edgework, rules, strikes=strikes)
    if not right:
        return []
    return [Press(b) for b in BUTTONS if Press(b) != right[0]]


def tables(ruleset: Ruleset) -> WhosOnFirstRules:
    return ruleset.whos_on_first


pressed = no_history
