"""Checks on the code itself: the layering of the packages (import-linter, contracts in
pyproject.toml), the type checker and the linter."""

from __future__ import annotations

import ast
import gc
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(
    *argv: str, cwd: Path = REPO, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / argv[0]), *argv[1:]],
        check=False,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _lay_out_installed(folder: Path) -> None:
    """The package as setup.py installs it, in ``folder``: services/ as gptnt/services/."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "gptnt", folder / "gptnt", ignore=ignore)
    shutil.copytree(REPO / "services", folder / "gptnt" / "services", ignore=ignore)


def test_import_contracts_are_kept(tmp_path: Path) -> None:
    """import-linter reads a package from one folder, so it is given the installed layout (the
    services/ folder as gptnt/services/, as setup.py installs it)."""
    _lay_out_installed(tmp_path)
    shutil.copy(REPO / "pyproject.toml", tmp_path)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = _run("lint-imports", "--no-cache", cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


@pytest.mark.timeout(1200)  # a cold cache on a loaded machine: minutes; warm: seconds
def test_the_types_check(tmp_path: Path) -> None:
    """mypy (its settings in pyproject.toml: the pydantic plugin, unused ``type: ignore``s
    reported) over the library as installed: like import-linter it needs services/ inside
    gptnt/. Its cache is kept in .mypy_cache, so a rerun checks only what changed."""
    _lay_out_installed(tmp_path)
    cache = str(REPO / ".mypy_cache")
    config = str(REPO / "pyproject.toml")
    argv = ("--config-file", config, "--cache-dir", cache, "gptnt")
    result = _run("mypy", *argv, cwd=tmp_path, timeout=1100)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def test_ruff_finds_nothing() -> None:
    result = _run("ruff", "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout[-3000:]


def test_the_code_is_formatted() -> None:
    result = _run("ruff", "format", "--check", "--no-cache", ".")
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


def _package(path: str) -> str | None:
    """The package a file belongs to: ``gptnt.<x>`` or ``gptnt.services.<x>`` (the services/
    folder is installed as ``gptnt.services``); a unit test under ``tests/<x>/`` belongs to the
    package it tests; scripts and other tests to none."""
    parts = path.removesuffix(".py").split("/")
    if parts[0] == "services":
        parts = ["gptnt", *parts]
    if parts[0] == "tests" and len(parts) > 2:
        return f"gptnt.{parts[1]}"
    if parts[0] != "gptnt" or len(parts) < 3:
        return None
    return ".".join(parts[:3] if parts[1] == "services" else parts[:2])


def _private_owner(module: str) -> str | None:
    """The package whose private module ``module`` is (``gptnt.rules._steps`` →
    ``gptnt.rules``), or None for a public one."""
    parts = module.split(".")
    for i, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            return ".".join(parts[:i])
    return None


# A test that checks one registry row across packages reads their private tables on purpose.
CROSS_PACKAGE_TESTS = {"tests/sim/test_kinds.py"}


def test_no_package_imports_another_packages_private_modules() -> None:
    """A package's ``_*`` modules are its own business: everything else (other packages,
    scripts, integration tests) imports what the package exports, so a move inside a package
    never breaks an import elsewhere."""
    offenders = []
    for path, tree in _modules("gptnt", "services", "tests", "scripts"):
        mine = _package(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                owner = _private_owner(name) if name.startswith("gptnt") else None
                if owner is None or path in CROSS_PACKAGE_TESTS:
                    continue
                if mine is None or not (owner == mine or owner.startswith(mine + ".")):
                    offenders.append(f"{path}:{node.lineno}: {name}")
    assert not offenders, offenders


def test_no_package_resolves_names_lazily() -> None:
    """No module-level ``__getattr__``: a package exports what it imports, so every name has
    one place a reader (and a type checker) can follow."""
    offenders = [
        path
        for path, tree in _modules("gptnt", "services")
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
    ]
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


def test_every_test_module_has_its_own_name() -> None:
    """Test folders are not packages, so pytest imports each test file by its base name: two
    files of the same name in two folders stop the whole collection."""
    seen: dict[str, str] = {}
    twice = []
    for path in sorted((REPO / "tests").rglob("*.py")):
        if path.name == "conftest.py":
            continue
        where = path.relative_to(REPO).as_posix()
        if path.name in seen:
            twice.append(f"{where} and {seen[path.name]}")
        seen[path.name] = where
    assert not twice, twice


CLI_FUNCTION_LINES = 60


def test_every_cli_command_is_thin() -> None:
    """A command parses, makes one call into the library and prints: no function of the CLI
    is longer than 60 lines, its signature included (the work belongs to the library)."""
    long = [
        f"{name}:{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for name, tree in _modules("gptnt/cli")
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > CLI_FUNCTION_LINES
    ]
    assert not long, f"CLI functions over {CLI_FUNCTION_LINES} lines: {', '.join(long)}"
