"""Password under a rule seed: 17 base words from the pool and, for each, 1–4 pool words that
differ from it in the fewest positions, until 35."""

from __future__ import annotations

from gptnt.rules.modules import password
from gptnt.rules.ruleseed._random import MonoRandom

WORDS = 35


def generate(rng: MonoRandom, pool: tuple[str, ...]) -> password.PasswordRules:
    words = rng.key_shuffle(pool)[:17]
    taken = set(words)
    for i in range(17):
        if len(words) >= WORDS:
            break
        base = words[i]
        candidates = [w for w in pool if w not in taken]
        preference = [rng.draw() for _ in candidates]
        order = sorted(
            range(len(candidates)),
            key=lambda j: (sum(a != b for a, b in zip(candidates[j], base)), preference[j]),
        )
        k = rng.next(1, 5)
        for j in order[: min(k, WORDS - len(words))]:
            words.append(candidates[j])
            taken.add(candidates[j])
    return password.PasswordRules(words=tuple(sorted(w.upper() for w in words)))
