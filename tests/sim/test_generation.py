"""Puzzle generation follows the game's generation distributions (the v1 modules, as the
modkit and the game draw them; undocumented details are assumptions).

Each test draws ``N`` modules of one kind from seeds ``0..N-1`` (``random.Random(seed)``) through
the engine's ``generate``, on a small fake bomb, and compares what the modules *export* (or, where
the protocol hides it, the engine's fields) with the distribution known for the game
(docs/mechanics-audit.md). Where that is only a guess ([SIM]/[GUESS]) the test checks the
engine's configured assumption and its docstring says so.

Statistics: Pearson's chi-square goodness of fit with its exact p-value (the regularised upper
incomplete gamma function, computed below: scipy is not a dependency and this is 30 lines). A
check fails when ``p < ALPHA = 1e-4``. The seeds are fixed, so the suite is deterministic; the
small ALPHA bounds the chance that a *correct* engine fails after a harmless change of its draw
order by 1e-4 per check (about 60 checks: < 1 %), while N = 5,000 still exposes a shift of a few
percentage points in any category (``test_the_checks_have_power`` shows it on two plausible
mistakes). Every check also fails outright on an outcome outside the stated support, and refuses
bins expected to hold fewer than 5 samples (the chi-square approximation needs them). Samples
are always one value per module (pooled only over draws the reference makes independently), so
the multinomial model behind the test holds.
"""

from __future__ import annotations

import functools
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping
from itertools import combinations, permutations, product
from random import Random
from typing import Any, TypeVar

import pytest
from _support import FakeBomb

from gptnt.protocol import (
    BigButtonModule,
    KeypadModule,
    MazeModule,
    MemoryModule,
    MorseModule,
    SimonModule,
    VennModule,
    WhosOnFirstModule,
    WireSequenceModule,
    WiresModule,
)
from gptnt.rules import Edgework
from gptnt.rules.modules.keypad import press_order
from gptnt.rules.modules.password import candidates
from gptnt.rules.modules.venn import features
from gptnt.rules.ruleset import V1
from gptnt.sim.modules import engine_for
from gptnt.sim.modules._base import ModuleEngine, Slot
from gptnt.sim.modules.maze import MazeEngine
from gptnt.sim.modules.password import PasswordEngine

N = 5_000
ALPHA = 1e-4
K = TypeVar("K", bound=Hashable)

# ---------------------------------------------------------------- the statistics


def chi_square_sf(stat: float, dof: int) -> float:
    """P(X ≥ stat) for X ~ chi-square(dof), i.e. the regularised upper incomplete gamma
    Q(dof/2, stat/2): a power series for small ``stat``, a continued fraction (modified Lentz)
    for large, as usual for this function."""
    a, x = dof / 2, stat / 2
    if x <= 0:
        return 1.0
    front = math.exp(a * math.log(x) - x - math.lgamma(a))
    if x < a + 1:  # P(a, x) = front · Σ_k x^k / (a (a+1) … (a+k))
        term = total = 1 / a
        denominator = a
        while term > total * 1e-17:
            denominator += 1
            term *= x / denominator
            total += term
        return max(0.0, 1 - front * total)
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = d if abs(d) > tiny else tiny
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return front * h


def fit_p(observed: Mapping[K, int], expected: Mapping[K, float]) -> float:
    """Chi-square p-value of ``observed`` counts under category probabilities ``expected``.

    Fails (AssertionError) on an observed category outside the support (probability 0 or not
    listed), and on a bin expected to hold fewer than 5 samples (a test-design error: merge it).
    """
    assert math.isclose(sum(expected.values()), 1.0, abs_tol=1e-9), "probabilities must sum to 1"
    support = {k: p for k, p in expected.items() if p > 0}
    outside = [k for k, n in observed.items() if n and k not in support]
    assert not outside, f"outcomes outside the stated support: {outside[:5]}"
    total = sum(observed.values())
    thin = [k for k, p in support.items() if total * p < 5]
    assert not thin, f"bins expected to hold < 5 samples, merge them: {thin[:5]}"
    if len(support) < 2:
        return 1.0
    stat = sum((observed.get(k, 0) - total * p) ** 2 / (total * p) for k, p in support.items())
    return chi_square_sf(stat, len(support) - 1)


