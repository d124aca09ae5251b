"""The real game frames the framing was measured on, and seeded bombs that show the same thing.

The real frames (512×384, one 512×512) and their masks are not ours and are never in this
repository; a checkout beside the shared fixtures finds them at ``../shared/fixtures/real-game/
som/<name>-screen.png`` and ``<name>-segm.png``. This table says what each one shows, so that
the geometry tests and the side-by-side gallery (``scripts/render_gallery.py``) can render the
simulator's view of the same thing: the same module kind zoomed into in the same slot, with the
timer on that face or not, or a zoomed-out face with as many modules.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gptnt.protocol._state import BombSide
from gptnt.rules.ruleset import V1
from gptnt.sim.bomb import Bomb, BombSpec
from gptnt.sim.modules._base import ModuleEngine

SEARCH_SEEDS = 5000  # bomb seeds tried to find a layout like a real frame's


@dataclass(frozen=True)
class RealFrame:
    """One real frame: zoomed into ``kind`` in ``slot`` (as seen on that face), or a zoomed-out
    face (``kind`` None) of ``modules`` modules."""

    name: str
    kind: str | None
    slot: int | None = None
    timer_on_face: bool = True  # the timer is on the face looked at (bottom-middle when it is)
    wires: int | None = None  # wire kinds: as many wires as the real module (their paths vary)
    modules: int = 0  # zoomed out: modules on the face

    def paths(self, root: Path) -> tuple[Path, Path]:
        """The frame and its mask under the fixtures' ``som`` folder."""
        return root / f"{self.name}-screen.png", root / f"{self.name}-segm.png"


REAL_FRAMES: tuple[RealFrame, ...] = (
    RealFrame("bomb-5", None, modules=5),  # the Button bottom-left, the timer bottom-middle
    RealFrame("bomb-6", None, timer_on_face=False, modules=6),
    RealFrame("button", "BigButton", 3),
    RealFrame("keypad", "Keypad", 4, timer_on_face=False),
    RealFrame("maze", "Maze", 2),
    RealFrame("memory", "Memory", 1, timer_on_face=False),
    RealFrame("morse", "Morse", 2, timer_on_face=False),
    RealFrame("password", "Password", 0),
    RealFrame("simon", "Simon", 0, timer_on_face=False),
    RealFrame("venn-6", "Venn", 1, wires=6),
    RealFrame("whoseonfirst", "WhosOnFirst", 5, timer_on_face=False),
    RealFrame("wires-6", "Wires", 1, wires=6),
    RealFrame("wireseq", "WireSequence", 5, wires=3),
)
TIMER_SLOT = 4  # where the timer is in every real frame that shows it
FACE_KINDS = ("Wires", "Keypad", "Maze", "Password", "Simon", "Memory", "Morse")


@dataclass(frozen=True)
class Lookalike:
    """A bomb seen as a real frame sees its bomb: the side shown and the module zoomed into."""

    bomb: Bomb
    side: BombSide
    focused: ModuleEngine | None


def lookalike(frame: RealFrame) -> Lookalike:
    """The first seeded bomb laid out like ``frame``'s (raises if none of the seeds is)."""
    for seed in range(SEARCH_SEEDS):
        found = _try(frame, seed)
        if found is not None:
            return found
    raise LookupError(f"no bomb seed below {SEARCH_SEEDS} is laid out like {frame.name}")


def _try(frame: RealFrame, seed: int) -> Lookalike | None:
    if frame.kind is None:
        if frame.timer_on_face:  # the Button bottom-left, the timer bottom-middle
            kinds = ("BigButton", *FACE_KINDS[: frame.modules - 1])
            bomb = Bomb.generate(BombSpec(seed=seed, components=kinds, front_only=True), V1)
            ok = bomb.modules[0].slot.index == 3 and bomb.timer_slot.index == TIMER_SLOT
            return Lookalike(bomb, "front", None) if ok else None
        bomb = Bomb.generate(BombSpec(seed=seed, components=FACE_KINDS), V1)
        ok = len(bomb.modules_on_face(False)) == frame.modules
        return Lookalike(bomb, "back", None) if ok else None
    spec = BombSpec(seed=seed, components=(frame.kind,), front_only=frame.timer_on_face)
    bomb = Bomb.generate(spec, V1)
    engine = bomb.modules[0]
    on_timer_face = engine.slot.on_front == bomb.timer_slot.on_front
    if engine.slot.index != frame.slot or on_timer_face != frame.timer_on_face:
        return None
    if frame.timer_on_face and bomb.timer_slot.index != TIMER_SLOT:
        return None
    if frame.wires is not None and _wires(engine) != frame.wires:
        return None
    return Lookalike(bomb, "front" if engine.slot.on_front else "back", engine)


def _wires(engine: ModuleEngine) -> int:
    """Wires an engine shows: its elements, less Wire Sequence's two buttons."""
    return len(engine.elements()) - (2 if engine.kind == "WireSequence" else 0)
