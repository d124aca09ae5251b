"""The generated datasets: sizes, determinism, and one right option checked by the ruleset."""

from __future__ import annotations

import dataclasses
import filecmp
import os
import subprocess
import sys
from pathlib import Path

from pydantic import TypeAdapter

from gptnt.diagnostics import PAPER_COUNTS, build_datasets, read_dataset
from gptnt.diagnostics._build import scaled_counts
from gptnt.diagnostics._words import say
from gptnt.diagnostics.manual_vqa import ASK_PREFIX, IMPOSSIBLE, edgework_variants
from gptnt.protocol import ModuleState
from gptnt.rules import Edgework, Indicator, oracle
from gptnt.rules.modules import password as password_rules
from gptnt.rules.modules.memory import MemoryPress
from gptnt.rules.ruleset import V1

_MODULE = TypeAdapter(ModuleState)


def _situation(truth: dict) -> tuple[ModuleState, Edgework, int, tuple]:
    module = _MODULE.validate_python(truth["module"])
    e = truth["edgework"]
    edgework = Edgework(
        serial=e["serial"],
        battery_holders=tuple(e["battery_holders"]),
        indicators=tuple(Indicator(**i) for i in e["indicators"]),
        port_plates=tuple(tuple(p) for p in e["port_plates"]),
    )
    history = tuple(MemoryPress(**h) if isinstance(h, dict) else h for h in truth["history"])
    return module, edgework, truth["strikes"], history


def test_every_category_has_its_share(datasets: dict[str, Path]) -> None:
    for task, folder in datasets.items():
        manifest, questions = read_dataset(folder)
        assert manifest.written == manifest.counts, task
        assert set(manifest.counts) == set(PAPER_COUNTS[task])  # type: ignore[index]
        assert len({q.id for q in questions}) == len(questions)
        for q in questions:
            if q.options:
                assert 2 <= len(q.options) <= 8 and len(set(q.options)) == len(q.options), q.id


def test_default_sizes_are_the_papers() -> None:
    assert sum(scaled_counts("manual_vqa", None).values()) == 884
    assert sum(scaled_counts("sim_vqa", None).values()) == 640
    assert sum(scaled_counts("localisation", None).values()) == 665
    assert scaled_counts("manual_vqa", None)["procedural"] == 499


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    kinds = ("Wires", "Memory")
    for out in (tmp_path / "a", tmp_path / "b"):
        build_datasets(("manual_vqa", "localisation"), out, V1, seed=11, n=30, modules=kinds, cap=2)
    a, b = sorted((tmp_path / "a").iterdir()), sorted((tmp_path / "b").iterdir())
    assert [p.name for p in a] == [p.name for p in b]
    for x, y in zip(a, b, strict=True):
        files = sorted(p.relative_to(x) for p in x.rglob("*") if p.is_file())
        assert files == sorted(p.relative_to(y) for p in y.rglob("*") if p.is_file())
        _, mismatch, errors = filecmp.cmpfiles(x, y, [str(f) for f in files], shallow=False)
        assert not mismatch and not errors


def test_n_is_exact() -> None:
    for task in PAPER_COUNTS:
        for n in (1, 5, 30, 60, 61, 99, 250):
            counts = scaled_counts(task, n)  # type: ignore[arg-type]
            assert sum(counts.values()) == n, (task, n, counts)
            if n >= len(counts):
                assert min(counts.values()) >= 1


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_two_processes_with_other_hash_seeds_build_the_same_bytes(tmp_path: Path) -> None:
    """The dataset's name promises identity: fresh processes (another ``PYTHONHASHSEED``, so
    another set order) must write the same questions and images."""
    built = []
    for hash_seed in ("1", "2"):
        out = tmp_path / hash_seed
        argv = [str(Path(sys.executable).with_name("gptnt")), "diag", "build", "--out", str(out),
                "--task", "localisation", "--task", "manual_vqa", "--n", "40", "--seed", "3",
                "--module", "Wires", "--module", "Complicated Wires", "--module", "Keypad"]  # fmt: skip
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=600, env=env, check=False
        )
        assert done.returncode == 0, done.stderr
        built.append(out)
    a, b = (_files(out) for out in built)
    assert a.keys() == b.keys() and len(a) > 4
    assert [k for k in a if a[k] != b[k]] == []


