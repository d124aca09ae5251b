"""The dataset vocabulary: one question, one dataset on disk, and its identity.

A dataset is a folder: ``questions.jsonl`` (one ``Question`` per line, in a fixed order),
``images/`` (PNG files named by content hash) and ``dataset.json`` (the ``Manifest``). The
manifest's ``identity`` is a hash of everything that decides the questions — generator version,
task, seed, rule seed, requested counts and module kinds — so a result can name exactly what it
was measured on, and the same inputs always write byte-identical files.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from gptnt.errors import ConfigError

GENERATOR_VERSION = 3
"""Bump when a generator changes what it writes for the same inputs."""

Task = Literal["manual_vqa", "sim_vqa", "localisation", "contamination"]
TASKS: tuple[Task, ...] = ("manual_vqa", "sim_vqa", "localisation", "contamination")

# The paper's category sizes (Tables G.20, G.21; the localisation total is 665 across seven
# categories, whose split the paper does not give: we split it evenly).
PAPER_COUNTS: dict[Task, dict[str, int]] = {
    "manual_vqa": {
        "reading": 191,
        "element_grounding": 60,
        "procedural": 499,
        "ambiguity": 64,
        "hallucination": 70,
    },
    "sim_vqa": {
        "reading": 152,
        "colour": 61,
        "counting": 205,
        "ambiguity": 91,
        "hallucination": 131,
    },
    "localisation": {
        "reading": 95,
        "colour": 95,
        "counting": 95,
        "element": 95,
        "position": 95,
        "ambiguity": 95,
        "hallucination": 95,
    },
    # Procedural reasoning without the manual (the paper's Table 12) plus open recall questions.
    "contamination": {"procedural_no_manual": 200, "open_recall": 100},
}


class Target(BaseModel):
    """Where a localisation question's answer lies on its frame."""

    model_config = ConfigDict(frozen=True)

    label: str | None
    """The set-of-marks letter of the target; ``None`` when no element fits (the right answer
    is then "none")."""
    mask_colour: tuple[int, int, int] | None
    """The target's flat colour in the frame's segmentation mask (``images`` holds the mask)."""
    labels: tuple[str, ...]
    """Every label on the marked frame, for scoring answers that name a label not on screen."""


class Question(BaseModel):
    """One multiple-choice (or open) diagnostic question with its ground truth."""

    model_config = ConfigDict(frozen=True)

    id: str
    task: Task
    category: str
    module: str
    """The module kind the question is about (protocol name, e.g. ``Venn``)."""
    difficulty: Literal["easy", "hard"] | None = None
    """Procedural questions only: easy = one or two lookups; hard = multi-step or across
    sub-tables."""
    prompt: str
    options: tuple[str, ...] = ()
    """Answer options (2–8) shown as A, B, C…; empty for open and localisation questions."""
    answer: int | None = None
    """Index of the correct option."""
    images: dict[str, str] = Field(default_factory=dict)
    """Role → image file name in ``images/``: ``frame`` (what the model sees), ``marked``
    (with set-of-marks), ``mask`` (ground truth, never shown)."""
    target: Target | None = None
    truth: dict[str, Any] = Field(default_factory=dict)
    """What the answer was computed from (module state, edgework, history, …), so a checker can
    solve the question again with the ruleset."""
    vanilla_answer: int | None = None
    """Contamination questions under a rule seed other than 1: the option the v1 rules give,
    when it differs from ``answer``."""


class Manifest(BaseModel):
    """``dataset.json``: what the dataset is and how it was made."""

    model_config = ConfigDict(frozen=True)

    task: Task
    identity: str
    generator_version: int
    seed: int
    rule_seed: int
    modules: tuple[str, ...]
    counts: dict[str, int]
    """Requested questions per category."""
    written: dict[str, int]
    """Questions written per category (less than requested only if a generator ran dry)."""
    images: int


def identity(
    task: Task, *, seed: int, rule_seed: int, counts: dict[str, int], modules: tuple[str, ...]
) -> str:
    """A short hash naming the dataset a set of inputs produces."""
    key = json.dumps(
        {
            "version": GENERATOR_VERSION,
            "task": task,
            "seed": seed,
            "rule_seed": rule_seed,
            "counts": counts,
            "modules": list(modules),
        },
        sort_keys=True,
    )
    return f"{task}-{hashlib.sha256(key.encode()).hexdigest()[:12]}"


class ImageStore:
    """PNG files named by content hash, collected before a dataset is written."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def add(self, png: bytes) -> str:
        name = f"{hashlib.sha256(png).hexdigest()[:16]}.png"
        self.files[name] = png
        return name


def write_dataset(
    out: Path, manifest: Manifest, questions: list[Question], images: ImageStore
) -> Path:
    """Write the dataset folder atomically (a temp folder renamed into place)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        (tmp / "images").mkdir()
        for name in sorted(images.files):
            (tmp / "images" / name).write_bytes(images.files[name])
        with (tmp / "questions.jsonl").open("w", encoding="utf-8") as f:
            for q in questions:
                f.write(q.model_dump_json(exclude_defaults=True) + "\n")
        (tmp / "dataset.json").write_text(manifest.model_dump_json(indent=2) + "\n")
        if out.exists():
            shutil.rmtree(out)
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out


def read_dataset(folder: Path) -> tuple[Manifest, list[Question]]:
    """A dataset folder written by ``write_dataset``."""
    manifest_path = folder / "dataset.json"
    if not manifest_path.is_file():
        raise ConfigError(
            f"dataset={folder}: no dataset.json there; build one with `gptnt diag build`"
        )
    manifest = Manifest.model_validate_json(manifest_path.read_text())
    with (folder / "questions.jsonl").open(encoding="utf-8") as f:
        questions = [Question.model_validate_json(line) for line in f if line.strip()]
    return manifest, questions


def option_letter(index: int) -> str:
    return chr(ord("A") + index)
