"""The Ruleset: every table of the manual as data, one value per rule seed.

The module engines of the simulator, the oracle solver and the manual builder all read the same
``Ruleset``, so a different rule seed changes game, oracle and manual together. Each module's
tables, element names and solver live in ``gptnt.rules.modules.<module>``; this file only
gathers them.
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class Ruleset:
    """All rule tables of one manual. ``rule_seed`` 1 is the original v1 manual."""

    rule_seed: int
    wires: wires.WiresRules
    big_button: big_button.ButtonRules
    keypad: keypad.KeypadRules
    simon: simon.SimonRules
    whos_on_first: whos_on_first.WhosOnFirstRules
    memory: memory.MemoryRules
    morse: morse.MorseRules
    venn: venn.VennRules
    wire_sequence: wire_sequence.WireSequenceRules
    maze: maze.MazeRules
    password: password.PasswordRules


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

_BY_SEED = {1: V1}


def ruleset(rule_seed: int = 1) -> Ruleset:
    """The ruleset of a rule seed. Only seed 1 (the v1 manual) exists so far."""
    from gptnt.errors import ConfigError

    try:
        return _BY_SEED[rule_seed]
    except KeyError:
        raise ConfigError(
            f"rule_seed={rule_seed}: only rule seed 1 (the v1 manual) is implemented; "
            "use --rule-seed 1"
        ) from None