def assert_fits(values: Iterable[K], expected: Mapping[K, float], what: str) -> None:
    """The sample ``values`` (one per module) follows ``expected`` at level ALPHA."""
    observed = Counter(values)
    p = fit_p(observed, expected)
    worst = max(
        expected, key=lambda k: abs(observed.get(k, 0) - sum(observed.values()) * expected[k])
    )
    assert p >= ALPHA, (
        f"{what}: chi-square p = {p:.2e} < {ALPHA}; largest deviation at {worst!r}: "
        f"{observed.get(worst, 0)} seen, {sum(observed.values()) * expected[worst]:.1f} expected"
    )


def uniform(outcomes: Iterable[K]) -> dict[K, float]:
    items = list(outcomes)
    assert len(set(items)) == len(items)
    return {k: 1 / len(items) for k in items}


def lumped(exact: Mapping[int, float], low: int, high: int) -> dict[int, float]:
    """``exact`` with every value below ``low`` counted as ``low`` and above ``high`` as
    ``high`` (merges thin tail bins); apply ``clamp`` to the sample the same way."""
    out: dict[int, float] = {}
    for k, p in exact.items():
        out[clamp(k, low, high)] = out.get(clamp(k, low, high), 0.0) + p
    return out


def clamp(value: int, low: int, high: int) -> int:
    return min(max(value, low), high)


def test_chi_square_sf_matches_closed_forms() -> None:
    """The p-value function against closed forms: dof 1 (erfc), 2 (exp) and 4, both branches."""
    for x in (0.01, 0.5, 3.841458820694124, 10.827566170662733, 30.0):
        assert math.isclose(chi_square_sf(x, 1), math.erfc(math.sqrt(x / 2)), rel_tol=1e-9)
        assert math.isclose(chi_square_sf(x, 2), math.exp(-x / 2), rel_tol=1e-9)
        assert math.isclose(chi_square_sf(x, 4), math.exp(-x / 2) * (1 + x / 2), rel_tol=1e-9)
    assert math.isclose(chi_square_sf(3.841458820694124, 1), 0.05, rel_tol=1e-9)
    assert math.isclose(chi_square_sf(18.307038053275146, 10), 0.05, rel_tol=1e-8)
    assert chi_square_sf(0.0, 5) == 1.0


# ---------------------------------------------------------------- drawing modules


def _bomb(edgework: Edgework) -> FakeBomb:
    """A bomb whose timer stands at 04:59 (the test never moves ``now``)."""
    return FakeBomb(edgework, limit=299.0)


# Odd serial, no ports, no batteries, no indicators: generation of every module but Complicated
# Wires ignores the edgework; for that one it makes few wire kinds "cut" (see the Venn tests).
PLAIN = Edgework(serial="AB1CD3")
# Even serial, a parallel port and two batteries: most Complicated Wires kinds are "cut".
GENEROUS = Edgework(serial="AB1CD4", battery_holders=(2,), port_plates=(("Parallel",),))
SLOT = Slot(on_front=True, index=1)


@functools.cache
def engines(kind: str, edgework: Edgework = PLAIN) -> tuple[ModuleEngine, ...]:
    """N fresh modules of ``kind`` from seeds 0..N-1 (shared by the tests: do not mutate)."""
    engine = engine_for(kind)
    bomb = _bomb(edgework)
    return tuple(engine.generate(Random(seed), rules=V1, bomb=bomb, slot=SLOT) for seed in range(N))


def states(kind: str, edgework: Edgework = PLAIN) -> list[Any]:
    """The exported ``/state`` entries of ``engines(kind)`` at game time 0."""
    return [e.export(0.0, in_focus=False) for e in engines(kind, edgework)]


