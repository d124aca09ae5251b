"""Execution feedback: what went wrong with a model's previous response, told on its next turn.

Every problem found in a response is an ``Issue`` with a code from ``ISSUES``. A *soft* issue
(the action was salvaged) lets the action run; a *skipping* issue turns the turn into
do-nothing. Either way the model hears about it once, at the start of its next turn, inside
``<execution-feedback>``. The sentences follow the paper's rule (F.2): describe, in the past
tense, what the previous response did and what happened because of it, then a general note
about responses; never tell the model to retry and never reveal game state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

IssueCode = Literal[
    # skipping: the turn became do-nothing
    "empty_output",
    "no_action",
    "no_tool_call",
    "unparseable_action",
    "invalid_action",
    "action_not_allowed",
    "missing_location",
    "wrong_location_type",
    "multiple_actions",
    "output_truncated",
    "action_cut_off",
    "unknown_label",
    "off_screen",
    "provider_error",
    # soft: the action ran
    "thoughts_missing",
    "action_before_thoughts",
    "text_outside_tags",
    "text_after_action",
    "tag_slip",
    "bare_json",
    "json_repaired",
    "shape_repaired",
    "action_alias",
    "location_ignored",
    "extra_fields_ignored",
    "output_truncated_salvaged",
    "output_capped",
]


@dataclass(frozen=True)
class IssueText:
    """How an issue is told: ``skips`` says whether the turn was lost; ``sentence`` may hold
    ``{detail}``.
    """

    skips: bool
    sentence: str


ISSUES: dict[IssueCode, IssueText] = {
    "empty_output": IssueText(
        True,
        "Your previous response was empty, so that turn was skipped. Every response ends with "
        "exactly one action.",
    ),
    "no_action": IssueText(
        True,
        "Your previous response contained no action, so that turn was skipped. Every response "
        "ends with exactly one action inside <action></action>.",
    ),
    "no_tool_call": IssueText(
        True,
        "Your previous response called none of the command tools, so that turn was skipped. "
        "Every response calls exactly one command tool.",
    ),
    "unparseable_action": IssueText(
        True,
        "The action in your previous response could not be read as JSON, so that turn was "
        "skipped. Actions are a single JSON object as shown in the instructions.",
    ),
    "invalid_action": IssueText(
        True,
        "The action in your previous response was not a valid command ({detail}), so that turn "
        "was skipped. Commands follow the format given in the instructions.",
    ),
    "action_not_allowed": IssueText(
        True,
        "Your previous response chose {detail}, which is not available to you in this game, so "
        "that turn was skipped. Only the commands listed in the instructions are available.",
    ),
    "missing_location": IssueText(
        True,
        "Your previous response used {detail} without a location, so that turn was skipped. "
        "That command always needs a location.",
    ),
    "wrong_location_type": IssueText(
        True,
        "The location in your previous response was {detail}, so that turn was skipped. "
        "Locations take the form described in the instructions.",
    ),
    "multiple_actions": IssueText(
        True,
        "Your previous response contained more than one action, so none of them was carried "
        "out and that turn was skipped. A response holds exactly one action.",
    ),
    "output_truncated": IssueText(
        True,
        "Your previous response ran past the length limit before its action was complete, so "
        "that turn was skipped. Shorter reasoning leaves room for the action.",
    ),
    "action_cut_off": IssueText(
        True,
        "Your previous response stopped in the middle of its action, before the action was "
        "complete, so that turn was skipped. An action is one complete JSON object.",
    ),
    "unknown_label": IssueText(
        True,
        "Your previous response named the location marker {detail}, which was not on the "
        "screen at that moment, so that turn was skipped. Only markers visible in the newest "
        "image can be used.",
    ),
    "off_screen": IssueText(
        True,
        "Your previous response gave the coordinates {detail}, which lie outside the image, so "
        "that turn was skipped. Coordinates lie within the image bounds given in the "
        "instructions.",
    ),
    "provider_error": IssueText(
        True,
        "Your previous turn failed because of a server error ({detail}) and was skipped. This "
        "was not caused by your response.",
    ),
    "thoughts_missing": IssueText(
        False,
        "Your previous response had no reasoning in <thoughts></thoughts>; that alone did not "
        "cost the turn. Reasoning before acting tends to help.",
    ),
    "action_before_thoughts": IssueText(
        False,
        "Your previous response gave its action before its reasoning; that alone did not cost "
        "the turn. Reasoning placed after an action cannot inform it.",
    ),
    "text_outside_tags": IssueText(
        False,
        "Your previous response had text outside the <thoughts> and <action> tags; that alone "
        "did not cost the turn. Reasoning belongs inside <thoughts></thoughts>.",
    ),
    "text_after_action": IssueText(
        False,
        "Your previous response kept going after </action>; the text after it was ignored. A "
        "response ends with its action.",
    ),
    "tag_slip": IssueText(
        False,
        "The tags in your previous response were not exactly <thoughts></thoughts> and "
        "<action></action> ({detail}); they were still understood.",
    ),
    "bare_json": IssueText(
        False,
        "The action in your previous response was not wrapped in <action></action>; it was "
        "still found and read.",
    ),
    "json_repaired": IssueText(
        False,
        "The action JSON in your previous response needed repair ({detail}); the repaired "
        "version was used. Plain, valid JSON avoids guesswork.",
    ),
    "shape_repaired": IssueText(
        False,
        "The action in your previous response did not have the full "
        '{{"result": {{"kind": ..., "data": {{...}}}}}} shape ({detail}); it was still '
        "interpreted.",
    ),
    "action_alias": IssueText(
        False,
        "Your previous response called an action {detail}; it was still understood. "
        "The instructions list the action names.",
    ),
    "location_ignored": IssueText(
        False,
        "Your previous response gave a location to {detail}, which takes none; the location "
        "was ignored.",
    ),
    "extra_fields_ignored": IssueText(
        False,
        "The action in your previous response had fields that the command does not take "
        "({detail}); they were ignored.",
    ),
    "output_capped": IssueText(
        False,
        "Your previous response was very long ({detail} were kept in this conversation and "
        "read for the action). Shorter responses are kept whole.",
    ),
    "output_truncated_salvaged": IssueText(
        False,
        "Your previous response ran past the length limit; it was cut off, but its "
        "action was complete and still counted. Shorter reasoning avoids the limit.",
    ),
}


@dataclass(frozen=True)
class Issue:
    """One problem with one response. ``detail`` fills the sentence's ``{detail}``."""

    code: IssueCode
    detail: str = ""

    @property
    def skips(self) -> bool:
        """True when this issue cost the turn (the action became do-nothing)."""
        return ISSUES[self.code].skips

    @property
    def sentence(self) -> str:
        return ISSUES[self.code].sentence.format(detail=self.detail or "unspecified")

    @property
    def note(self) -> str:
        """The issue as the turn's record writes it: ``code: detail`` (the code alone when
        there is no detail)."""
        return f"{self.code}: {self.detail}" if self.detail else self.code


def feedback_text(issues: tuple[Issue, ...] | list[Issue]) -> str | None:
    """The ``<execution-feedback>`` block for the next turn, or ``None`` when all was well.

    Skipping issues come first; each code is told once.
    """
    seen: set[IssueCode] = set()
    ordered: list[Issue] = []
    for issue in sorted(issues, key=lambda i: not i.skips):
        if issue.code not in seen:
            seen.add(issue.code)
            ordered.append(issue)
    if not ordered:
        return None
    body = " ".join(issue.sentence for issue in ordered)
    return f"<execution-feedback>{body}</execution-feedback>"
