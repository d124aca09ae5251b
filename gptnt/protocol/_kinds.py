"""The module-kind registry: one row per vanilla module kind, and everything else derives from it.

A row holds what the rest of the tree needs to know about a kind that is not its rules, its
mechanics or its looks: the name on the wire, the file stem under which each layer keeps that
kind's file, the display titles, and the per-kind facts other layers look up (where set-of-marks
labels go, how marks are coloured, whether the information blinks so the Defuser needs the
frame buffer, whether the module must share the timer's face).

Each layer finds its file of a kind by the row's ``stem``:

- ``gptnt.rules.modules.<stem>`` — the rule tables, element names and solver (a ``RuleFile``);
- ``gptnt.sim.modules.<stem>`` — the simulator's engine (``ENGINE``);
- ``gptnt.sim.render.modules.<stem>`` — the zoomed-in drawer (``look``, ``draw``);
- ``gptnt.manual.modules.<stem>`` — the manual's section (``section``, ``LOOK``).

So adding a kind is one row here, its wire model in ``_state`` and its files; the registry
coverage test (``tests/sim/test_kinds.py``) checks that every layer covers every row and
that the C# mod lists the same kinds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from gptnt.errors import ConfigError

ModuleKind = Literal[
    "Wires",
    "BigButton",
    "Keypad",
    "Simon",
    "WhosOnFirst",
    "Memory",
    "Morse",
    "Venn",
    "WireSequence",
    "Maze",
    "Password",
]
"""A vanilla, solvable module kind as the mod names it (KTANE's ``ComponentTypeEnum``)."""

LabelPlacement = Literal[
    "corner", "left_end", "bottom_end", "sequence", "radial", "sideways", "below", "above_below"
]
"""Where set-of-marks labels go around a kind's elements (``gptnt.vision`` draws each)."""

MarkColouring = Literal["mask", "rendered", "venn", "sequence"]
"""How a kind's marks are coloured: the mask's own (arbitrary) colour, the colour the element
is rendered in, striped wire colours (Complicated Wires), or rendered wires between grey arrows
(Wire Sequence)."""


@dataclass(frozen=True)
class KindSpec:
    """One module kind. Titles are display text; ``name`` is what ``/state`` and ``/startmission``
    carry."""

    name: ModuleKind
    """On the wire: the module's ``name`` in ``/state`` and its component name in missions."""
    stem: str
    """File stem of the kind's file in each layer, and its field of the ``Ruleset``."""
    title: str
    """The paper's and the manual's name ("The Button", "Complicated Wires")."""
    mod_title: str
    """The display name the mod's ``/modules`` lists (the game's own; "Password", not
    "Passwords")."""
    placement: LabelPlacement
    colouring: MarkColouring = "mask"
    blinks: bool = False
    """Its information is shown over time (a flashing sequence, a blinking light): the Defuser
    gets the recent frames of the buffer, not only the newest."""
    needs_timer: bool = False
    """Must be placed on the timer's face (KTANE's ``RequiresTimerVisibility``)."""


KINDS: tuple[KindSpec, ...] = (
    KindSpec("Wires", "wires", "Wires", "Wires", "left_end", "rendered"),
    KindSpec("BigButton", "big_button", "The Button", "The Button", "corner", "rendered",
             needs_timer=True),
    KindSpec("Keypad", "keypad", "Keypad", "Keypad", "sideways"),
    KindSpec("Simon", "simon", "Simon Says", "Simon Says", "radial", "rendered", blinks=True),
    KindSpec("WhosOnFirst", "whos_on_first", "Who's on First", "Who's on First", "sideways"),
    KindSpec("Memory", "memory", "Memory", "Memory", "below"),
    KindSpec("Morse", "morse", "Morse Code", "Morse Code", "below", blinks=True),
    KindSpec("Venn", "venn", "Complicated Wires", "Complicated Wires", "bottom_end", "venn"),
    KindSpec("WireSequence", "wire_sequence", "Wire Sequence", "Wire Sequence", "sequence",
             "sequence"),
    KindSpec("Maze", "maze", "Maze", "Maze", "radial"),
    KindSpec("Password", "password", "Passwords", "Password", "above_below"),
)  # fmt: skip
"""Every kind, in the manual's (and the paper's) order."""

MODULE_KINDS: tuple[ModuleKind, ...] = get_args(ModuleKind)
"""The kinds' wire names in registry order (the coverage test checks the two agree)."""

KINDS_BY_NAME: dict[str, KindSpec] = {spec.name: spec for spec in KINDS}


def _fold(name: str) -> str:
    """A kind's name as a user may type it: case, spaces, punctuation, a leading "The" and a
    trailing plural "s" do not matter ("The Button", "button", "Who's on First", "whos on
    first"; the official manual's "Mazes", "Wire Sequences" and "Passwords")."""
    folded = "".join(ch for ch in name.lower() if ch.isalnum())
    folded = folded.removeprefix("the") if folded != "the" else folded
    return folded.removesuffix("s") if len(folded) > 1 else folded


_BY_ANY_NAME: dict[str, KindSpec] = {
    _fold(alias): spec
    for spec in KINDS
    for alias in (spec.name, spec.stem, spec.title, spec.mod_title)
}


def kind_or_none(name: str) -> ModuleKind | None:
    """The wire name of a kind ``name`` names by any of its names; ``None`` when it names none."""
    spec = _BY_ANY_NAME.get(_fold(name))
    return spec.name if spec is not None else None


def valid_kind_names() -> str:
    """The paper's names with the wire names in brackets, for error lines."""
    return ", ".join(f"{s.title} ({s.name})" if s.title != s.name else s.name for s in KINDS)


def module_kind(name: str, *, field: str = "module kind") -> ModuleKind:
    """The wire name of a kind given by any of its names: the wire name ("BigButton"), the
    paper's ("The Button", "Complicated Wires"), the game's ("Password") or the file stem; a
    ``ConfigError`` naming ``field`` and listing the valid names when none matches."""
    kind = kind_or_none(name)
    if kind is None:
        raise ConfigError(f"{field} {name!r} is unknown; use one of {valid_kind_names()}")
    return kind


def kind_spec(name: str) -> KindSpec:
    """The registry row of a kind by any of its names (see ``module_kind``); a ``ConfigError``
    listing the valid names."""
    return KINDS_BY_NAME[module_kind(name)]


def kind_title(name: str) -> str:
    """A kind's display title (the paper's name); an unknown name is shown as it is."""
    spec = _BY_ANY_NAME.get(_fold(name))
    return spec.title if spec is not None else name
