"""Morse Code under a rule seed: 16 of the 21 frequencies, 8 base words from the pool and, for
each base, 1–3 pool words that look like it (smallest edit distance over the rotations)."""

from __future__ import annotations

from collections import Counter

from gptnt.rules.modules import morse
from gptnt.rules.ruleseed._random import MonoRandom

FREQUENCIES = (502, 505, 512, 515, 522, 525, 532, 535, 542, 545, 552, 555, 562, 565, 572, 575,
               582, 585, 592, 595, 600)  # fmt: skip
WORDS = 16


def levenshtein(a: str, b: str, limit: int = 1 << 30) -> int:
    """Edit distance with unit costs; any value above ``limit`` comes back as ``limit + 1``."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return min(previous[-1], limit + 1)


def _distance(candidate: str, base: str, limit: int) -> int:
    """The smallest edit distance from any rotation of ``candidate`` to ``base`` (capped)."""
    common = sum((Counter(candidate) & Counter(base)).values())
    if max(len(candidate), len(base)) - common > limit:  # a bound rotations cannot beat
        return limit + 1
    best = limit + 1
    for k in range(len(candidate)):
        best = min(best, levenshtein(candidate[k:] + candidate[:k], base, best - 1))
    return best


def _closest(candidates: list[str], preference: list[float], base: str, k: int) -> list[str]:
    """The ``k`` first candidates by (distance, preference, pool order); the distance is only
    computed as far as it can still matter (the result is that of a full sort)."""
    best: list[tuple[int, float, int]] = []
    for j, word in enumerate(candidates):
        limit = best[-1][0] if len(best) == k else 1 << 30
        entry = (_distance(word, base, limit), preference[j], j)
        if len(best) < k or entry < best[-1]:
            best = sorted([*best, entry])[:k]
    return [candidates[j] for _, _, j in best]


def generate(rng: MonoRandom, pool: tuple[str, ...]) -> morse.MorseRules:
    frequencies = rng.key_shuffle(FREQUENCIES)[:WORDS]
    words = rng.key_shuffle(pool)[:8]
    taken = set(words)
    for i in range(8):
        if len(words) >= WORDS:
            break
        base = words[i]
        suffix = base[1:]
        candidates = [w for w in pool if w not in taken and not w.endswith(suffix)]
        preference = [rng.draw() for _ in candidates]
        k = min(rng.next(1, 4), WORDS - len(words))
        for word in _closest(candidates, preference, base, k):
            words.append(word)
            taken.add(word)
    table = sorted(zip(words, frequencies, strict=True), key=lambda pair: pair[1])
    return morse.MorseRules(words=tuple(table), alphabet=morse.V1.alphabet)
