"""Localisation candidates for module states a random build can meet: every kind's generator
must give a hallucination instruction whatever words the module shows (review of issue 29:
`diag build --rule-seed 3` crashed when a Who's on First module showed every word the
hallucination pool held)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from gptnt.diagnostics.localisation import NONE, _whos_on_first
from gptnt.protocol import WhosOnFirstModule

POOL_WORDS = ["FIRST", "NOTHING", "LEFT", "OKAY", "WAIT", "READY"]


@pytest.mark.parametrize(
    "words", [POOL_WORDS, ["FIRST", "NOTHING", "LEFT", "OKAY", "WAIT", "WAIT"]]
)
def test_whos_on_first_names_an_absent_word_whatever_the_buttons_show(words: list[str]) -> None:
    module = WhosOnFirstModule(on_front=True, index=0, stage=1, display_word="YES",
                               button_words=words)  # fmt: skip
    for seed in range(20):
        out = _whos_on_first(SimpleNamespace(module=module), random.Random(seed))  # type: ignore[arg-type]
        fake = [text for category, text, target in out if category == "hallucination"]
        assert len(fake) == 1 and NONE in [t for c, _, t in out if c == "hallucination"]
        assert not any(text.endswith(f"says {w}.") for text in fake for w in words)
