"""Contamination under a rule seed other than 1: the seeded answer and the vanilla answer are
counted apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from gptnt.diagnostics import TruthAnswerer, build_datasets, read_answers, read_dataset, run
from gptnt.diagnostics._dataset import option_letter
from gptnt.rules.ruleset import ruleset

POOLS = (
    Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "ruleseed" / "pools.json"
)


class VanillaAnswerer:
    """Answers as a model that remembers only the v1 rules would."""

    name = "vanilla"

    async def answer(self, q, spec, dataset):  # type: ignore[no-untyped-def]
        if q.options:
            pick = q.answer if q.vanilla_answer is None else q.vanilla_answer
            return f"<answer>{option_letter(pick)}</answer>", {}
        return f"<answer>{q.truth.get('vanilla', '')}</answer>", {}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not POOLS.is_file():
        pytest.skip(f"{POOLS} absent (needs ../shared/fixtures)")
    rules = ruleset(1764, pools=POOLS)
    (path,) = build_datasets(("contamination",), tmp_path_factory.mktemp("c"), rules, seed=3, n=90)
    return path


async def test_seeded_and_vanilla_answers_are_apart(seeded: Path, tmp_path: Path) -> None:
    manifest, questions = read_dataset(seeded)
    assert manifest.rule_seed == 1764
    differing = [q for q in questions if q.vanilla_answer is not None]
    assert differing, "seed 1764 changes some answers from v1"
    for q in differing:
        assert q.vanilla_answer != q.answer
    await run(seeded, tmp_path / "truth", TruthAnswerer(), {})
    truth = read_answers(tmp_path / "truth")
    assert all(a.correct for a in truth) and not any(a.vanilla for a in truth)
    await run(seeded, tmp_path / "vanilla", VanillaAnswerer(), {})
    recalled = read_answers(tmp_path / "vanilla")
    assert sum(a.vanilla for a in recalled) >= len(differing)
    assert not any(a.correct and a.vanilla for a in recalled)
