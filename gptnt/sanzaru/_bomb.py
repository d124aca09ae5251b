"""SANZARU bombs: variants as data, instances generated from (variant, seed), manuals, views.

A bomb carries the paper's parts (its Table 8): a light from a fixed palette, a display digit
(zero on a bomb whose manual reads no display), 3–7 wires, a strip of three slots (colours for
Deaf, unrelated glyphs for Blind; no manual uses it), and, by family, an engraved plate
(Carving), a keypad with a code (our Bait 1–2) or fatal props (Haystack). The manual is data
too: rows from the light's colour (Table 1: three rows, each naming a different wire), a grid
of light × display (wider for Base 4 than Base 2), plate glyphs, a colour list, keypad codes.
No instance's answer is the wire its manual names most often, so a team cannot guess its way
past the relay. ``required`` says what the manual demands at a moment, which is all the
referee and the failure coder need.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from gptnt.errors import ConfigError
from gptnt.resources import missions_dir

VARIANTS_FILE = missions_dir() / "sanzaru" / "variants.json"
INSTANCES_PER_VARIANT = 5  # 24 variants × 5 = the paper's 120 instances

WIRE_COLOURS = ("red", "blue", "yellow", "green", "white", "black", "orange")
PALETTE = ("green", "red", "yellow")
"""The light's fixed palette: the three rows of the Base manual in the paper's Table 1."""
PLATE_GLYPHS = ("⟁", "⌬", "⍟", "⎈", "⏃", "⍜")
STRIP_GLYPHS = ("ᚠ", "ᚢ", "ᚦ", "ᚨ", "ᚱ", "ᚲ", "ᚷ", "ᚹ")
UNSAYABLE = frozenset(PLATE_GLYPHS + STRIP_GLYPHS)
"""Engraved glyphs have no name (Table 8): a glyph cannot be said, only described. Speech
carries words, so the referee delivers a spoken glyph as ``…``."""
PROP_NAMES = ("lever", "dial", "toggle", "crank", "knob", "switch", "valve")
_TRIES = 200  # seeded draws of a manual until its answer is not its most-named wire

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
    manual: Literal["rows", "grid", "glyph", "glyph-grid", "priority", "list", "code"]
    rounds: int
    note: str
    source: Literal["paper", "ours"]
    """``paper``: the variant as the paper states it (``basis`` says where); ``ours``: the paper
    gives only its family and count, the design is ours."""
    basis: str = ""
    palette: tuple[str, ...] = PALETTE
    digits: int = 0
    """Display digits 1…digits a grid manual reads (its columns); 0: the display shows 0."""
    bait: bool = False
    """Figure 12's colour→colour manual: one row names its own colour, and the light picks
    another row, so the wire of the light's colour is a lure."""
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
    out: dict[str, Variant] = {}
    for row in data["variants"]:
        fields: dict[str, Any] = {k: tuple(v) if k == "palette" else v for k, v in row.items()}
        out[row["id"]] = Variant(**fields)
    return out


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
        if self.kind == "list":
            lines.append("Cut the wires of these colours, in this order: "
                         + ", ".join(self.priority) + ".")  # fmt: skip
        for key, value in self.table.items():
            if self.kind == "code":
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
    display: int  # 0 where the manual reads no display (Table 8)
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
    noise_props: tuple[str, ...] = ()

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

    def shown_props(self) -> tuple[str, ...]:
        return self.noise_props if self.variant.family == "haystack" else self.props

    def tick(self, round_no: int) -> None:
        """Haystack: the light, display and props change for no reason each round (Table 2)."""
        if self.variant.family == "haystack":
            self.noise_light = self.noise.choice(self.variant.palette)
            self.noise_display = self.noise.randrange(10)
            self.noise_props = tuple(self.noise.sample(PROP_NAMES, len(self.props)))

    def required(self, round_no: int) -> tuple[str, int] | None:
        """The next action the manual demands now: ``("cut", position)`` or ``("press",
        key)``; ``None`` once defused."""
        v = self.variant
        if v.manual == "code":
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
        if v.manual in ("priority", "list"):
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
            if self.variant.manual == "code"
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
            props = self.shown_props()
            lines.append("PROPS " + " ".join(f"{i + 1}:[{p}]" for i, p in enumerate(props)))
        return lines


def generate(v: Variant, seed: int) -> Bomb:
    """The instance ``seed`` of a variant: the same inputs always give the same bomb."""
    rng = random.Random(f"sanzaru:{v.id}:{seed}")
    for _ in range(_TRIES):
        bomb = _draw(v, seed, rng)
        if not answer_is_most_named(bomb):
            bomb.tick(1)
            return bomb
    raise AssertionError(f"{v.id} #{seed}: no manual whose answer is not its most-named wire")


