"""Checks on the code itself: the layering of DESIGN.md §2 (import-linter, contracts in
pyproject.toml) and the linter."""

from __future__ import annotations

import ast
import gc
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(
    *argv: str, cwd: Path = REPO, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / argv[0]), *argv[1:]],
        check=False,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_import_contracts_are_kept(tmp_path: Path) -> None:
    """import-linter reads a package from one folder, so it is given the installed layout (the
    services/ folder as gptnt/services/, as setup.py installs it)."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "gptnt", tmp_path / "gptnt", ignore=ignore)
    shutil.copytree(REPO / "services", tmp_path / "gptnt" / "services", ignore=ignore)
    shutil.copy(REPO / "pyproject.toml", tmp_path)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = _run("lint-imports", "--no-cache", cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


def test_ruff_finds_nothing() -> None:
    result = _run("ruff", "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout[-3000:]


def test_no_contract_allows_indirect_imports() -> None:
    """A contract that allows indirect imports only checks what a package imports itself: the
    players could then reach the client through any module that imports it."""
    import tomllib

    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    assert contracts and not any(c.get("allow_indirect_imports") for c in contracts)


def _modules(*roots: str) -> list[tuple[str, ast.Module]]:
    """Every Python file under ``roots``, by repo-relative path, parsed.

    With the garbage collector paused: on Python 3.11 the AST converter keeps its depth count
    in global state, and a finalizer run by a collection in mid-parse (asyncio logging an
    exception nobody retrieved, whose traceback formatting parses source too) would make the
    parse fail with "AST constructor recursion depth mismatch"."""
    gc.disable()
    try:
        return [
            (path.relative_to(REPO).as_posix(), ast.parse(path.read_text(), str(path)))
            for root in roots
            for path in sorted((REPO / root).rglob("*.py"))
        ]
    finally:
        gc.enable()


def test_nothing_outside_the_protocol_imports_its_private_modules() -> None:
    """``gptnt.protocol``'s root exports the whole vocabulary; its ``_*`` modules are its own
    business, so a move inside the package never breaks an import elsewhere."""
    offenders = []
    for path, tree in _modules("gptnt", "services", "tests", "scripts"):
        if path.startswith("gptnt/protocol/"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            if any(name.startswith("gptnt.protocol._") for name in names):
                offenders.append(f"{path}:{node.lineno}")
    assert not offenders, offenders


# The shared words and the one module each is defined in (None: nowhere; say whose outcome).
VOCABULARY = {
    "Mode": "gptnt/protocol/_play.py",
    "Role": "gptnt/protocol/_play.py",
    "GameOutcome": "gptnt/protocol/_play.py",
    "EpisodeOutcome": "gptnt/records/_schema.py",
    "Outcome": None,
}


def _definitions(tree: ast.Module) -> list[tuple[str, bool]]:
    """(name, is a ``Literal`` alias) for each class and ``Literal`` alias at the top level."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            found.append((node.name, False))
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and "Literal[" in ast.unparse(node.value):
                found.append((target.id, True))
    return found


def test_no_vocabulary_is_defined_twice() -> None:
    """``Mode``, ``Role`` and the outcomes are defined only in their home module, and no two
    modules of the library or the services define a ``Literal`` alias of the same name (two
    vocabularies sharing a name, or one written twice)."""
    misplaced, aliases = [], defaultdict(list)
    for path, tree in _modules("gptnt", "services"):
        for name, is_alias in _definitions(tree):
            if name in VOCABULARY and VOCABULARY[name] != path:
                misplaced.append(f"{path}: {name}")
            if is_alias:
                aliases[name].append(path)
    assert not misplaced, misplaced
    twice = {name: paths for name, paths in aliases.items() if len(paths) > 1}
    assert not twice, twice


def test_the_shared_words_are_imported_from_the_protocol() -> None:
    """``Mode``, ``Role``, ``GameOutcome`` and their value lists reach every layer from
    ``gptnt.protocol`` itself, not re-exported by a package that happens to use them."""
    words = {"Mode", "Role", "GameOutcome", "MODES", "ROLES"}
    offenders = []
    for path, tree in _modules("gptnt", "services", "tests", "scripts"):
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or node.level or node.module is None:
                continue
            if node.module.startswith("gptnt.protocol"):
                continue
            names = words & {alias.name for alias in node.names}
            offenders += [f"{path}:{node.lineno}: {name} from {node.module}" for name in names]
    assert not offenders, offenders


def test_nothing_cites_the_write_ups_outside_the_repository() -> None:
    """A user has only the repository: code, tests, the mod and the docs state a fact in place or
    cite ``docs/`` (tests may still *read* ``../shared/fixtures``; that is not a citation)."""
    outside = ("shared/reference", "ktane-rules", "mod-protocol", "players.md §", "services.md §")
    offenders = []
    for root in ("gptnt", "services", "tests", "mod", "docs", "scripts"):
        for path in sorted((REPO / root).rglob("*")):
            if (
                path.suffix not in {".py", ".md", ".cs", ".shader", ".sh"}
                or path == Path(__file__).resolve()
            ):
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if any(name in line for name in outside):
                    offenders.append(f"{path.relative_to(REPO)}:{number}")
    assert not offenders, offenders
