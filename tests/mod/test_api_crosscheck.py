"""Our mod's use of the game's assemblies against GPTNT's compiled mod, which runs in the real game.

GPTNT's ``TwitchPlaysAssembly.dll`` (``../shared/fixtures/gptnt-mod/``, MIT) was compiled against
the real ``Assembly-CSharp``, ``KMFramework`` and ``UnityEngine``: every member its IL references
exists there with that kind (field, property accessor, method) and signature, and its string
literals are the names it looks up by reflection. ``mod/build/api-refs.exe`` (Mono.Cecil) lists
both assemblies' references; this test fails on any member of ours whose kind or signature
differs from GPTNT's, and holds the members it cannot confirm to the list in ``docs/mod.md``
(what only the game can confirm). Skipped where Mono, Mono.Cecil or the fixture is absent.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("GPTNT_SHARED_DIR", REPO.parent / "shared"))
GPTNT_MOD = SHARED / "fixtures" / "gptnt-mod" / "TwitchPlaysAssembly.dll"
DOC = REPO / "docs" / "mod.md"
ACCESSORS = ("get_", "set_", "add_", "remove_")


@dataclass(frozen=True)
class Ref:
    """One member of the game's assemblies that a compiled mod references."""

    owner: str  # the declaring type, nested types as Outer/Inner
    member: str  # as in IL: get_X for a property getter, .ctor for a constructor
    kind: str  # field | method
    signature: str  # a field's type, or "instance|static <return>(<parameters>)"

    @property
    def name(self) -> str:
        """``Owner.member`` as the lists print it."""
        return f"{self.owner}.{self.member}"


@dataclass(frozen=True)
class Listing:
    """What ``api-refs.exe`` prints for one assembly."""

    refs: frozenset[Ref]
    types: frozenset[str]
    strings: frozenset[str]
    reflected: tuple[tuple[str, ...], ...]  # (Reflect method, literal arguments...) per call
    near: frozenset[tuple[str, str]] = frozenset()
    """(literal, type's short name): the literal and the type in one method body."""


def parse(text: str) -> Listing:
    refs, types, strings, reflected, near = set(), set(), set(), [], set()
    for line in text.splitlines():
        fields = line.split("\t")
        if fields[0] == "ref":
            refs.add(Ref(*fields[2:6]))
        elif fields[0] == "type":
            types.add(fields[2])
        elif fields[0] == "str":
            strings.add(fields[1])
        elif fields[0] == "reflect":
            reflected.append(tuple(fields[1:]))
        elif fields[0] == "near":
            near.add((fields[1], short_type(fields[2])))
    return Listing(frozenset(refs), frozenset(types), frozenset(strings), tuple(reflected),
                   frozenset(near))  # fmt: skip


def short_type(name: str) -> str:
    """A type's own name without namespace or enclosing type (``Assets.X/Y`` and ``X+Y`` → Y)."""
    return re.split(r"[./+]", name)[-1]


def _property(member: str) -> str | None:
    return next((member[len(p) :] for p in ACCESSORS if member.startswith(p)), None)


def _accessor_type(ref: Ref) -> str:
    """A property's type from either accessor: the getter's return, the setter's parameter."""
    returns, parameters = re.fullmatch(r"\w+ (.*?)\((.*)\)", ref.signature).groups()
    return returns if ref.member.startswith("get_") else parameters


