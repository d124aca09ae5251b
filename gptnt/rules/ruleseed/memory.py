"""Memory under a rule seed: per stage and display, a weighted choice of what to press.

Solution ids: 0–3 a position, 4 a label, 5 the position of an earlier stage (stages 2 and 4),
6 the label of an earlier stage (stages 3 and 5). One weight map for all stages; from stage 4 on
the two "earlier stage" ids get their weight back before every pick.
"""

from __future__ import annotations

from gptnt.rules.modules import memory
from gptnt.rules.ruleseed._random import MonoRandom


def _choice(solution: int, label: int, stage: int) -> memory.Choice:
    if solution < 4:
        return memory.AtPosition(solution + 1)
    if solution == 4:
        return memory.WithLabel(label)
    if solution == 5:
        return memory.PositionOfStage(stage)
    return memory.LabelOfStage(stage)


def generate(rng: MonoRandom) -> memory.MemoryRules:
    weights: dict[int, float] = {}
    stages: list[tuple[memory.Choice, ...]] = []
    for i in range(5):
        row: list[memory.Choice] = []
        for _display in range(1, 5):
            label = rng.next(1, 5)
            earlier = rng.next(1, i + 1) if i > 0 else 0
            candidates = [0, 1, 2, 3, 4] + ([] if i == 0 else [5 if i % 2 else 6])
            if i > 2:
                weights[5] = weights[6] = 1.0
            solution = rng.weighted(candidates, weights, 0.05, key=lambda s: s)
            row.append(_choice(solution, label, earlier))
        stages.append(tuple(row))
    return memory.MemoryRules(stages=tuple(stages))
