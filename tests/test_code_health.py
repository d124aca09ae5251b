"""Checks on the code itself: the layering of DESIGN.md §2 (import-linter, contracts in
pyproject.toml) and the linter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / argv[0]), *argv[1:]],
        check=False,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_import_contracts_are_kept() -> None:
    result = _run("lint-imports", "--no-cache")
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