def redrawn(kind: str, element: str) -> list[Any]:
    """Fresh modules after one press of ``element`` at t = 0 (right or wrong, both redraw),
    exported once the buttons have emerged again."""
    out = []
    bomb = _bomb(PLAIN)
    for seed in range(N):
        engine = engine_for(kind).generate(Random(seed), rules=V1, bomb=bomb, slot=SLOT)
        engine.press(element, 0.0)
        out.append(engine.export(60.0, in_focus=False))
    return out


# ---------------------------------------------------------------- 5.1 Wires

WIRE_COLORS = ("black", "blue", "red", "white", "yellow")


def test_wires_count_slots_and_colours() -> None:
    """[P]: n = min(3 + ⌊6U⌋, 6) → P(3) = P(4) = P(5) = 1/6, P(6) = 1/2; the slots a
    uniform n-subset of the 6; colours i.i.d. uniform over the five."""
    modules: list[WiresModule] = states("Wires")
    slots = [tuple(i for i, w in enumerate(m.wires) if w is not None) for m in modules]
    assert all(len(m.wires) == 6 for m in modules)
    assert_fits((len(s) for s in slots), {3: 1 / 6, 4: 1 / 6, 5: 1 / 6, 6: 1 / 2}, "wire count")
    for n in (3, 4, 5):
        assert_fits(
            (s for s in slots if len(s) == n),
            uniform(combinations(range(6), n)),
            f"slots of {n} wires",
        )
    colors = [[w.color for w in m.wires if w is not None] for m in modules]
    assert_fits((c[0] for c in colors), uniform(WIRE_COLORS), "top wire colour")
    assert_fits((c[-1] for c in colors), uniform(WIRE_COLORS), "bottom wire colour")
    assert_fits(
        ((c[0], c[1]) for c in colors),
        uniform(product(WIRE_COLORS, repeat=2)),
        "colours of the top two wires (independence)",
    )
    assert_fits((c for cs in colors for c in cs), uniform(WIRE_COLORS), "all wire colours")
    assert not any(w.is_cut for m in modules for w in m.wires if w is not None)


# ---------------------------------------------------------------- 5.2 The Button

BUTTON_COLORS = ("red", "blue", "yellow", "white")  # the game's enum [G]: never black
BUTTON_WORDS = ("Press", "Hold", "Abort", "Detonate")
STRIP_COLORS = ("red", "blue", "yellow", "white")


def test_button_colour_label_and_strip() -> None:
    """colour over the game's 4 (never black) [G]; colour, label and strip uniform and
    independent — a [SIM/GUESS] the engine configures (``ButtonGeneration``). The strip is read
    from the export while held (``reroll_strip`` is off by default: the strip is fixed at
    generation, the other option)."""
    bomb = _bomb(PLAIN)
    seen = []
    for seed in range(N):
        engine = engine_for("BigButton").generate(Random(seed), rules=V1, bomb=bomb, slot=SLOT)
        idle: BigButtonModule = engine.export(0.0, in_focus=False)  # type: ignore[assignment]
        assert idle.strip_color is None and not idle.is_held
        engine.press("button", 0.0)
        held: BigButtonModule = engine.export(1.0, in_focus=False)  # type: ignore[assignment]
        seen.append((held.button_color, held.button_word, held.strip_color))
    assert_fits((c for c, _, _ in seen), uniform(BUTTON_COLORS), "button colour")
    assert_fits((w for _, w, _ in seen), uniform(BUTTON_WORDS), "button label")
    assert_fits((s for _, _, s in seen), uniform(STRIP_COLORS), "strip colour")
    assert_fits(
        seen,
        uniform(product(BUTTON_COLORS, BUTTON_WORDS, STRIP_COLORS)),
        "colour × label × strip (independence)",
    )


# ---------------------------------------------------------------- 5.3 Keypad


