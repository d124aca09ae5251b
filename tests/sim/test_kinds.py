"""The module-kind registry (``gptnt.protocol._kinds``) is the one place a kind is declared.

Every layer finds its file of a kind by the row's stem and every per-kind table derives from
the row, so the coverage check below is all that stands between a new row and a kind the
simulator can spawn, the oracle can solve and the manual describes. A scratch 12th kind (not
shipped: one row here and its files written into a temporary directory) passes the same check,
and the C# mod is read to see that it lists exactly the registry's kinds.
"""

from __future__ import annotations

import importlib
import re
import sys
import textwrap
from pathlib import Path
from random import Random
from typing import get_args

import pytest
from _support import FakeBomb
from pydantic import TypeAdapter

import gptnt.manual.modules
import gptnt.rules.modules
import gptnt.sim.modules
import gptnt.sim.render.modules
from gptnt.errors import ConfigError
from gptnt.protocol import (
    KINDS,
    MODULE_KINDS,
    KindSpec,
    LabelPlacement,
    MarkColouring,
    ModuleKind,
    ModuleState,
    kind_spec,
    kind_title,
    module_kind,
)
from gptnt.rules._file import RuleFile
from gptnt.rules.ruleset import V1
from gptnt.sim.modules._base import ModuleEngine, Slot
from gptnt.vision._colours import COLOURING_BY_NAME, COLOURINGS, mask_colour
from gptnt.vision._layout import PLACEMENT_BY_NAME, PLACEMENTS

REPO = Path(__file__).resolve().parents[2]

# The four layers that keep one file per kind, by the registry row's stem.
LAYERS = {
    "rules": gptnt.rules.modules,
    "engine": gptnt.sim.modules,
    "drawer": gptnt.sim.render.modules,
    "section": gptnt.manual.modules,
}


def check_covered(spec: KindSpec) -> None:
    """Every layer has the kind's file with its interface, and the registry's facts resolve."""
    files = {
        layer: importlib.import_module(f"{pkg.__name__}.{spec.stem}")
        for layer, pkg in LAYERS.items()
    }
    rules = files["rules"]
    assert isinstance(rules, RuleFile), f"{spec.stem}: rule file lacks the RuleFile functions"
    tables = rules.tables(V1)
    engine_class = files["engine"].ENGINE
    assert issubclass(engine_class, ModuleEngine) and engine_class.kind == spec.name
    engine = engine_class.generate(Random(1), rules=V1, bomb=FakeBomb(), slot=Slot(True, 0))
    state = engine.export(0.0, in_focus=True)
    assert state.name == spec.name
    assert engine.elements() == rules.elements(state)
    steps = rules.solve(state, FakeBomb().edgework, tables, strikes=0, history=())
    assert all(rules.pressed(state, s) is None or spec.name == "Memory" for s in steps)
    assert callable(files["drawer"].look) and callable(files["drawer"].draw)
    section = files["section"].section(tables)
    assert section.title == spec.title and files["section"].LOOK
    assert spec.placement in PLACEMENT_BY_NAME and spec.colouring in COLOURING_BY_NAME


@pytest.mark.parametrize("spec", KINDS, ids=[k.name for k in KINDS])
def test_every_layer_covers_every_kind(spec: KindSpec) -> None:
    check_covered(spec)


def test_registry_is_the_wire_vocabulary() -> None:
    names = tuple(k.name for k in KINDS)
    assert names == MODULE_KINDS == get_args(ModuleKind)
    assert len({k.stem for k in KINDS}) == len(KINDS)
    union = get_args(get_args(ModuleState)[0])
    assert sorted(m.model_fields["name"].default for m in union) == sorted(names)
    # The tables derived from the registry hold every kind, and nothing else.
    assert set(PLACEMENTS) == set(names) | {None}
    assert set(PLACEMENT_BY_NAME) == set(get_args(LabelPlacement))
    assert set(COLOURING_BY_NAME) == set(get_args(MarkColouring))
    for spec in KINDS:
        assert COLOURINGS.get(spec.name, mask_colour) is COLOURING_BY_NAME[spec.colouring]


def test_a_state_of_every_kind_parses() -> None:
    adapter = TypeAdapter(ModuleState)
    for spec in KINDS:
        engine = importlib.import_module(f"gptnt.sim.modules.{spec.stem}").ENGINE
        state = engine.generate(Random(2), rules=V1, bomb=FakeBomb(), slot=Slot(True, 1)).export(
            0.0, in_focus=False
        )
        assert adapter.validate_python(state.to_wire()) == state


# ---------------------------------------------------------------- a scratch 12th kind

SCRATCH = KindSpec("Lamp", "scratch_lamp", "The Lamp", "Lamp", "corner", "rendered")
"""The only row a new kind needs; its four files below (rules, engine, drawer, manual section)
are all the rest of a kind the simulator spawns, the oracle solves and the manual describes."""

