"""The Ruleset: every table of the manual as data, one value per rule seed.

The module engines of the simulator, the oracle solver and the manual builder all read the same
``Ruleset``, so a different rule seed changes game, oracle and manual together. Each module's
tables, element names and solver live in ``gptnt.rules.modules.<module>``; the rule-seed
generators in ``gptnt.rules.ruleseed``; this file gathers them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from gptnt.errors import ConfigError
from gptnt.rules.modules import (
    big_button,
    keypad,
    maze,
    memory,
    morse,
    password,
    simon,
    venn,
    whos_on_first,
    wire_sequence,
    wires,
)
from gptnt.rules.modules.morse import MorseRules
from gptnt.rules.modules.password import PasswordRules

if TYPE_CHECKING:
    from gptnt.rules.ruleseed import WordPools

# Ruleset fields the word pools feed, and the module kind each belongs to.
POOLED_KINDS = {"morse": "Morse", "password": "Password"}


@dataclass(frozen=True)
class Ruleset:
    """All rule tables of one manual. ``rule_seed`` 1 is the original v1 manual.

    ``morse`` and ``password`` are None for a seed other than 1 generated without the word
    pools: such a ruleset serves every other module, and ``require`` refuses the two.
    """

    rule_seed: int
    wires: wires.WiresRules
    big_button: big_button.ButtonRules
    keypad: keypad.KeypadRules
    simon: simon.SimonRules
    whos_on_first: whos_on_first.WhosOnFirstRules
    memory: memory.MemoryRules
    morse: morse.MorseRules | None
    venn: venn.VennRules
    wire_sequence: wire_sequence.WireSequenceRules
    maze: maze.MazeRules
    password: password.PasswordRules | None

    @classmethod
    def from_seed(cls, seed: int, pools: WordPools | None = None) -> Ruleset:
        """The tables of rule seed ``seed``: the v1 manual for 1, else the generators' output
        (Morse and Password only with ``pools``)."""
        from gptnt.rules.ruleseed import GENERATORS, POOLED, MonoRandom

        if seed == 1:
            return V1
        tables: dict[str, object] = {s: g(MonoRandom(seed)) for s, g in GENERATORS.items()}
        for stem, generate in POOLED.items():
            tables[stem] = None if pools is None else generate(MonoRandom(seed), pools)
        # each value is the table type of its field: GENERATORS and POOLED are keyed by field
        return cls(rule_seed=seed, **tables)  # type: ignore[arg-type]

    @property
    def missing(self) -> tuple[str, ...]:
        """The module kinds this ruleset has no tables for (it was made without the pools)."""
        return tuple(kind for stem, kind in POOLED_KINDS.items() if getattr(self, stem) is None)

    @property
    def identity(self) -> str:
        """``rule-seed-N:<digest of every table>``: equal iff the tables are equal."""
        text = repr(tuple(getattr(self, f.name) for f in fields(self)))
        return f"rule-seed-{self.rule_seed}:{hashlib.sha256(text.encode()).hexdigest()[:16]}"

    def require(self, kinds: Iterable[str]) -> None:
        """Refuse, in one line, module kinds whose tables this ruleset lacks."""
        from gptnt.rules.ruleseed import HOW_TO

        lacking = sorted(set(kinds) & set(self.missing))
        if lacking:
            raise ConfigError(
                f"rule_seed={self.rule_seed}: {' and '.join(lacking)} "
                f"{'needs' if len(lacking) == 1 else 'need'} the rule-seed word pools; {HOW_TO}"
            )

    @property
    def morse_rules(self) -> MorseRules:
        """``morse``, refusing (ConfigError) a ruleset made without the word pools."""
        if self.morse is None:
            self.require(["Morse"])
            raise AssertionError("require refuses Morse here")
        return self.morse

    @property
    def password_rules(self) -> PasswordRules:
        """``password``, refusing (ConfigError) a ruleset made without the word pools."""
        if self.password is None:
            self.require(["Password"])
            raise AssertionError("require refuses Password here")
        return self.password


V1 = Ruleset(
    rule_seed=1,
    wires=wires.V1,
    big_button=big_button.V1,
    keypad=keypad.V1,
    simon=simon.V1,
    whos_on_first=whos_on_first.V1,
    memory=memory.V1,
    morse=morse.V1,
    venn=venn.V1,
    wire_sequence=wire_sequence.V1,
    maze=maze.V1,
    password=password.V1,
)


def ruleset(rule_seed: int = 1, *, pools: Path | None = None) -> Ruleset:
    """The ruleset of a rule seed, with the word pools in force (``pools``, else
    ``GPTNT_RULESEED_POOLS``, else the imported copy; see ``gptnt.rules.ruleseed``)."""
    if rule_seed == 1:
        return V1
    from gptnt.rules.ruleseed import locate

    path = locate(pools)
    return _generated(rule_seed, None if path is None else str(path.resolve()))


@lru_cache(maxsize=8)
def _generated(rule_seed: int, pools_path: str | None) -> Ruleset:
    from gptnt.rules.ruleseed import read_pools

    pools = None if pools_path is None else read_pools(Path(pools_path))
    return Ruleset.from_seed(rule_seed, pools)