def _draw(v: Variant, seed: int, rng: random.Random) -> Bomb:
    palette = v.palette
    if v.bait:  # Figure 12: a → a (the lure's row), b → x, c → b; the light shows b or c
        a, b, c = rng.sample(palette, 3)
        free = rng.choice([w for w in WIRE_COLOURS if w not in palette])
        wires = rng.sample([a, b, free], 3)
        lights = [rng.choice((b, c))]
    else:
        wires = rng.sample(WIRE_COLOURS, v.wires)
        lights = rng.sample(palette, max(v.light_cycle, len(palette) if v.relight else 1))
    display = rng.randint(1, v.digits) if v.digits else 0
    plate = rng.choice(PLATE_GLYPHS) if v.manual.startswith("glyph") else None
    strip = tuple(zip(rng.sample(WIRE_COLOURS, 3), rng.sample(STRIP_GLYPHS, 3), strict=True))
    keypad = tuple(rng.sample(range(10), 4)) if v.manual == "code" else ()
    props = tuple(rng.sample(PROP_NAMES, v.props))
    flashes = tuple(rng.sample(palette, v.flashes)) if v.flashes else ()
    if v.bait:
        rows = _bait_rows(wires, palette, lights[0])
        manual = Manual("rows", {_key("rows", light, 0, ""): (w,) for light, w in rows})
    else:
        manual = _manual(v, rng, wires, keypad)
    return Bomb(v, seed, wires, [False] * v.wires, lights, display, plate, strip, keypad, props,
                manual, flashes, noise=random.Random(f"noise:{v.id}:{seed}"))  # fmt: skip


def _bait_rows(wires: list[str], palette: tuple[str, ...], light: str) -> list[tuple[str, str]]:
    """Figure 12's three rows: the palette colour on a wire that the light does not show maps
    to itself, the other wired palette colour to the wire of no palette colour, the unwired
    palette colour to that other wired one."""
    wired = [c for c in palette if c in wires]
    other = next(w for w in wires if w not in palette)
    unwired = next(c for c in palette if c not in wires)
    lure = next(c for c in wired if c != light) if light in wired else wired[0]
    b = next(c for c in wired if c != lure)
    rows = {lure: lure, b: other, unwired: b}
    return [(c, rows[c]) for c in palette]


def _cells(v: Variant) -> list[tuple[str, int, str]]:
    """The manual's keys as (light, digit, glyph)."""
    return {
        "rows": [(light, 0, "") for light in v.palette],
        "code": [(light, 0, "") for light in v.palette],
        "grid": [(light, d, "") for light in v.palette for d in range(1, v.digits + 1)],
        "glyph": [("", 0, g) for g in PLATE_GLYPHS],
        "glyph-grid": [(light, 0, g) for g in PLATE_GLYPHS for light in v.palette],
    }[v.manual]


def _manual(v: Variant, rng: random.Random, wires: list[str], keypad: tuple[int, ...]) -> Manual:
    notes: list[str] = []
    if v.manual == "priority":
        notes.append("Lights, displays and props mean nothing. Never touch a prop.")
        return Manual("priority", {}, tuple(rng.sample(WIRE_COLOURS, len(WIRE_COLOURS))), v.cuts,
                      tuple(notes))  # fmt: skip
    if v.manual == "list":  # Figure 10: the manual's colours, all on the bomb
        notes.append("Lights, displays and props mean nothing. Never touch a prop.")
        return Manual("list", {}, tuple(rng.sample(wires, v.cuts)), v.cuts, tuple(notes))
    cells = _cells(v)
    if v.manual == "code":  # every row's code starts with a different key
        firsts = rng.sample(keypad, len(cells))
        table: dict[str, tuple[str, ...]] = {}
        for (light, d, _), first_key in zip(cells, firsts, strict=True):
            keys = rng.sample([k for k in keypad if k != first_key], v.code - 1)
            table[_key("code", light, d, "")] = tuple(str(x) for x in (first_key, *keys))
        notes.append(
            "Press the keys whose digits make the code, in order. A key press cannot be undone."
        )
        return Manual("code", table, notes=tuple(notes))
    per_cell = 1 if (v.relight or v.flashes) else v.cuts
    order = rng.sample(wires, len(wires))
    width = v.digits or 1
    table = {}
    for n, (light, d, glyph) in enumerate(cells):
        # Latin layout: along a row and down a column every cell starts with a different wire.
        row, col = divmod(n, width)
        first = order[(row + col) % len(order)]
        rest = rng.sample([w for w in wires if w != first], per_cell - 1)
        table[_key(v.manual, light, d, glyph)] = (first, *rest)
    if v.relight:
        notes.append("After every correct cut the light changes colour: look it up again.")
    if v.flashes:
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
    if per_cell > 1:
        notes.append("Where a line names several wires, cut them in that order.")
    return Manual(v.manual, table, notes=tuple(notes))


def named_counts(manual: Manual) -> Counter[str]:
    """How often the manual names each wire colour or key digit (every cell, every place)."""
    return Counter(value for values in manual.table.values() for value in values)


def answer_is_most_named(bomb: Bomb) -> bool:
    """Is the first thing the manual demands the one it names most often, alone at the top? A
    team could then cut it without any relay. (A list manual names each colour once.)"""
    counts = named_counts(bomb.manual)
    if not counts:
        return False
    need = bomb.required(1)
    if need is None:
        return False
    answer = bomb.wires[need[1] - 1] if need[0] == "cut" else str(bomb.keypad[need[1] - 1])
    top = counts.most_common()
    return top[0][0] == answer and (len(top) == 1 or top[1][1] < top[0][1])


def instances() -> list[tuple[Variant, int]]:
    """The 120 instances: seeds 1–5 of each of the 24 variants."""
    return [(v, s) for v in variants().values() for s in range(1, INSTANCES_PER_VARIANT + 1)]