SCRATCH_FILES = {
    "rules": '''
        """Lamp: one button; press it once."""
        from __future__ import annotations
        from collections.abc import Sequence
        from dataclasses import dataclass
        from typing import Literal
        from gptnt.protocol import ModuleBase
        from gptnt.rules._file import no_history
        from gptnt.rules._steps import Press

        class LampModule(ModuleBase):
            name: Literal["Lamp"] = "Lamp"

        @dataclass(frozen=True)
        class LampRules:
            element: str = "lamp"

        V1 = LampRules()

        def tables(ruleset):
            return V1

        def elements(module):
            return ["lamp"]

        def solve(module, edgework, rules, *, strikes, history: Sequence[object] = ()):
            return [] if module.is_solved else [Press(rules.element)]

        def mistakes(module, edgework, rules, *, strikes, history: Sequence[object] = ()):
            return []

        pressed = no_history
    ''',
    "engine": """
        from __future__ import annotations
        from gptnt.rules.modules.scratch_lamp import LampModule
        from gptnt.sim.modules._base import ModuleEngine

        class LampEngine(ModuleEngine):
            kind = "Lamp"

            @classmethod
            def generate(cls, rng, *, rules, bomb, slot):
                return cls(rules=rules, bomb=bomb, slot=slot)

            def elements(self):
                return ["lamp"]

            def press(self, element, t):
                self.solved = True

            def export(self, t, *, in_focus):
                return LampModule(**self._common(in_focus))

        ENGINE = LampEngine
    """,
    "drawer": """
        def look(engine, t):
            return engine.solved

        def draw(engine, t):
            raise NotImplementedError("not drawn in this test")
    """,
    "section": """
        from gptnt.manual._layout import Heading, Paragraph, Section

        LOOK = "one round lamp"

        def section(rules):
            return Section("The Lamp", (Heading("Module: The Lamp"), Paragraph("Press it.")))
    """,
}


def test_a_scratch_kind_registers_with_one_row_and_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The files go beside the shipped ones: each layer package's search path is extended,
    # as pkgutil.extend_path does for plug-ins, so the stem resolves exactly as a shipped one.
    for layer, pkg in LAYERS.items():
        where = tmp_path / layer
        where.mkdir()
        (where / f"{SCRATCH.stem}.py").write_text(textwrap.dedent(SCRATCH_FILES[layer]))
        monkeypatch.setattr(pkg, "__path__", [*pkg.__path__, str(where)])
    try:
        check_covered(SCRATCH)
    finally:
        for pkg in LAYERS.values():
            sys.modules.pop(f"{pkg.__name__}.{SCRATCH.stem}", None)


def test_check_covered_sees_a_missing_file() -> None:
    with pytest.raises(ModuleNotFoundError):
        check_covered(KindSpec("Nowhere", "no_such_kind", "Nowhere", "Nowhere", "corner"))


# ---------------------------------------------------------------- the C# mod

MOD = REPO / "mod" / "src"


def _read(relative: str) -> str:
    return (MOD / relative).read_text(encoding="utf-8")


def test_the_mod_lists_the_registry_kinds() -> None:
    names = [k.name for k in KINDS]
    block = re.search(r"VanillaModules\s*=\s*\{([^}]*)\}", _read("Protocol/MissionConfig.cs"))
    assert block is not None
    assert re.findall(r'"(\w+)"', block.group(1)) == names
    listing = re.search(r"ListModules\(\)(.*?)\};", _read("Fake/FakeGame.cs"), re.DOTALL)
    assert listing is not None
    pairs = re.findall(r'\{\s*"(\w+)",\s*"([^"]+)"\s*\}', listing.group(1))
    assert sorted(pairs) == sorted((k.name, k.mod_title) for k in KINDS)
    readers = re.search(r"ByKind\s*=.*?\{(.*?)\};", _read("Unity/ModuleReaders.cs"), re.DOTALL)
    assert readers is not None
    assert sorted(re.findall(r'\{\s*"(\w+)",', readers.group(1))) == sorted(names)
    state_names = set(
        re.findall(r'Name \{ get \{ return "(\w+)"; \} \}', _read("Protocol/BombState.cs"))
    )
    assert set(names) <= state_names
    fake_cases = set(re.findall(r'case "(\w+)":', _read("Fake/FakeModule.cs")))
    assert set(names) <= fake_cases


def test_the_other_per_kind_tables_cover_every_kind() -> None:
    """Tables keyed by kind outside the four layers: the rule-seed generators (by stem) and the
    diagnostics' module describers (by wire name). A new row fails here until they cover it."""
    from gptnt.diagnostics._words import DESCRIBERS
    from gptnt.rules.ruleseed import GENERATORS, POOLED

    assert set(GENERATORS) | set(POOLED) == {k.stem for k in KINDS}
    assert set(DESCRIBERS) == {k.name for k in KINDS}


@pytest.mark.parametrize(
    ("typed", "wire"),
    [("The Button", "BigButton"), ("button", "BigButton"), ("BigButton", "BigButton"),
     ("big_button", "BigButton"), ("Complicated Wires", "Venn"), ("Who's on First", "WhosOnFirst"),
     ("whos on first", "WhosOnFirst"), ("Passwords", "Password"), ("Simon Says", "Simon"),
     ("Morse Code", "Morse"), ("wires", "Wires"), ("Wire Sequence", "WireSequence")],
)  # fmt: skip
def test_a_kind_is_named_by_any_of_its_names(typed: str, wire: str) -> None:
    assert module_kind(typed) == wire
    assert kind_title(typed) == kind_spec(wire).title


def test_an_unknown_kind_lists_the_paper_names() -> None:
    with pytest.raises(ConfigError, match=r"--module 'Buton' is unknown; use one of Wires, "
                       r"The Button \(BigButton\), .*Complicated Wires \(Venn\)"):  # fmt: skip
        module_kind("Buton", field="--module")
