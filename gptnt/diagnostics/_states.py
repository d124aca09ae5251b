"""Module states worth asking about: generated bombs played part-way by the oracle.

A ``Situation`` is what an Expert would be told about one module at one moment: the module's
exported state, the edgework, the strikes so far and the module's history (Memory's earlier
presses; Password's column letters, which its exported state does not carry). Situations come
from the simulator's own generator (``Bomb.generate``), so their distribution is the game's,
and later stages are reached by carrying out the oracle's steps on the live bomb.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from gptnt.protocol import ModuleState
from gptnt.rules import Edgework, Step, oracle
from gptnt.rules.ruleset import Ruleset
from gptnt.sim.bomb import Bomb, BombSpec
from gptnt.sim.modules.password import PasswordEngine
from gptnt.sim.selfcheck import Hands, StepFailed


@dataclass(frozen=True)
class Situation:
    module: ModuleState
    edgework: Edgework
    strikes: int
    history: tuple[object, ...]
    seed: int
    hands: Hands = field(repr=False, compare=False)
    """The live bomb at this moment, for trying an option's steps on a copy."""

    def outcome(self, steps: Sequence[Step]) -> tuple[int, str] | None:
        """What carrying out ``steps`` on a copy of the bomb leads to: (strikes added, the
        module's exported state after), or ``None`` when a step cannot be carried out."""
        twin = copy.deepcopy(self.hands, memo={id(self.hands.bomb.rules): self.hands.bomb.rules})
        before = twin.bomb.strike_count
        try:
            for step in steps:
                twin.do(step)
                if twin.bomb.strike_count != before:
                    break
            twin.settle()
        except StepFailed:
            return None
        after = twin.engine.export(twin.bomb.now, in_focus=True)
        return twin.bomb.strike_count - before, after.model_dump_json()

    def solve(
        self, rules: Ruleset, *, strikes: int | None = None, edgework: Edgework | None = None
    ) -> list[Step]:
        """The oracle's steps here, optionally with other strikes or edgework."""
        return oracle.solve(
            self.module,
            edgework or self.edgework,
            rules,
            self.strikes if strikes is None else strikes,
            history=self.oracle_history,
        )

    @property
    def oracle_history(self) -> tuple[object, ...]:
        """The history the oracle takes: Memory's earlier presses (``history`` holds Password's
        column letters instead, for the description)."""
        return self.history if self.module.name == "Memory" else ()


def situations(kind: str, rules: Ruleset, rng: random.Random) -> Iterator[Situation]:
    """An endless stream of situations of one module kind, each from a fresh bomb."""
    while True:
        seed = rng.randrange(1 << 30)
        bomb = Bomb.generate(
            BombSpec(
                seed=seed,
                components=(kind,),
                time_limit=600.0,
                opt_widgets=rng.randrange(0, 7),
                front_only=True,
            ),
            rules,
        )
        engine = bomb.modules[0]
        hands = Hands(bomb, engine)
        strikes = rng.choice((0, 0, 0, 1, 2))
        for _ in range(strikes):
            bomb.strike(engine.kind)
        depth = rng.randrange(0, 5)
        try:
            for _ in range(depth):
                hands.settle()
                state = engine.export(bomb.now, in_focus=True)
                steps = oracle.solve(
                    state, bomb.edgework, rules, bomb.strike_count, history=hands.history
                )
                if not steps:
                    break
                step = steps[0]
                if step.kind == "hold" and rng.random() < 0.5:
                    hands.do(step)  # The Button held: its strip is lit now
                    break
                if step.kind != "press":
                    break
                hands.history = oracle.record(state, step, hands.history)
                hands.do(step)
                if engine.solved or bomb.outcome is not None:
                    break
            hands.settle()
        except StepFailed:
            continue
        if engine.solved or bomb.outcome is not None:
            continue
        state = engine.export(bomb.now, in_focus=True)
        if getattr(state, "is_emerged", True) is False:
            continue
        history: tuple[object, ...] = tuple(hands.history)
        if isinstance(engine, PasswordEngine):
            history = (tuple(tuple(col) for col in engine.columns),)
        yield Situation(state, bomb.edgework, bomb.strike_count, history, seed, hands)
