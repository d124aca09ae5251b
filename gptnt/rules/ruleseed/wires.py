"""Wires under a rule seed: per wire count, 3–4 weighted random rules and an "otherwise".

Query kinds cost wires (a rule's conditions may together name at most n − 1 wires); each kind
carries its colour from a shrinking palette; the solutions are the positional cuts plus the cuts
the coloured conditions offer. Weights shrink by 0.1 per query pick and 0.05 per solution pick,
per wire count. ``seed_one`` keeps the generator's own seed-1 branches (no port queries, no
validity check, no "otherwise" exclusion); it is only ever used to check the generator.
"""

from __future__ import annotations

from dataclasses import dataclass

from gptnt.protocol import WireColor
from gptnt.rules._edgework import EmptyPortPlate, PortPresent, SerialOdd, SerialStartsWithLetter
from gptnt.rules.modules import wires as w
from gptnt.rules.ruleseed._random import MonoRandom

COLORS: tuple[WireColor, ...] = ("black", "blue", "red", "white", "yellow")
PORTS = ("DVI-D", "PS/2", "RJ-45", "Stereo RCA", "Parallel", "Serial")


@dataclass(frozen=True)
class _Query:
    key: str  # weight key: the kind (ports one key each); colour is never part of it
    cost: int  # wires the condition names
    colored: bool
    feeds: bool  # its colour may become the solution's colour
    extras: tuple[str, ...]  # solution kinds it offers
    later_only: bool = False  # allowed only as the second condition


_SERIAL = (
    _Query("serial_letter", 0, False, False, (), later_only=True),
    _Query("serial_odd", 0, False, False, (), later_only=True),
)
_WIRE = (
    _Query("exactly_one", 1, True, True, ("one_of",)),
    _Query("none", 0, True, False, ()),
    _Query("last_is", 1, True, True, ()),
    _Query("more_than_one", 2, True, True, ("first_of", "last_of")),
)
_PORT = tuple(_Query(f"port:{p}", 0, False, False, (), later_only=True) for p in PORTS) + (
    _Query("empty_plate", 0, False, False, (), later_only=True),
)
_POSITIONS = ("first", "second", "last", "third", "fourth", "fifth")
_NTH = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1}


def _drawn(color: WireColor | None) -> WireColor:
    assert color is not None, "a colour query or cut has its colour drawn"
    return color


def _condition(query: _Query, color: WireColor | None) -> w.Condition:
    match query.key:
        case "serial_letter":
            return SerialStartsWithLetter()
        case "serial_odd":
            return SerialOdd()
        case "exactly_one":
            return w.ColorCount(_drawn(color), "eq", 1)
        case "none":
            return w.ColorCount(_drawn(color), "eq", 0)
        case "last_is":
            return w.LastWireIs(_drawn(color))
        case "more_than_one":
            return w.ColorCount(_drawn(color), "gt", 1)
        case "empty_plate":
            return EmptyPortPlate()
    return PortPresent(query.key.removeprefix("port:"))


def _cut(kind: str, color: WireColor | None) -> w.Cut:
    match kind:
        case "one_of":
            return w.CutOnlyOf(_drawn(color))
        case "first_of":
            return w.CutFirstOf(_drawn(color))
        case "last_of":
            return w.CutLastOf(_drawn(color))
    return w.CutNth(_NTH[kind])


def _rule_list(rng: MonoRandom, n: int, *, seed_one: bool) -> tuple[w.WireRule, ...]:
    query_weights: dict[str, float] = {}
    solution_weights: dict[str, float] = {}
    kinds = _SERIAL + _WIRE + (() if seed_one else _PORT)
    positions = _POSITIONS[: 3 + max(0, n - 3)]
    wanted = 3 if rng.draw() < 0.6 else 4
    rules: list[tuple[tuple[_Query, ...], w.WireRule, str]] = []
    while len(rules) < wanted:
        colors = list(COLORS)
        count = 1 if rng.draw() < 0.6 else 2
        budget = n - 1
        picked: list[tuple[_Query, WireColor | None]] = []
        solution_colors: list[WireColor] = []
        for k in range(count):
            candidates = [q for q in kinds if q.cost <= budget and not (q.later_only and k == 0)]
            query = rng.weighted(candidates, query_weights, 0.1, key=lambda q: q.key)
            budget -= query.cost
            color = None
            if query.colored:
                color = rng.pop(colors)
            if query.feeds and color is not None:
                solution_colors.append(color)
            picked.append((query, color))
        solutions = list(positions) + [e for q, _ in picked for e in q.extras]
        kind = rng.weighted(solutions, solution_weights, 0.05, key=lambda s: s)
        color = rng.pick(solution_colors) if solution_colors else None
        last_wire_conditions = sum(q.key == "last_is" for q, _ in picked)
        if not seed_one and last_wire_conditions > 1:
            continue  # rejected; its draws and weight changes stay spent
        rule = w.WireRule(tuple(_condition(q, c) for q, c in picked), _cut(kind, color))
        rules.append((tuple(q for q, _ in picked), rule, kind))
    rules.sort(key=lambda r: -len(r[0]))  # stable: generation order within a condition count
    fallbacks = list(positions)
    if not seed_one and rules[-1][2] in fallbacks:
        fallbacks.remove(rules[-1][2])
    otherwise = w.WireRule((), _cut(rng.pick(fallbacks), None))
    return (*(rule for _, rule, _ in rules), otherwise)


def generate(rng: MonoRandom, *, seed_one: bool = False) -> w.WiresRules:
    return w.WiresRules(by_count={n: _rule_list(rng, n, seed_one=seed_one) for n in (3, 4, 5, 6)})
