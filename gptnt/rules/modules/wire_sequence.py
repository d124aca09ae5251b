"""Wire Sequence: four panels of up to three wires; cut by colour occurrence and target letter.

Occurrences of each colour are counted over all panels in plug order (panel 1's wires first).
The manual's data is, per colour, the letters whose wire is cut at the n-th occurrence. The
solver cuts the current panel's wires that need it, then presses *down* to the next panel.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gptnt.protocol import SequenceWire, WireSequenceModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._file import no_history
from gptnt.rules._steps import Press, Step

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset

PANELS = 4  # panels per module (protocol: slot i is on panel i // 3 + 1)
SLOTS_PER_PANEL = 3


@dataclass(frozen=True)
class WireSequenceRules:
    """``cut_letters``: (colour, letters to cut at occurrence 1, 2, …) for red, blue, black."""

    cut_letters: tuple[tuple[str, tuple[str, ...]], ...]

    def should_cut(self, color: str, occurrence: int, letter: str) -> bool:
        """Whether the ``occurrence``-th (1-based) wire of ``color`` to ``letter`` is cut."""
        return letter in dict(self.cut_letters)[color][occurrence - 1]


V1 = WireSequenceRules(
    cut_letters=(
        ("red", ("C", "B", "A", "AC", "B", "AC", "ABC", "AB", "B")),
        ("blue", ("B", "AC", "B", "A", "B", "BC", "C", "AC", "A")),
        ("black", ("ABC", "AC", "B", "AC", "B", "BC", "AB", "C", "C")),
    ),
)


def panel_of(slot: int) -> int:
    """The 1-based panel a global slot (0–11) sits on."""
    return slot // SLOTS_PER_PANEL + 1


def required(wires: list[SequenceWire | None], rules: WireSequenceRules) -> dict[int, bool]:
    """Slot → whether its wire must be cut, counting colour occurrences in slot order."""
    seen: Counter[str] = Counter()
    verdict: dict[int, bool] = {}
    for wire in sorted((w for w in wires if w is not None), key=lambda w: w.start_position_number):
        seen[wire.color] += 1
        verdict[wire.start_position_number] = rules.should_cut(
            wire.color, seen[wire.color], wire.end_position_letter
        )
    return verdict


def _panel_wires(module: WireSequenceModule) -> list[SequenceWire]:
    return sorted(
        (
            w
            for w in module.wires
            if w is not None and panel_of(w.start_position_number) == module.panel
        ),
        key=lambda w: w.start_position_number,
    )


def elements(module: WireSequenceModule) -> list[str]:
    return [f"wire-{w.start_position_number}" for w in _panel_wires(module)] + ["down", "up"]


def solve(
    module: WireSequenceModule,
    edgework: Edgework,
    rules: WireSequenceRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """Cut what the current panel needs, then go down (which solves it on the last panel)."""
    if module.is_solved or module.panel > PANELS:
        return []
    verdict = required(module.wires, rules)
    cuts = [
        Press(f"wire-{w.start_position_number}")
        for w in _panel_wires(module)
        if verdict[w.start_position_number] and not w.is_cut
    ]
    return [*cuts, Press("down")]


def mistakes(
    module: WireSequenceModule,
    edgework: Edgework,
    rules: WireSequenceRules,
    *,
    strikes: int,
    history: Sequence[object] = (),
) -> list[Step]:
    """Cutting a wire that must stay, or going down with a required cut still undone."""
    if module.is_solved or module.panel > PANELS or not module.is_emerged:
        return []
    verdict = required(module.wires, rules)
    panel = _panel_wires(module)
    wrong: list[Step] = [
        Press(f"wire-{w.start_position_number}")
        for w in panel
        if not w.is_cut and not verdict[w.start_position_number]
    ]
    if any(verdict[w.start_position_number] and not w.is_cut for w in panel):
        wrong.append(Press("down"))
    return wrong


def tables(ruleset: Ruleset) -> WireSequenceRules:
    return ruleset.wire_sequence


pressed = no_history
