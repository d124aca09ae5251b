"""The Button under a rule seed: six weighted rules over button, battery, port and serial
queries, four strip rules over timer moments, then a pass that removes the most obvious
redundancies (a hold right before the "hold" otherwise; a battery rule shadowed by another).

One weight map serves every pick; the main actions start at hold 1, tap 0.1 and the timed tap
0.05, shrinking by 0.05 when picked.
"""

from __future__ import annotations

from gptnt.rules._edgework import (
    BatteriesAbove,
    EmptyPortPlate,
    LitIndicator,
    PortPresent,
    SerialOdd,
    SerialStartsWithLetter,
)
from gptnt.rules._steps import Timing
from gptnt.rules.modules import big_button as b
from gptnt.rules.ruleseed._random import MonoRandom

INDICATORS = ("SND", "CLR", "CAR", "IND", "FRQ", "SIG", "NSA", "MSA", "TRN", "BOB", "FRK")
PORTS = ("DVI-D", "PS/2", "RJ-45", "Stereo RCA", "Parallel", "Serial")
_INITIAL = {"hold": 1.0, "tap": 0.1, "tap_when_seconds_digits_match": 0.05}
_MAIN: tuple[b.Action, ...] = ("hold", "tap", "tap_when_seconds_digits_match")
_RELEASES: tuple[Timing, ...] = (
    *(Timing("timer_has_digit", d) for d in (5, 1, 2, 3, 4, 6, 7, 8, 9, 0)),
    *(Timing("seconds_ones_digit_is", d) for d in range(10)),
    Timing("any_time"),
    Timing("seconds_digits_sum_multiple_of_4"),
    Timing("seconds_digits_sum_5"),
    Timing("seconds_digits_sum_7"),
    Timing("seconds_digits_sum_3_or_13"),
    Timing("seconds_prime_or_zero"),
)


def generate(rng: MonoRandom) -> b.ButtonRules:
    weights: dict[str, float] = {}

    def main(options: tuple[b.Action, ...]) -> b.Action:
        return rng.weighted(options, weights, 0.05, key=str, initial=_INITIAL.__getitem__)

    primary: list[b.Condition] = [
        *(b.ColorIs(c) for c in ("red", "blue", "yellow", "white")),
        BatteriesAbove(1),
        BatteriesAbove(2),
    ]
    strips = ["red", "blue", "yellow", "white"]
    secondary: list[b.Condition] = [b.WordIs(w) for w in ("Press", "Hold", "Abort", "Detonate")]
    secondary += [LitIndicator(rng.pick(INDICATORS)) for _ in range(3)]
    ports = list(PORTS)
    secondary += [PortPresent(rng.pop(ports)) for _ in range(3)]
    primary += [PortPresent(p) for p in ports]
    primary.append(EmptyPortPlate())
    secondary += [SerialStartsWithLetter(), SerialOdd()]

    rules: list[list[b.Condition]] = []
    actions: list[b.Action] = []
    for _ in range(6):
        base = rng.pop(primary)
        if rng.next(0, 2) == 0:
            rules.append([base])
        else:
            rules.append([base, rng.pop(secondary)])
        actions.append(main(_MAIN))

    release = {}
    for _ in range(3):
        strip = rng.pop(strips)
        release[strip] = rng.weighted(_RELEASES, weights, 0.05, key=repr)
    other = rng.weighted(_RELEASES, weights, 0.05, key=repr)

    if actions[5] == "hold":  # the "otherwise" holds anyway
        actions[5] = main(("tap", "tap_when_seconds_digits_match"))
    _battery_pass(rng, rules, actions, primary, secondary)
    return b.ButtonRules(
        rules=tuple(b.ButtonRule(tuple(r), a) for r, a in zip(rules, actions, strict=True)),
        otherwise="hold",
        strip_release=release,
        other_release=other,
    )


def _battery_pass(
    rng: MonoRandom,
    rules: list[list[b.Condition]],
    actions: list[b.Action],
    primary: list[b.Condition],
    secondary: list[b.Condition],
) -> None:
    """Make "more than 1 battery" and "more than 2 batteries" rules say different things."""
    one = two = None
    for i in range(len(rules) - 1, -1, -1):
        if BatteriesAbove(2) in rules[i]:
            two = i
        if BatteriesAbove(1) in rules[i]:
            one = i
    if one is None or two is None:
        return
    low, high = min(one, two), max(one, two)
    same = len(set(actions[low : high + 1])) == 1

    def narrow(i: int) -> None:
        rules[i].append(rng.pop(secondary))

    def swap(i: int) -> None:
        rules[i][0] = rng.pop(primary)

    if one < two and len(rules[one]) == 1:
        narrow(one) if rng.next(0, 2) == 0 else swap(one)
    elif len(rules[one]) == 1 and len(rules[two]) == 1 and same:
        match rng.next(0, 7):
            case 0:
                narrow(one)
            case 1:
                narrow(two)
            case 2:
                narrow(two)
                narrow(one)
            case 3:
                swap(one)
            case 4:
                swap(two)
            case 5:
                swap(two)
                swap(one)
            case _:
                replacement: b.Action = "hold" if actions[one] == "tap" else "tap"
                target = low if high - low == 1 else rng.next(low, high)
                actions[target] = replacement