def test_keypad_symbols_come_from_one_column() -> None:
    """[SIM/GUESS, the engine's assumption]: a uniform column, 4 distinct symbols chosen
    uniformly among its 7, in uniformly random key positions (so the press order is a uniform
    permutation of the keys)."""
    columns = V1.keypad.columns
    picks, orders = [], []
    for m in states("Keypad"):
        assert isinstance(m, KeypadModule)
        keys = (m.top_left, m.top_right, m.bottom_left, m.bottom_right)
        assert all(k.color is None for k in keys)  # no LED lit before any press
        symbols = [k.symbol for k in keys]
        assert len(set(symbols)) == 4, symbols
        homes = [i for i, col in enumerate(columns) if set(symbols) <= set(col)]
        assert len(homes) == 1, symbols  # one column holds all four, and only one
        picks.append((homes[0], frozenset(symbols)))
        orders.append(tuple(press_order(symbols, V1.keypad)))
    assert_fits((c for c, _ in picks), uniform(range(len(columns))), "keypad column")
    subsets = [(i, frozenset(s)) for i, col in enumerate(columns) for s in combinations(col, 4)]
    assert_fits(picks, uniform(subsets), "column and its 4 symbols")
    assert_fits(orders, uniform(permutations(range(4))), "press order (key placement)")


# ---------------------------------------------------------------- 5.4 Simon Says

SIMON_COLORS = ("red", "blue", "green", "yellow")


def test_simon_length_and_colours() -> None:
    """[SIM, the engine's assumption]: length uniform in 3..5, colours i.i.d. uniform over
    the four (repeats allowed); the exported sequence is the full one, nothing solved yet."""
    modules: list[SimonModule] = states("Simon")
    assert all(m.solve_progress == 0 for m in modules)
    sequences = [m.beep_sequence for m in modules]
    assert_fits((len(s) for s in sequences), uniform((3, 4, 5)), "Simon length")
    assert_fits(
        (tuple(s[:3]) for s in sequences),
        uniform(product(SIMON_COLORS, repeat=3)),
        "first three flashes (uniform and independent)",
    )
    assert_fits((s[-1] for s in sequences), uniform(SIMON_COLORS), "last flash")
    assert_fits((s[i] for s in sequences for i in range(3)), uniform(SIMON_COLORS), "flash colours")


# ---------------------------------------------------------------- 5.5 Who's on First


def _check_whos_on_first(modules: list[WhosOnFirstModule], when: str) -> None:
    rules = V1.whos_on_first
    assert len(rules.display_words) == 28 and [len(g) for g in rules.button_groups] == [14, 14]
    groups, words = [], []
    for m in modules:
        assert m.is_emerged and m.display_word is not None and m.button_words is not None
        assert len(m.button_words) == 6 and len(set(m.button_words)) == 6, m.button_words
        homes = [i for i, g in enumerate(rules.button_groups) if set(m.button_words) <= set(g)]
        assert len(homes) == 1, m.button_words  # never a mix of the two groups
        groups.append(homes[0])
        words.append(m.button_words)
    display = [m.display_word for m in modules]
    assert_fits(display, uniform(rules.display_words), f"{when}: display word")
    assert_fits(groups, uniform(range(2)), f"{when}: button word group")
    pairs = [(i, w) for i, g in enumerate(rules.button_groups) for w in g]
    for position in (0, 5):
        assert_fits(
            ((g, w[position]) for g, w in zip(groups, words, strict=True)),
            uniform(pairs),
            f"{when}: group and word of button {position}",
        )


def test_whos_on_first_words() -> None:
    """display uniform over the 28 display terms [SIM]; buttons 6 distinct words of one
    14-word group in random order, the group uniform [GUESS, the engine's assumption]."""
    modules: list[WhosOnFirstModule] = states("WhosOnFirst")
    assert all(m.stage == 1 for m in modules)
    _check_whos_on_first(modules, "stage 1")