def compare(ours: frozenset[Ref], theirs: frozenset[Ref]) -> tuple[list[str], list[str]]:
    """(differences, unconfirmed): a difference is a member GPTNT's IL shows with another kind or
    signature; unconfirmed is one its IL does not show at all (or only the other accessor)."""
    by_name: dict[tuple[str, str], set[Ref]] = {}
    for ref in theirs:
        by_name.setdefault((ref.owner, ref.member), set()).add(ref)
    differences, unconfirmed = [], []
    for ref in sorted(ours, key=lambda r: (r.owner, r.member, r.signature)):
        same = by_name.get((ref.owner, ref.member), set())
        prop = _property(ref.member)
        if same:
            if ref not in same:
                seen = "; ".join(sorted(f"{r.kind} {r.signature}" for r in same))
                differences.append(f"{ref.name}: ours {ref.kind} {ref.signature}, GPTNT's {seen}")
            continue
        if prop is not None and (ref.owner, prop) in by_name:
            field = next(iter(by_name[(ref.owner, prop)]))
            differences.append(f"{ref.name}: ours a property, GPTNT's a field {field.signature}")
            continue
        if prop is None and ref.kind == "field":
            accessors = [by_name.get((ref.owner, p + ref.member)) for p in ("get_", "set_")]
            if any(accessors):
                differences.append(f"{ref.name}: ours a field, GPTNT's a property")
                continue
        if prop is not None and ref.member.startswith(("get_", "set_")):
            other = ("set_" if ref.member.startswith("get_") else "get_") + prop
            seen = by_name.get((ref.owner, other), set())
            if seen and {_accessor_type(r) for r in seen} != {_accessor_type(ref)}:
                differences.append(f"{ref.name}: ours of type {_accessor_type(ref)}, GPTNT's not")
                continue
            if seen:
                unconfirmed.append(f"{ref.name} (only {other} is referenced, same type)")
                continue
        unconfirmed.append(ref.name)
    return differences, unconfirmed


def documented_unconfirmed() -> list[str]:
    """The bullet list under "Not referenced by GPTNT's mod" in docs/mod.md, in order."""
    text = DOC.read_text()
    section = text.split("### Not referenced by GPTNT's mod", 1)[1].split("\n#", 1)[0]
    return re.findall(r"^- `([^`]+)`", section, flags=re.MULTILINE)


def test_compare_tells_kind_and_signature_differences_from_unknowns() -> None:
    theirs = frozenset(
        {
            Ref("BombComponent", "IsSolved", "field", "System.Boolean"),
            Ref("Selectable", "HandleDeselect", "method", "instance System.Void(class Selectable)"),
            Ref("Camera", "set_clearFlags", "method", "instance System.Void(valuetype Flags)"),
            Ref("Selectable", "Parent", "field", "class Selectable"),
        }
    )
    ours = frozenset(
        {
            Ref("BombComponent", "get_IsSolved", "method", "instance System.Boolean()"),
            Ref("Selectable", "HandleDeselect", "method", "instance System.Void()"),
            Ref("Camera", "get_clearFlags", "method", "instance valuetype Flags()"),
            Ref("Selectable", "Parent", "field", "class Selectable"),
            Ref("Shader", "Find", "method", "static class Shader(System.String)"),
        }
    )
    differences, unconfirmed = compare(ours, theirs)
    assert [d.split(":")[0] for d in differences] == [
        "BombComponent.get_IsSolved",
        "Selectable.HandleDeselect",
    ]
    assert unconfirmed == ["Camera.get_clearFlags (only set_clearFlags is referenced, same type)",
                           "Shader.Find"]  # fmt: skip


@pytest.fixture(scope="module")
def listings(built: Path) -> tuple[Listing, Listing]:
    if not GPTNT_MOD.is_file():
        pytest.skip(f"{GPTNT_MOD.relative_to(SHARED.parent)} is absent")
    tool = built / "api-refs.exe"
    if not tool.is_file():
        pytest.skip(
            "api-refs.exe was not built: Mono.Cecil is missing (apt-get install mono-devel)"
        )

    def run(assembly: Path) -> Listing:
        result = subprocess.run(
            ["mono", str(tool), str(assembly)],
            check=True, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        return parse(result.stdout)

    return run(GPTNT_MOD), run(built / "GptntMod.dll")


def test_every_game_member_we_use_has_gptnts_kind_and_signature(listings) -> None:
    theirs, ours = listings
    assert len(ours.refs) > 50 and len(theirs.refs) > 500  # both listings are real
    differences, unconfirmed = compare(ours.refs, theirs.refs)
    assert differences == [], "\n".join(differences)
    types = sorted(ours.types - theirs.types)
    assert unconfirmed + [f"type {t}" for t in types] == documented_unconfirmed(), (
        "docs/mod.md lists other unconfirmed members than the IL shows:\n"
        + "\n".join(unconfirmed + [f"type {t}" for t in types])
    )


def _evidence_for(owner: str, name: str) -> bool:
    """A ``Reflect.*("owner", "name")`` declaration in mod/src/Unity whose comment just above
    starts with ``// evidence:``."""
    needle = f'"{owner}", "{name}")'
    for path in sorted((REPO / "mod" / "src" / "Unity").glob("*.cs")):
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines):
            if needle not in line:
                continue
            above = number - 1
            while above >= 0 and lines[above].strip().startswith("//"):
                if lines[above].strip().startswith("// evidence:"):
                    return True
                above -= 1
    return False


