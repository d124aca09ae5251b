"""SANZARU bombs: variants as data, instances generated from (variant, seed), manuals, views.

A bomb carries the paper's parts (its Table 8): a light, a display digit, 3–7 wires, a strip of
three slots (colours for Deaf, unrelated glyphs for Blind; no manual uses it), and, by family,
an engraved plate (Carving), a keypad with a code (Bait) or fatal props (Haystack). The manual
is data too: a table from the light (and display, or plate glyph) to the colours to cut, in
order; a colour priority list; or keypad codes. ``required`` says what the manual demands at a
moment, which is all the referee and the failure coder need.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from gptnt.errors import ConfigError
from gptnt.resources import missions_dir

VARIANTS_FILE = missions_dir() / "sanzaru" / "variants.json"
INSTANCES_PER_VARIANT = 5  # 24 variants × 5 = the paper's 120 instances

WIRE_COLOURS = ("red", "blue", "yellow", "green", "white", "black", "orange")
LIGHT_COLOURS = ("red", "green", "blue", "yellow")
PLATE_GLYPHS = ("⟁", "⌬", "⍟", "⎈", "⏃", "⍜")
STRIP_GLYPHS = ("ᚠ", "ᚢ", "ᚦ", "ᚨ", "ᚱ", "ᚲ", "ᚷ", "ᚹ")
PROP_NAMES = ("lever", "dial", "toggle", "crank", "knob")

Family = Literal["base", "carving", "flashing", "flashback", "shuffle", "haystack", "bait"]
FAMILIES: tuple[Family, ...] = (
    "base", "carving", "flashing", "flashback", "shuffle", "haystack", "bait",
)  # fmt: skip


@dataclass(frozen=True)
class Variant:
    """One row of ``missions/sanzaru/variants.json``."""

    id: str
    family: Family
    subset: Literal["core", "plus"]
    wires: int
    cuts: int
    manual: Literal["rows", "grid", "glyph", "glyph-grid", "priority", "code", "code-grid"]
    rounds: int
    note: str
    relight: bool = False
    light_cycle: int = 0
    flashes: int = 0
    history: int | None = None
    shuffle: bool = False
    props: int = 0
    code: int = 0


@lru_cache(maxsize=1)
def variants() -> dict[str, Variant]:
    data = json.loads(VARIANTS_FILE.read_text())
    return {row["id"]: Variant(**row) for row in data["variants"]}


def variant(variant_id: str) -> Variant:
    try:
        return variants()[variant_id]
    except KeyError:
        raise ConfigError(
            f"variant {variant_id!r} is unknown; use one of {', '.join(variants())}"
        ) from None


# ----------------------------------------------------------------------------- manual


@dataclass(frozen=True)
class Manual:
    """What Mute reads. ``table`` maps a key (light; light and digit; glyph; glyph and light) to
    what the manual says for it: colours to cut in order, or a keypad code."""

    kind: str
    table: dict[str, tuple[str, ...]]
    priority: tuple[str, ...] = ()
    cuts: int = 0
    notes: tuple[str, ...] = ()

    def text(self) -> str:
        lines = ["BOMB MANUAL"]
        lines += list(self.notes)
        if self.kind == "priority":
            lines.append(
                f"Cut the first {self.cuts} of these colours that the bomb has, in this order: "
                + ", ".join(self.priority)
                + "."
            )
        for key, value in self.table.items():
            if self.kind in ("code", "code-grid"):
                lines.append(f"{key}: enter the code {' '.join(value)}")
            else:
                lines.append(f"{key}: cut {', then '.join(value)}")
        return "\n".join(lines)


def _key(kind: str, light: str, digit: int, glyph: str) -> str:
    return {
        "rows": f"light {light}",
        "grid": f"light {light}, display {digit}",
        "glyph": f"plate {glyph}",
        "glyph-grid": f"plate {glyph}, light {light}",
        "code": f"light {light}",
        "code-grid": f"light {light}, display {digit}",
    }[kind]


# ----------------------------------------------------------------------------- instance


@dataclass
class Bomb:
    """One instance, live: what it is and what has happened to it."""

    variant: Variant
    seed: int
    wires: list[str]  # colour at each position (1-based positions = index + 1)
    cut: list[bool]
    lights: list[str]  # Flashing Light's cycle, Base-3's relight order, else one colour
    display: int
    plate: str | None
    strip: tuple[tuple[str, str], ...]  # (colour Deaf sees, glyph Blind feels) per slot
    keypad: tuple[int, ...]  # digit on keys 1–4 (Bait)
    props: tuple[str, ...]
    manual: Manual
    flashes: tuple[str, ...] = ()
    entered: list[int] = field(default_factory=list)  # digits pressed so far (Bait)
    cuts_done: list[str] = field(default_factory=list)  # colours cut correctly, in order
    relit: int = 0  # Base-3: cuts since the start (picks the light)
    noise: random.Random = field(default_factory=random.Random)
    noise_light: str = ""
    noise_display: int = 0

    # ---- the moment

    def light(self, round_no: int) -> str:
        v = self.variant
        if v.light_cycle:
            return self.lights[(round_no - 1) % len(self.lights)]
        if v.flashes:
            return self.flashes[round_no - 1] if round_no <= len(self.flashes) else "off"
        if v.relight:
            return self.lights[min(self.relit, len(self.lights) - 1)]
        if v.family == "haystack":
            return self.noise_light
        return self.lights[0]

    def shown_display(self) -> int:
        return self.noise_display if self.variant.family == "haystack" else self.display

    def tick(self, round_no: int) -> None:
        """Haystack: the light, display and props change for no reason each round."""
        if self.variant.family == "haystack":
            self.noise_light = self.noise.choice(LIGHT_COLOURS)
            self.noise_display = self.noise.randrange(10)

    def required(self, round_no: int) -> tuple[str, int] | None:
        """The next action the manual demands now: ``("cut", position)`` or ``("press",
        key)``; ``None`` once defused."""
        v = self.variant
        if v.manual in ("code", "code-grid"):
            code = self.manual.table[_key(v.manual, self.light(1), self.display, "")]
            if len(self.entered) >= len(code):
                return None
            digit = int(code[len(self.entered)])
            return ("press", self.keypad.index(digit) + 1)
        todo = self.colours_to_cut(round_no)
        if not todo:
            return None
        return ("cut", self.wires.index(todo[0]) + 1)

    def colours_to_cut(self, round_no: int) -> list[str]:
        """The colours still to cut, in the order the manual gives for this moment."""
        v = self.variant
        if len(self.cuts_done) >= v.cuts:
            return []
        if v.manual == "priority":
            present = [c for c in self.manual.priority if c in self.wires][: v.cuts]
            return [c for c in present if c not in self.cuts_done]
        if v.flashes:
            order = [self.manual.table[_key("rows", f, 0, "")][0] for f in self.flashes]
            return [c for c in order if c not in self.cuts_done]
        light = self.light(round_no)
        listed = self.manual.table[_key(v.manual, light, self.display, self.plate or "")]
        return [c for c in listed if c not in self.cuts_done][: v.cuts - len(self.cuts_done)]

    @property
    def defused(self) -> bool:
        return (
            self.required(1) is None
            if self.variant.manual.startswith("code")
            else (len(self.cuts_done) >= self.variant.cuts)
        )

    # ---- what happens

    def after_cut(self, colour: str) -> None:
        self.cuts_done.append(colour)
        v = self.variant
        if v.relight:
            self.relit += 1
        if v.shuffle:
            alive = [i for i, c in enumerate(self.cut) if not c]
            colours = [self.wires[i] for i in alive]
            colours = colours[-1:] + colours[:-1]  # every surviving wire moves one place down
            for i, c in zip(alive, colours, strict=True):
                self.wires[i] = c

    # ---- views (Table 8)

    def deaf_view(self, round_no: int) -> str:
        v = self.variant
        lines = [f"ROUND {round_no} of {v.rounds}", f"LIGHT [{self.light(round_no)}]",
                 f"DISPLAY [{self.shown_display()}]",
                 "WIRES " + " ".join(f"{i + 1}:[{'CUT' if self.cut[i] else c}]"
                                     for i, c in enumerate(self.wires))]  # fmt: skip
        if self.plate is not None:
            lines.append("PLATE engraved [unreadable]")
        lines.append("STRIP painted " + " ".join(f"[{c}]" for c, _ in self.strip))
        lines += self._shared_parts()
        return "\n".join(lines)

    def blind_view(self, round_no: int) -> str:
        v = self.variant
        lines = [f"ROUND {round_no} of {v.rounds}", "LIGHT [unreadable]", "DISPLAY [unreadable]",
                 "WIRES " + " ".join(f"{i + 1}:[{'CUT' if self.cut[i] else 'unreadable'}]"
                                     for i in range(len(self.wires)))]  # fmt: skip
        if self.plate is not None:
            lines.append(f"PLATE engraved [{self.plate}]")
        lines.append("STRIP engraved " + " ".join(f"[{g}]" for _, g in self.strip))
        lines += self._shared_parts()
        return "\n".join(lines)

    def _shared_parts(self) -> list[str]:
        lines = []
        if self.keypad:
            code = self.manual.table[_key(self.variant.manual, self.light(1), self.display, "")]
            entered = " ".join(map(str, self.entered)) or "nothing"
            lines.append(
                "KEYPAD "
                + " ".join(f"{i + 1}:[{d}]" for i, d in enumerate(self.keypad))
                + f" [{len(code)} digit{'s' if len(code) > 1 else ''}] [entered {entered}]"
            )
        if self.props:
            lines.append("PROPS " + " ".join(f"{i + 1}:[{p}]" for i, p in enumerate(self.props)))
        return lines


def generate(v: Variant, seed: int) -> Bomb:
    """The instance ``seed`` of a variant: the same inputs always give the same bomb."""
    rng = random.Random(f"sanzaru:{v.id}:{seed}")
    wires = rng.sample(WIRE_COLOURS, v.wires)
    n_lights = max(v.light_cycle, 3 if v.relight else 1, 1)
    lights = rng.sample(LIGHT_COLOURS, n_lights)
    display = rng.randrange(1, 4)
    plate = rng.choice(PLATE_GLYPHS) if v.manual.startswith("glyph") else None
    strip = tuple(zip(rng.sample(LIGHT_COLOURS, 3), rng.sample(STRIP_GLYPHS, 3), strict=True))
    keypad = tuple(rng.sample(range(10), 4)) if v.manual.startswith("code") else ()
    props = tuple(rng.sample(PROP_NAMES, v.props))
    flashes = tuple(rng.sample(LIGHT_COLOURS, v.flashes)) if v.flashes else ()
    manual = _manual(v, rng, wires, lights, display, plate, keypad, flashes)
    bomb = Bomb(v, seed, wires, [False] * v.wires, lights, display, plate, strip, keypad, props,
                manual, flashes, noise=random.Random(f"noise:{v.id}:{seed}"))  # fmt: skip
    bomb.tick(1)
    return bomb


def _manual(v: Variant, rng: random.Random, wires: list[str], lights: list[str], display: int,
            plate: str | None, keypad: tuple[int, ...], flashes: tuple[str, ...]) -> Manual:  # fmt: skip
    notes: list[str] = []
    table: dict[str, tuple[str, ...]] = {}
    if v.manual == "priority":
        order = rng.sample(WIRE_COLOURS, len(WIRE_COLOURS))
        notes.append("Lights, displays and props mean nothing. Never touch a prop.")
        return Manual("priority", {}, tuple(order), v.cuts, tuple(notes))
    if v.manual.startswith("code"):
        digits_for = {}
        for light in LIGHT_COLOURS:
            for d in (1, 2, 3) if v.manual == "code-grid" else (display,):
                code = tuple(str(x) for x in rng.sample(keypad, v.code))
                digits_for[_key(v.manual, light, d, "")] = code
        notes.append(
            "Press the keys whose digits make the code, in order. A key press cannot be undone."
        )
        return Manual(v.manual, digits_for, notes=tuple(notes))
    per_cell = 1 if (v.relight or v.flashes) else v.cuts
    keys: list[tuple[str, int, str]] = []
    if v.manual == "rows":
        keys = [(light, 0, "") for light in LIGHT_COLOURS]
    elif v.manual == "grid":
        keys = [(light, d, "") for light in LIGHT_COLOURS for d in (1, 2, 3)]
    elif v.manual == "glyph":
        keys = [("", 0, g) for g in PLATE_GLYPHS]
    elif v.manual == "glyph-grid":
        keys = [(light, 0, g) for g in PLATE_GLYPHS for light in LIGHT_COLOURS]
    for light, d, glyph in keys:
        table[_key(v.manual, light, d, glyph)] = tuple(rng.sample(wires, per_cell))
    if v.relight:  # each light of the relight order names a different wire
        for light, colour in zip(lights, rng.sample(wires, len(lights)), strict=False):
            table[_key("rows", light, 0, "")] = (colour,)
        notes.append("After every correct cut the light changes colour: look it up again.")
    if v.flashes:
        for light, colour in zip(LIGHT_COLOURS, rng.sample(WIRE_COLOURS, 4), strict=True):
            table[_key("rows", light, 0, "")] = (colour,)
        for f, colour in zip(flashes, rng.sample(wires, len(flashes)), strict=True):
            table[_key("rows", f, 0, "")] = (colour,)
        notes.append(
            "At the start the light flashes a sequence of colours, one per round, then goes "
            "dark. For each flash, in order, cut the wire the table names for that colour."
        )
    if v.light_cycle:
        notes.append(
            "The light changes colour every round. A cut is judged by the colour the light "
            "shows at the moment of the cut."
        )
    if v.shuffle:
        notes.append("After every correct cut the remaining wires move to new positions.")
    if len(next(iter(table.values()))) > 1:
        notes.append("Where a line names several wires, cut them in that order.")
    return Manual(v.manual, table, notes=tuple(notes))


def instances() -> list[tuple[Variant, int]]:
    """The 120 instances: seeds 1–5 of each of the 24 variants."""
    return [(v, s) for v in variants().values() for s in range(1, INSTANCES_PER_VARIANT + 1)]