def test_whos_on_first_redraws_from_the_same_distribution() -> None:
    """[G]: the state is re-randomised every stage and after a strike; a press of the top
    left button is right for some modules and wrong for others, and both redraw alike."""
    modules: list[WhosOnFirstModule] = redrawn("WhosOnFirst", "button-0")
    assert {m.stage for m in modules} == {1, 2}
    _check_whos_on_first(modules, "after a press")


# ---------------------------------------------------------------- 5.6 Memory


def _check_memory(modules: list[MemoryModule], when: str) -> None:
    draws = [(m.display_number, tuple(m.button_numbers or ())) for m in modules]
    assert_fits((d for d, _ in draws), uniform((1, 2, 3, 4)), f"{when}: display")
    assert_fits((b for _, b in draws), uniform(permutations((1, 2, 3, 4))), f"{when}: labels")
    assert_fits(
        draws,
        uniform(product((1, 2, 3, 4), permutations((1, 2, 3, 4)))),
        f"{when}: display × labels (independence)",
    )


def test_memory_numbers() -> None:
    """[SIM/GUESS, the engine's assumption]: display uniform in 1–4, button labels a
    uniform permutation of 1–4, independent; stage 1, emerged."""
    modules: list[MemoryModule] = states("Memory")
    assert all(m.stage == 1 and m.is_emerged for m in modules)
    _check_memory(modules, "stage 1")


def test_memory_redraws_from_the_same_distribution() -> None:
    """Every stage and every reset draws anew : after one press (stage 2 or a reset)."""
    modules: list[MemoryModule] = redrawn("Memory", "button-1")
    assert {m.stage for m in modules} == {1, 2}
    _check_memory(modules, "after a press")


# ---------------------------------------------------------------- 5.7 Maze

CELLS = [(r, c) for r in range(6) for c in range(6)]


def _chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def test_maze_choice_start_and_goal() -> None:
    """[SIM/GUESS, the engine's assumption ``MazeGeneration``]: maze uniform over the 9
    (told by its circles), start uniform over the 36 cells, goal uniform among the cells at
    Chebyshev distance ≥ ``min_goal_distance`` (2, ktanesim's choice) from the start. The goal's
    marginal and the start–goal distance are checked against their exact mixtures."""
    far_from = MazeEngine.generation.min_goal_distance
    assert far_from == 2, "the reference's stated assumption (ktanesim) is distance ≥ 2"
    circles = {frozenset(m.circles): i for i, m in enumerate(V1.maze.mazes)}
    assert len(circles) == 9
    mazes, starts, goals = [], [], []
    for m in states("Maze"):
        assert isinstance(m, MazeModule) and (m.num_rows, m.num_columns) == (6, 6)
        mazes.append(circles[frozenset((c.row, c.column) for c in m.circle_positions)])
        starts.append((m.square_position.row, m.square_position.column))
        goals.append((m.triangle_position.row, m.triangle_position.column))
    assert all(_chebyshev(s, g) >= far_from for s, g in zip(starts, goals, strict=True))
    assert_fits(mazes, uniform(range(9)), "maze")
    assert_fits(starts, uniform(CELLS), "start cell")
    goal_p: defaultdict[tuple[int, int], float] = defaultdict(float)
    distance_p: defaultdict[int, float] = defaultdict(float)
    for s in CELLS:
        far = [g for g in CELLS if _chebyshev(s, g) >= far_from]
        for g in far:
            goal_p[g] += 1 / 36 / len(far)
            distance_p[_chebyshev(s, g)] += 1 / 36 / len(far)
    assert_fits(goals, goal_p, "goal cell")
    assert_fits(
        (_chebyshev(s, g) for s, g in zip(starts, goals, strict=True)),
        distance_p,
        "start–goal distance",
    )
    assert_fits(zip(mazes, starts), uniform(product(range(9), CELLS)), "maze × start")