def reflected_verdicts(ours: Listing, theirs: Listing) -> dict[str, str]:
    """Each member our adapter reads by name → how it is confirmed: ``member`` (GPTNT's IL
    references it with that kind), ``string`` (GPTNT looks the name up by reflection too: the
    literal in a method body that also has the owner type at hand, never a literal anywhere —
    GPTNT's mod holds words such as ``Color`` and ``Text`` for other things),
    ``evidence`` (a comment names other evidence) or ``unconfirmed``."""
    kinds = {"Field": ("field", ""), "Property": ("method", "get_"), "Method": ("method", "")}
    referenced = {(r.owner, r.member, r.kind) for r in theirs.refs}
    verdicts = {}
    for call in ours.reflected:
        method, owner, name = call
        kind, prefix = kinds[method]
        cecil_owner = owner.replace("+", "/")
        setter = (cecil_owner, "set_" + name, kind) if prefix else None
        if (cecil_owner, prefix + name, kind) in referenced or setter in referenced:
            verdicts[f"{owner}.{name}"] = "member"
        elif (name, short_type(owner)) in theirs.near:  # looked up where that type is at hand
            verdicts[f"{owner}.{name}"] = "string"
        elif _evidence_for(owner, name):
            verdicts[f"{owner}.{name}"] = "evidence"
        else:
            verdicts[f"{owner}.{name}"] = "unconfirmed"
    return verdicts


def test_every_name_we_read_by_reflection_is_confirmed_or_justified(listings) -> None:
    theirs, ours = listings
    verdicts = reflected_verdicts(ours, theirs)
    assert len(verdicts) > 40, verdicts  # the state readers' members are all seen
    assert {"WireSetComponent.wires", "SnippableWire.GetColor", "PortWidget.presentPorts"} <= set(
        verdicts
    )
    unconfirmed = sorted(name for name, verdict in verdicts.items() if verdict == "unconfirmed")
    assert unconfirmed == [], (
        "read by name, but neither in GPTNT's mod nor justified:\n" + "\n".join(unconfirmed)
    )


def test_a_string_confirms_a_name_only_on_the_type_it_is_looked_up_on() -> None:
    """``SnippableWire.Color`` was a wrong name (the colour is ``GetColor()``), yet GPTNT's mod
    holds the literal ``Color`` elsewhere: a bare string must not confirm it."""
    theirs = Listing(frozenset(), frozenset(), frozenset({"Color", "presentPorts"}), (),
                     frozenset({("presentPorts", "PortWidget"), ("Color", "Material")}))  # fmt: skip
    ours = Listing(frozenset(), frozenset(), frozenset(), (
        ("Field", "SnippableWire", "Color"), ("Field", "PortWidget", "presentPorts")))  # fmt: skip
    assert reflected_verdicts(ours, theirs) == {"SnippableWire.Color": "unconfirmed",
                                                "PortWidget.presentPorts": "string"}  # fmt: skip


def test_evidence_is_a_comment_right_above_the_declaration() -> None:
    assert _evidence_for("BombComponent", "HandlePass")  # commented in UnityGame.Members
    assert not _evidence_for("WireSetComponent", "wires")  # confirmed by GPTNT's IL instead
