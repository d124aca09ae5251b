"""Shared fixtures: the generated v1 manual (typeset once per session) and the fixture PDF."""

from __future__ import annotations

from pathlib import Path

import pytest

from gptnt.manual import Manual, build_manual

REPO = Path(__file__).resolve().parents[2]
OFFICIAL = REPO.parent / "shared" / "fixtures" / "official-manual"


@pytest.fixture(scope="session")
def v1_manual() -> Manual:
    return build_manual(1)


@pytest.fixture(scope="session")
def official_pdf() -> Path:
    pdf = OFFICIAL / "ktane-manual.pdf"
    if not pdf.is_file():
        pytest.skip(f"{pdf} absent (needs ../shared/fixtures)")
    pytest.importorskip("pypdfium2")
    return pdf
