"""The real game frames the framing was measured on, and bombs laid out as they show them.

The real frames (512×384, one 512×512) and their masks are not ours and are never in this
repository; a checkout beside the shared fixtures finds them at ``../shared/fixtures/real-game/
som/<name>-screen.png`` and ``<name>-segm.png``. This table says what each one shows — which
module kind sits in which slot of the face in view, where the timer is, which module is zoomed
into — so that the geometry tests and the side-by-side gallery (``scripts/render_gallery.py``)
can render the simulator's view of the same face: ``lookalike`` builds a bomb with exactly that
layout, each module generated from a seeded generator as ``Bomb.generate`` does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from gptnt.protocol import BombSide
from gptnt.rules.ruleset import V1
from gptnt.sim.bomb import Bomb, BombSpec
from gptnt.sim.edgework import generate_widgets
from gptnt.sim.modules import ModuleEngine, Slot, engine_for

SEARCH_SEEDS = 500  # module seeds tried to match a real module's wire count
TIMER_SLOT = 4  # where the timer is in every real frame that shows it

# The faces the real frames show, slot → module kind (slots not named are empty plates).
FACE_5 = {0: "Password", 1: "Venn", 2: "Maze", 3: "BigButton", 5: "WireSequence"}  # + timer
FACE_6 = {0: "Simon", 1: "Memory", 2: "Morse", 3: "Wires", 4: "Keypad", 5: "WhosOnFirst"}
FACE_WIRES = {1: "Wires", 2: "Keypad", 5: "Venn"}  # + timer; two empty plates
FACE_WIRESEQ = {5: "WireSequence"}  # + timer; the back face, the rest empty or out of view


@dataclass(frozen=True)
class RealFrame:
    """One real frame: the face in view (slot → kind), whether the timer is on it (at
    ``TIMER_SLOT``), the slot zoomed into (None: zoomed out) and, for wire kinds, how many wires
    the real module has (their paths vary, so only the count is matched)."""

    name: str
    face: dict[int, str]
    timer: bool
    focus: int | None = None
    wires: int | None = None
    cursor: tuple[float, float] | None = None  # where the mouse rests (fractions of the frame)

    @property
    def kind(self) -> str | None:
        """The module kind zoomed into (None when zoomed out)."""
        return None if self.focus is None else self.face[self.focus]

    def paths(self, root: Path) -> tuple[Path, Path]:
        """The frame and its mask under the fixtures' ``som`` folder."""
        return root / f"{self.name}-screen.png", root / f"{self.name}-segm.png"


REAL_FRAMES: tuple[RealFrame, ...] = (
    RealFrame("bomb-5", FACE_5, True),
    RealFrame("bomb-6", FACE_6, False),
    RealFrame("button", FACE_5, True, focus=3),
    RealFrame("keypad", FACE_6, False, focus=4),
    # the module under the mouse (Wire Sequence, bottom-right) is outlined: the cursor rests on
    # the middle of that outline (its box is x 200–323, y 243–369 px)
    RealFrame("maze", FACE_5, True, focus=2, cursor=(0.51, 0.80)),
    RealFrame("memory", FACE_6, False, focus=1),
    RealFrame("morse", FACE_6, False, focus=2),
    RealFrame("password", FACE_5, True, focus=0),
    RealFrame("simon", FACE_6, False, focus=0),
    RealFrame("venn-6", FACE_5, True, focus=1, wires=6),
    RealFrame("whoseonfirst", FACE_6, False, focus=5),
    RealFrame("wires-6", FACE_WIRES, True, focus=1, wires=6),
    RealFrame("wireseq", FACE_WIRESEQ, True, focus=5, wires=3),
)


@dataclass(frozen=True)
class Lookalike:
    """A bomb laid out as a real frame's, held with that face to the camera (the front)."""

    bomb: Bomb
    focused: ModuleEngine | None
    side: BombSide = "front"


def lookalike(frame: RealFrame, seed: int = 1) -> Lookalike:
    """A bomb with ``frame``'s face on its front (and the timer there or behind), every module
    drawn from ``random.Random(f"{seed}:<slot>:<kind>")``; a wire kind's generator is re-seeded
    until the module has as many wires as the real one."""
    spec = BombSpec(seed=seed, components=tuple(frame.face.values()))
    widgets, spots = generate_widgets(random.Random(f"{seed}:edgework"), spec.opt_widgets)
    bomb = Bomb(spec, V1, widgets, spots, Slot(on_front=frame.timer, index=TIMER_SLOT))
    focused = None
    for slot, kind in sorted(frame.face.items()):
        wires = frame.wires if slot == frame.focus else None
        engine = _module(bomb, kind, Slot(True, slot), seed, wires)
        bomb.modules.append(engine)
        if slot == frame.focus:
            focused = engine
    return Lookalike(bomb, focused)


def _module(bomb: Bomb, kind: str, slot: Slot, seed: int, wires: int | None) -> ModuleEngine:
    for attempt in range(SEARCH_SEEDS):
        rng = random.Random(f"{seed}:{slot.index}:{kind}:{attempt}")
        engine = engine_for(kind).generate(rng, rules=V1, bomb=bomb, slot=slot)
        if wires is None or _wires(engine) == wires:
            return engine
    raise LookupError(f"no {kind} with {wires} wires in {SEARCH_SEEDS} seeds")


def _wires(engine: ModuleEngine) -> int:
    """Wires an engine shows: its elements, less Wire Sequence's two buttons."""
    return len(engine.elements()) - (2 if engine.kind == "WireSequence" else 0)