# ---------------------------------------------------------------- 5.8 Morse Code


def test_morse_word_and_dial() -> None:
    """the word uniform over the 16 of the table [SIM]; the dial starts at 3.505 MHz
    [DATA]; the exported correct frequency is the table's."""
    table = dict(V1.morse.words)
    assert len(table) == 16
    modules: list[MorseModule] = states("Morse")
    assert all(m.current_frequency == 505 for m in modules)
    assert all(m.correct_frequency == table[m.sequence] for m in modules)
    assert_fits((m.sequence for m in modules), uniform(table), "Morse word")


# ---------------------------------------------------------------- 5.9 Complicated Wires

VENN_COLORS = ("white", "red", "blue", "red, white", "blue, white", "red, blue")
VENN_COUNTS = {4: 1 / 6, 5: 1 / 6, 6: 2 / 3}  # min(randint(4, 9), 6)
KINDS = list(product(VENN_COLORS, (False, True), (False, True)))  # (colour, LED, star)


def _venn_kind_p(edgework: Edgework) -> dict[tuple[str, bool, bool], float]:
    """The exact distribution of one given wire's (colour, LED, star), fix-up included.

    Before the fix-up each wire's kind is uniform over the 24 (uniform colour, LED and star ½).
    With ``c`` of the 24 kinds cut on this bomb (q = c/24), all n wires are "keep" with
    probability (1-q)^n; then one uniformly chosen wire is redrawn uniformly among the cut
    kinds. So for one wire: P(cut kind k) = 1/24 + (1-q)^n / (n c) and P(keep kind k) =
    (1 - (1-q)^(n-1) / n) / 24, mixed over the wire count n.
    """
    cut = {k for k in KINDS if V1.venn.should_cut(features(k[0], k[2], k[1]), edgework)}
    q = len(cut) / 24
    out: dict[tuple[str, bool, bool], float] = {}
    for k in KINDS:
        out[k] = sum(
            pn
            * (
                1 / 24 + (1 - q) ** n / (n * len(cut))
                if k in cut
                else (1 - (1 - q) ** (n - 1) / n) / 24
            )
            for n, pn in VENN_COUNTS.items()
        )
    return out


def _venn_cut_count_p(edgework: Edgework) -> dict[int, float]:
    """The exact distribution of a module's number of wires to cut: Binomial(n, q) per wire
    count n (wires drawn independently), with the fix-up turning 0 into 1."""
    q = sum(V1.venn.should_cut(features(c, star, led), edgework) for c, led, star in KINDS) / 24
    out: defaultdict[int, float] = defaultdict(float)
    for n, pn in VENN_COUNTS.items():
        for m in range(n + 1):
            out[max(m, 1)] += pn * math.comb(n, m) * q**m * (1 - q) ** (n - m)
    return dict(out)


def _marginal(
    kind_p: Mapping[tuple[str, bool, bool], float], part: Callable[[Any], K]
) -> dict[K, float]:
    out: defaultdict[K, float] = defaultdict(float)
    for k, p in kind_p.items():
        out[part(k)] += p
    return dict(out)