def test_other_seed_other_dataset(tmp_path: Path) -> None:
    one = build_datasets(("manual_vqa",), tmp_path, V1, seed=1, n=20, modules=("Wires",))
    two = build_datasets(("manual_vqa",), tmp_path, V1, seed=2, n=20, modules=("Wires",))
    assert one[0].name != two[0].name
    assert read_dataset(one[0])[1] != read_dataset(two[0])[1]


def test_procedural_answer_is_the_rulesets_and_only_one(datasets: dict[str, Path]) -> None:
    _, questions = read_dataset(datasets["manual_vqa"])
    checked = 0
    for q in questions:
        if q.category != "procedural":
            continue
        module, edgework, strikes, history = _situation(q.truth)
        if module.name == "Password":
            columns = ["".join(c) for c in history[0]]
            (goal,) = password_rules.candidates(columns, V1.password)
            right = f"Submit the password {goal}."
        else:
            steps = oracle.solve(
                module, edgework, V1, strikes, history=history if module.name == "Memory" else ()
            )
            right = say(module, steps, V1)
        assert q.options[q.answer] == right, q.id
        assert q.options.count(right) == 1
        checked += 1
    assert checked >= 50


def test_ambiguity_questions_are_truly_ambiguous(datasets: dict[str, Path]) -> None:
    _, questions = read_dataset(datasets["manual_vqa"])
    ambiguous = [q for q in questions if q.category == "ambiguity"]
    assert ambiguous
    for q in ambiguous:
        module, edgework, strikes, history = _situation(q.truth)
        fact = q.truth["hidden"]
        assert q.options[q.answer].startswith(ASK_PREFIX)
        answers = {
            say(
                module,
                oracle.solve(module, e, V1, s, history=history if module.name == "Memory" else ()),
                V1,
            )
            for e, s in edgework_variants(edgework, strikes, fact)
        }
        assert len(answers) >= 2, q.id
        hidden_words = {"serial": edgework.serial, "strikes": "strike"}
        if fact in hidden_words:
            assert hidden_words[fact] not in q.prompt.split("(The Defuser")[0]


def test_hallucinations_cannot_occur(datasets: dict[str, Path]) -> None:
    _, questions = read_dataset(datasets["manual_vqa"])
    impossible_words = (
        "green",
        "orange",
        "purple",
        "EXPLODE",
        "STOP",
        "ARM",
        " to D",
        "shows 0",
        "shows 5",
        "shows 7",
        "MAYBE",
        "WAIT NO",
        "CLOCK",
        "DONE!",
    )
    halluc = [q for q in questions if q.category == "hallucination"]
    assert halluc
    mazes = {frozenset(m.circles) for m in V1.maze.mazes}
    for q in halluc:
        assert q.options[q.answer] == IMPOSSIBLE
        text = q.truth["description"]
        if q.module in ("Morse", "Maze", "Keypad", "Password"):
            assert text != q.prompt  # checked by their generators against the ruleset
            continue
        assert any(w in text for w in impossible_words), (q.id, text)
    assert mazes  # the maze table is there to check against


def test_localisation_targets_are_on_screen(datasets: dict[str, Path]) -> None:
    _, questions = read_dataset(datasets["localisation"])
    for q in questions:
        assert q.target is not None and set(q.images) == {"frame", "marked", "mask"}
        if q.category in ("ambiguity", "hallucination"):
            assert q.target.label is None
        else:
            assert q.target.label in q.target.labels and q.target.mask_colour is not None


def test_seed_and_ruleset_are_in_the_manifest(datasets: dict[str, Path]) -> None:
    manifest, _ = read_dataset(datasets["sim_vqa"])
    assert (manifest.seed, manifest.rule_seed) == (7, 1)
    assert manifest.identity == datasets["sim_vqa"].name
    assert dataclasses.is_dataclass(V1)


def test_oracle_trajectories_hold_and_release_the_button() -> None:
    from gptnt.diagnostics._frames import collect

    shots = collect(("BigButton",), V1, 2, cap=10)["BigButton"]
    assert any(s.module.is_held and s.module.strip_color for s in shots)
    assert {s.source for s in shots} == {"oracle", "random"}
