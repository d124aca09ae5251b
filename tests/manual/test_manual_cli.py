"""``gptnt manual build`` writes a loadable manual directory."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from gptnt.cli import app
from gptnt.manual import Manual, load_manual


def test_build_writes_pages_and_index(tmp_path: Path, v1_manual: Manual) -> None:
    out = tmp_path / "built"
    result = CliRunner().invoke(app, ["manual", "build", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert v1_manual.identity in result.output
    loaded = load_manual(out)
    assert loaded.identity == v1_manual.identity
    assert len(list(out.glob("page-*.txt"))) == len(v1_manual.pages)
    assert len(list(out.glob("page-*-h640.png"))) == len(v1_manual.pages)


def test_import_of_a_missing_pdf_fails_with_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["manual", "import", str(tmp_path / "none.pdf")])
    assert result.exit_code != 0