@pytest.mark.parametrize(
    ("edgework", "cut_bins"),
    [(PLAIN, (1, 4)), (GENEROUS, (2, 6))],
    ids=["few-cut-kinds", "many-cut-kinds"],
)
def test_venn_count_slots_and_wire_kinds(edgework: Edgework, cut_bins: tuple[int, int]) -> None:
    """(all [SIM], the engine's ``VennGeneration``): count min(randint(4, 9), 6), a uniform
    slot subset, colour uniform over the 6, LED and star each ½ — then, if no wire is to be cut,
    one random wire redrawn among the cut kinds. On the PLAIN bomb only 4 of 24 kinds are cut,
    so the fix-up happens in about a third of modules and visibly shifts the odds; the tests
    compare the leftmost and the rightmost wire (one wire per module: wires of one module are
    not independent after the fix-up) with the exact distribution (``_venn_kind_p``), and the
    number of wires to cut with its own (``_venn_cut_count_p``)."""
    modules: list[VennModule] = states("Venn", edgework)
    slots = [tuple(i for i, w in enumerate(m.wires) if w is not None) for m in modules]
    assert_fits((len(s) for s in slots), VENN_COUNTS, "Complicated Wires count")
    for n in (4, 5):
        assert_fits(
            (s for s in slots if len(s) == n),
            uniform(combinations(range(6), n)),
            f"slots of {n} wires",
        )
    firsts, lasts, to_cut = [], [], []
    for m in modules:
        wires = [w for w in m.wires if w is not None]
        to_cut.append(
            sum(
                V1.venn.should_cut(features(w.color, w.has_star, w.is_led_on), edgework)
                for w in wires
            )
        )
        firsts.append((wires[0].color, wires[0].is_led_on, wires[0].has_star))
        lasts.append((wires[-1].color, wires[-1].is_led_on, wires[-1].has_star))
    assert min(to_cut) >= 1, "a module with no wire to cut"
    assert_fits(
        (clamp(m, *cut_bins) for m in to_cut),
        lumped(_venn_cut_count_p(edgework), *cut_bins),
        "wires to cut per module",
    )
    kind_p = _venn_kind_p(edgework)
    assert_fits(firsts, kind_p, "leftmost wire's (colour, LED, star)")
    assert_fits(lasts, kind_p, "rightmost wire's (colour, LED, star)")
    assert_fits((c for c, _, _ in firsts), _marginal(kind_p, lambda k: k[0]), "colour")
    assert_fits((led for _, led, _ in firsts), _marginal(kind_p, lambda k: k[1]), "LED on")
    assert_fits((star for _, _, star in firsts), _marginal(kind_p, lambda k: k[2]), "star")
    if edgework is GENEROUS:  # the fix-up is negligible here: the plain ½ and 1/6 odds show
        assert max(abs(p - 1 / 24) for p in kind_p.values()) < 1e-3


# ---------------------------------------------------------------- 5.10 Wire Sequence

SEQUENCE_COLORS = ("red", "blue", "black")


def _panel_count_p() -> list[dict[int, float]]:
    """Exact per-panel wire-count distributions of ktanesim's algorithm: 10 wires and 3 empties
    shuffled (every placement of the empties among the 13 equally likely); if plugs 0–2 are all
    empty, item 3 moves into panel 1; the 13th item is dropped."""
    out: list[defaultdict[int, float]] = [defaultdict(float) for _ in range(4)]
    placements = list(combinations(range(13), 3))
    for empties in placements:
        filled = [i not in empties for i in range(13)]
        if not any(filled[:3]):
            filled[0], filled[3] = True, False  # which of 0–2 takes it does not change counts
        for panel in range(4):
            out[panel][sum(filled[3 * panel : 3 * panel + 3])] += 1 / len(placements)
    return [dict(c) for c in out]


def _red_count_p() -> dict[int, float]:
    """Exact distribution of a module's red wires: the 10 drawn from 27 candidates (9 of each
    colour) hold Hypergeometric(27, 9, 10) reds; with probability 10/13 the dropped 13th item is
    a wire, a uniformly chosen one of the 10."""
    out: defaultdict[int, float] = defaultdict(float)
    for k in range(11):
        h = math.comb(9, k) * math.comb(18, 10 - k) / math.comb(27, 10)
        out[k] += h * 3 / 13
        out[k - 1] += h * 10 / 13 * k / 10
        out[k] += h * 10 / 13 * (10 - k) / 10
    return {k: p for k, p in out.items() if k >= 0}


