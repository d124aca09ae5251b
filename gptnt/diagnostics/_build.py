"""Building datasets: counts, seeds and rule seed in; dataset folders out."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gptnt.diagnostics import contamination, localisation, manual_vqa, sim_vqa
from gptnt.diagnostics._dataset import (
    GENERATOR_VERSION,
    PAPER_COUNTS,
    ImageStore,
    Manifest,
    Task,
    identity,
    write_dataset,
)
from gptnt.diagnostics._frames import CAP_PER_MODULE, collect
from gptnt.protocol import MODULE_KINDS
from gptnt.rules.ruleset import Ruleset


def scaled_counts(task: Task, n: int | None) -> dict[str, int]:
    """The paper's category sizes, or exactly ``n`` questions split in the paper's proportions
    (largest remainders; every category keeps one question while ``n`` allows it, ties go to
    the earlier category)."""
    paper = PAPER_COUNTS[task]
    if n is None:
        return dict(paper)
    total = sum(paper.values())
    floor = 1 if n >= len(paper) else 0
    rest = n - floor * len(paper)
    shares = {c: k * rest / total for c, k in paper.items()}
    counts = {c: floor + int(share) for c, share in shares.items()}
    order = sorted(paper, key=lambda c: (-(shares[c] - int(shares[c])), list(paper).index(c)))
    for c in order[: n - sum(counts.values())]:
        counts[c] += 1
    return counts


def build(
    tasks: tuple[Task, ...],
    out: Path,
    rules: Ruleset,
    *,
    seed: int = 0,
    n: int | None = None,
    modules: tuple[str, ...] = MODULE_KINDS,
    cap: int = CAP_PER_MODULE,
    progress: Callable[[str], None] | None = None,
) -> list[Path]:
    """Write one dataset folder per task under ``out``; returns their paths."""
    written: list[Path] = []
    shots = None
    for task in tasks:
        counts = scaled_counts(task, n)
        name = identity(task, seed=seed, rule_seed=rules.rule_seed, counts=counts, modules=modules)
        images = ImageStore()
        if progress:
            progress(f"{task}: generating {sum(counts.values())} questions")
        if task == "manual_vqa":
            questions = manual_vqa.build(counts, modules, rules, seed)
        elif task == "contamination":
            questions = contamination.build(counts, modules, rules, seed)
        else:
            if shots is None:
                if progress:
                    progress(
                        f"collecting up to {cap} frames per module from oracle and random play"
                    )
                shots = collect(modules, rules, seed, cap=cap, progress=progress)
            maker = sim_vqa.build if task == "sim_vqa" else localisation.build
            questions = maker(counts, shots, images, seed)
        made: dict[str, int] = {}
        for q in questions:
            made[q.category] = made.get(q.category, 0) + 1
        manifest = Manifest(
            task=task,
            identity=name,
            generator_version=GENERATOR_VERSION,
            seed=seed,
            rule_seed=rules.rule_seed,
            modules=modules,
            counts=counts,
            written=made,
            images=len(images.files),
        )
        written.append(write_dataset(out / name, manifest, questions, images))
        if progress:
            short = [
                f"{c}: {made.get(c, 0)} of {k}" for c, k in counts.items() if made.get(c, 0) < k
            ]
            lacking = (
                f" (none more could be made for these modules: {', '.join(short)})" if short else ""
            )
            progress(f"{task}: wrote {len(questions)} of {sum(counts.values())} questions{lacking}")
    return written
