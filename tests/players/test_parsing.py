"""The output parser over a corpus of good, bad and adversarial outputs, plus a fuzz test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from gptnt.players.actions import DoNothing, InteractGame, MarkLocation, PointLocation, SendMessage
from gptnt.players.feedback import ISSUES, feedback_text
from gptnt.players.parsing import ALL_KINDS, parse_output

CORPUS: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).with_name("parser_corpus.yaml")).read_text(encoding="utf-8")
)


def test_corpus_is_big_enough() -> None:
    assert len(CORPUS) >= 40
    assert len({case["name"] for case in CORPUS}) == len(CORPUS)


@pytest.mark.parametrize("case", CORPUS, ids=[c["name"] for c in CORPUS])
def test_corpus(case: dict[str, Any]) -> None:
    result = parse_output(
        case["text"],
        allowed=case.get("allowed", ALL_KINDS),
        method=case.get("method", "set-of-marks"),
        finish_reason=case.get("finish"),
    )
    expect = case["expect"]
    codes = [issue.code for issue in result.issues]
    assert result.action.kind == expect["kind"], codes
    if "skipped" in expect:
        assert result.skipped is expect["skipped"], codes
    for code in expect.get("issues", []):
        assert code in codes, (code, codes)
    if expect.get("clean"):
        assert codes == []
    if "action" in expect:
        assert isinstance(result.action, InteractGame) and result.action.action == expect["action"]
    if "label" in expect:
        assert result.action.location == MarkLocation(label=expect["label"])
    if "point" in expect:
        x, y = expect["point"]
        assert result.action.location == PointLocation(x=x, y=y)
    if "message" in expect:
        assert isinstance(result.action, SendMessage) and result.action.message == expect["message"]
    # Every problem reaches the model as feedback; a clean turn gets none.
    text = feedback_text(result.issues)
    assert (text is None) == (not codes)
    if result.skipped:
        assert text and "skipped" in text


def test_thoughts_are_kept() -> None:
    result = parse_output(
        '<thoughts>Red first.</thoughts><action>{"result": {"kind": "do_nothing", "data": {}}}'
        "</action>"
    )
    assert result.thoughts == "Red first."


def test_every_issue_has_a_past_tense_sentence() -> None:
    for code, text in ISSUES.items():
        assert "previous" in text.sentence, code
        assert text.sentence.count("{detail}") <= 1


_PIECES = st.sampled_from(
    [
        "<thoughts>", "</thoughts>", "<action>", "</action>", "<thought", "<ACTION ", "{", "}",
        "[", "]", '"', "'", ":", ",", '"result"', '"kind"', '"data"', '"interact_game"',
        '"send_message"', '"do_nothing"', '"action"', '"location"', '"click_release"', '"A"',
        '"message"', "```json", "```", "\\", "\n", " ", "null", "True", "1e999", "NaN", "-0",
        "//", "/*", "\u201c", "<", ">", "/",
    ]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(
    parts=st.lists(st.one_of(_PIECES, st.text(max_size=8)), max_size=40),
    allowed=st.sampled_from(
        [ALL_KINDS, ("send_message", "do_nothing"), ("interact_game", "do_nothing")]
    ),
    method=st.sampled_from(["set-of-marks", "coordinates"]),
    finish=st.sampled_from([None, "stop", "length"]),
)
def test_fuzz_never_raises_and_failures_give_feedback(
    parts: list[str], allowed: tuple[str, ...], method: str, finish: str | None
) -> None:
    result = parse_output("".join(parts), allowed=allowed, method=method, finish_reason=finish)
    assert result.action.kind in allowed
    # The last-resort guard (an internal exception turned into feedback) never fired.
    assert not any(i.code == "unparseable_action" and i.detail for i in result.issues)
    if result.skipped:
        assert isinstance(result.action, DoNothing)
        text = feedback_text(result.issues)
        assert text is not None and text.startswith("<execution-feedback>")
    if result.issues:
        assert feedback_text(result.issues)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_fuzz_arbitrary_text(text: str) -> None:
    result = parse_output(text)
    assert not any(i.code == "unparseable_action" and i.detail for i in result.issues)
    if result.skipped:
        assert feedback_text(result.issues)