def test_wire_sequence_counts_colours_and_letters() -> None:
    """(ktanesim's claim of the game's algorithm [SIM], the engine's assumption): 9 or 10
    wires over 12 plugs (P = 10/13, 3/13), panel 1 never empty, per-panel counts as the
    algorithm implies (exact, ``_panel_count_p``), each colour drawn without replacement from 9
    candidates (so a module's red count is hypergeometric-like, ``_red_count_p``, never above
    9), a wire's colour and letter uniform and independent."""
    modules: list[WireSequenceModule] = states("WireSequence")
    assert all(m.panel == 1 and m.is_emerged and len(m.wires) == 12 for m in modules)
    present = [[w for w in m.wires if w is not None] for m in modules]
    assert all(
        w.start_position_number == i
        for m in modules
        for i, w in enumerate(m.wires)
        if w is not None
    )
    assert_fits((len(p) for p in present), {9: 10 / 13, 10: 3 / 13}, "wire count")
    for panel, expected in enumerate(_panel_count_p()):
        assert_fits(
            (sum(w is not None for w in m.wires[3 * panel : 3 * panel + 3]) for m in modules),
            expected,
            f"wires on panel {panel + 1}",
        )
    for color in SEQUENCE_COLORS:
        assert all(sum(w.color == color for w in p) <= 9 for p in present)
        assert_fits(
            (clamp(sum(w.color == color for w in p), 0, 7) for p in present),
            lumped(_red_count_p(), 0, 7),
            f"{color} wires per module",
        )
    pairs = [(p[0].color, p[0].end_position_letter) for p in present]
    assert_fits(pairs, uniform(product(SEQUENCE_COLORS, "ABC")), "first wire's colour × letter")
    assert_fits(
        ((p[-1].color, p[-1].end_position_letter) for p in present),
        uniform(product(SEQUENCE_COLORS, "ABC")),
        "last wire's colour × letter",
    )


# ---------------------------------------------------------------- 5.11 Password


def test_password_goal_and_columns() -> None:
    """exactly one word of the list can be spelled (the goal), 6 distinct letters per
    column [M/TP]; the goal uniform over the 35, each column shuffled (the goal letter's place
    uniform) and showing a uniformly random letter at the start — ktanesim's algorithm [SIM],
    the engine's assumption (``PasswordGeneration``)."""
    words = V1.password.words
    assert len(words) == 35
    goals, places, shown = [], [], []
    for engine in engines("Password"):
        assert isinstance(engine, PasswordEngine)
        columns = engine.columns
        assert len(columns) == 5
        assert all(len(c) == 6 and len(set(c)) == 6 and c.isupper() for c in columns), columns
        assert candidates(columns, V1.password) == [engine.goal]
        state = engine.export(0.0, in_focus=False)
        assert state.goal_word == engine.goal
        assert all(letter in col for letter, col in zip(state.current_word, columns, strict=True))
        goals.append(engine.goal)
        places.append(columns[0].index(engine.goal[0]))
        shown.append(tuple(engine.shown[:2]))
    assert_fits(goals, uniform(words), "goal word")
    assert_fits(places, uniform(range(6)), "goal letter's place in column 1")
    assert_fits(shown, uniform(product(range(6), repeat=2)), "letters shown in columns 1–2")


# ---------------------------------------------------------------- power


def test_the_checks_have_power() -> None:
    """The checks above can fail: at N = 5,000 they reject two plausible mistakes — wire counts
    uniform over 3–6, and Complicated Wires kinds ignoring the fix-up on the PLAIN bomb."""
    modules: list[WiresModule] = states("Wires")
    counts = Counter(sum(w is not None for w in m.wires) for m in modules)
    assert fit_p(counts, uniform((3, 4, 5, 6))) < ALPHA
    venn: list[VennModule] = states("Venn")
    firsts: Counter[tuple[str, bool, bool]] = Counter()
    for m in venn:
        w = next(w for w in m.wires if w is not None)
        firsts[(w.color, w.is_led_on, w.has_star)] += 1
    assert fit_p(firsts, uniform(KINDS)) < ALPHA
    assert fit_p(firsts, _venn_kind_p(PLAIN)) >= ALPHA
