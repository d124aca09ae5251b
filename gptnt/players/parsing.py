"""From a model's raw text to one action, salvaging what can be salvaged. Never raises.

The expected shape (paper F.1)::

    <thoughts>free reasoning</thoughts>
    <action>{"result": {"kind": "interact_game", "data": {"action": "click_release",
                                                          "location": "B"}}}</action>

What is salvaged, each with a soft warning: tag slips (case, ``<thought>``, a missing ``>`` or
closing tag), a bare JSON action with no ``<action>`` tag, JSON needing repair (code fences,
single quotes, trailing commas, …), a missing ``result``/``kind`` wrapper, wire-style action
names (``click``), a location on an action that takes none, and — when the output hit the
token cap — an action that was nevertheless complete. What cannot be salvaged (no action, two
actions, unreadable JSON, an unknown kind or action name, a missing location, a kind the player
may not use) turns the turn into ``DoNothing`` with an issue that skips; nothing
becomes do-nothing silently.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from dataclasses import dataclass, field

from gptnt.players._json import JsonReading, JsonUnreadable, JsonValue, read_json
from gptnt.players._text import scrub
from gptnt.players.actions import (
    LOCATED_ACTIONS,
    Action,
    ActionKindName,
    DoNothing,
    InteractGame,
    InteractionMethod,
    MarkLocation,
    PointLocation,
    SendMessage,
)
from gptnt.players.feedback import Issue, IssueCode
from gptnt.protocol import MODEL_ACTIONS, ActionKind

ALL_KINDS: tuple[ActionKindName, ...] = ("interact_game", "send_message", "do_nothing")
FinishReason = str | None
"""The provider's finish reason; ``"length"`` means the output hit the token cap."""

_WIRE_NAMES = {kind.value: name for name, kind in MODEL_ACTIONS.items()}
_WIRE_NAMES.update({"press": "click_release", "click": "click_release", "zoom": "zoom_out"})
_WIRE_NAMES.pop(ActionKind.HOLD.value)
_WIRE_NAMES.pop(ActionKind.RELEASE.value)
_WIRE_NAMES.pop(ActionKind.FLIP.value)

_TAG_FAMILIES = {
    "thoughts": "thoughts", "thought": "thoughts", "thinking": "thoughts", "think": "thoughts",
    "reasoning": "thoughts", "action": "action", "actions": "action", "command": "action",
}  # fmt: skip
_TAG = re.compile(
    r"<\s*(/?)\s*(thoughts|thought|thinking|think|reasoning|actions|action|command)\b"
    r"\s*(>|(?=[\s{\[\"']|$))",
    re.IGNORECASE,
)
_FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)
_LABEL = re.compile(r"^[A-Za-z]{1,2}$")
_MAX_CHARS = 200_000


@dataclass(frozen=True)
class ParsedOutput:
    """What a response amounts to. ``action`` is ``DoNothing`` when the turn was skipped."""

    action: Action
    thoughts: str | None
    issues: tuple[Issue, ...] = ()

    @property
    def skipped(self) -> bool:
        """True when the response could not be acted on (an issue cost the turn)."""
        return any(issue.skips for issue in self.issues)


def parse_output(
    text: str | None,
    *,
    allowed: Collection[ActionKindName] = ALL_KINDS,
    method: InteractionMethod = "set-of-marks",
    finish_reason: FinishReason = None,
) -> ParsedOutput:
    """Parse ``text`` into one action the player may take. Never raises.

    ``allowed`` are the kinds this player may use (an Expert has no ``interact_game``; a solo
    player no ``send_message``); ``method`` says which locations are valid.
    """
    try:
        return _Parse(scrub(text or ""), allowed, method, finish_reason == "length").run()
    except Exception as err:  # the parser's promise: a bad output is feedback
        # The last resort, never reached by the fuzz test: the detail names the bug.
        detail = f"internal {type(err).__name__}"
        return ParsedOutput(DoNothing(), None, (Issue("unparseable_action", detail),))


def parse_call(
    kind: str,
    data: object,
    *,
    allowed: Collection[ActionKindName] = ALL_KINDS,
    method: InteractionMethod = "set-of-marks",
) -> ParsedOutput:
    """One command already out of its text (a tool call: its name the ``kind``, its arguments
    the ``data``), read by the same rules as ``{"result": {"kind", "data"}}`` inside
    ``<action>``: the same issues, the same skips. Arguments given as JSON text are read (and
    repaired) on their own, so nothing in them can reach the kind."""
    parse = _Parse("", allowed, method, truncated=False)
    try:
        if isinstance(data, str):
            reading = parse.read(scrub(data.strip() or "{}"))
            if reading is None:
                return parse.fail("unparseable_action")
            data = reading.value
        action = parse.interpret(_scrubbed({"result": {"kind": kind, "data": data}}))
    except Exception as err:  # the parser's promise, as parse_output's
        return ParsedOutput(
            DoNothing(), None, (Issue("unparseable_action", f"internal {type(err).__name__}"),)
        )
    if isinstance(action, Issue):
        return parse.fail(action.code, action.detail)
    return ParsedOutput(action, None, tuple(parse.issues))


@dataclass
class _Block:
    kind: str
    start: int
    end: int
    closed: bool


@dataclass
class _Parse:
    text: str
    allowed: Collection[ActionKindName]
    method: InteractionMethod
    truncated: bool
    issues: list[Issue] = field(default_factory=list)
    thoughts: str | None = None

    def warn(self, code: IssueCode, detail: str = "") -> None:
        self.issues.append(Issue(code, detail))

    def fail(self, code: IssueCode, detail: str = "") -> ParsedOutput:
        self.warn(code, detail)
        return ParsedOutput(DoNothing(), self.thoughts, tuple(self.issues))

    def run(self) -> ParsedOutput:
        if not self.text.strip():
            return self.fail("empty_output")
        if len(self.text) > _MAX_CHARS:
            self.text = self.text[:_MAX_CHARS]
        blocks, slips = self.blocks()
        thoughts = [b for b in blocks if b.kind == "thoughts"]
        actions = [b for b in blocks if b.kind == "action" and self.body(b).strip()]
        if thoughts:
            joined = "\n".join(self.body(b).strip() for b in thoughts).strip()
            self.thoughts = joined or None
        if slips:
            self.warn("tag_slip", ", ".join(sorted(set(slips))))
        if len(actions) > 1:
            return self.fail("multiple_actions")
        closed = False
        if actions:
            block = actions[0]
            source = self.body(block)
            closed = block.closed
            self.order_warnings(blocks, block)
        else:
            found = self.bare_json(blocks)
            if found is None:
                return self.fail("output_truncated" if self.truncated else "no_action")
            if found == "many":
                return self.fail("multiple_actions")
            source = found
            self.warn("bare_json")
        if self.thoughts is None:
            loose = self.untagged_reasoning(blocks, source)
            if loose:
                self.thoughts = loose
            else:
                self.warn("thoughts_missing")
        reading = self.read(source)
        if reading is None:
            return self.fail("output_truncated" if self.truncated else "unparseable_action")
        if self.truncated:
            # Cut off by the token cap: only an action that visibly ended may run.
            if not (closed or reading.complete):
                return self.fail("output_truncated")
            self.warn("output_truncated_salvaged")
        elif reading.cut and not closed:
            # The text stopped inside the action (mid-string, or where a value was due) with
            # no token cap reported: the action is cut off, not malformed.
            return self.fail("action_cut_off")
        action = self.interpret(reading.value)
        if isinstance(action, Issue):
            self.issues.append(action)
            return ParsedOutput(DoNothing(), self.thoughts, tuple(self.issues))
        return ParsedOutput(action, self.thoughts, tuple(self.issues))

    # ------------------------------------------------------------------ structure

    def blocks(self) -> tuple[list[_Block], list[str]]:
        """Thoughts and action blocks in order, and the tag slips met on the way."""
        tags = []
        slips: list[str] = []
        for m in _TAG.finditer(self.text):
            closing, name, bracket = m.group(1), m.group(2), m.group(3)
            family = _TAG_FAMILIES[name.lower()]
            if m.group(0) != f"<{closing}{family}>":
                slips.append(_describe_slip(m.group(0), closing, family, bracket))
            tags.append((m.start(), m.end(), bool(closing), family))
        blocks: list[_Block] = []
        consumed = 0  # end of the last tag or block taken
        i = 0
        while i < len(tags):
            start, end, closing, family = tags[i]
            if closing:
                # A close with no open: "reasoning </thoughts>" makes everything since the last
                # block the reasoning; a stray second close is ignored.
                if not any(b.kind == family for b in blocks):
                    blocks.append(_Block(family, consumed, start, True))
                    slips.append(f"<{family}> was never opened")
                consumed = end
                i += 1
                continue
            nxt = tags[i + 1] if i + 1 < len(tags) else None
            if nxt is not None and nxt[2] and nxt[3] == family:
                blocks.append(_Block(family, end, nxt[0], True))
                consumed = nxt[1]
                i += 2
                continue
            # Unclosed: the block runs to the next tag, or to the end of the text.
            stop = nxt[0] if nxt is not None else len(self.text)
            blocks.append(_Block(family, end, stop, False))
            slips.append(f"</{family}> was missing")
            consumed = stop
            i += 1
        return blocks, slips

    def body(self, block: _Block) -> str:
        return self.text[block.start : block.end]

    def outside(self, blocks: list[_Block]) -> list[tuple[int, int]]:
        """Spans of text that belong to no block and no tag."""
        covered = [(0, 0)]
        for b in blocks:
            covered.append((b.start, b.end))
        for m in _TAG.finditer(self.text):
            covered.append((m.start(), m.end()))
        covered.sort()
        spans, pos = [], 0
        for start, end in covered:
            if start > pos:
                spans.append((pos, start))
            pos = max(pos, end)
        if pos < len(self.text):
            spans.append((pos, len(self.text)))
        return [(s, e) for s, e in spans if self.text[s:e].strip()]

    def order_warnings(self, blocks: list[_Block], action: _Block) -> None:
        """Reasoning after the action, and loose text before or after it."""
        if any(b.kind == "thoughts" and b.start > action.end for b in blocks):
            self.warn("action_before_thoughts")
        spans = self.outside(blocks)
        if any(s >= action.end for s, _ in spans):
            self.warn("text_after_action")
        if any(e <= action.start for _, e in spans):
            self.warn("text_outside_tags")

    def untagged_reasoning(self, blocks: list[_Block], action_text: str) -> str | None:
        """Text outside any tag (minus the action itself) still counts as misplaced reasoning."""
        loose = "\n".join(self.text[s:e].strip() for s, e in self.outside(blocks))
        return loose.replace(action_text.strip(), "").strip() or None

    def bare_json(self, blocks: list[_Block]) -> str | None:
        """An action-looking JSON object outside the tags (or at the end of an unclosed
        thoughts block): its text, ``"many"`` if there are several, or ``None``.
        """
        spans = self.outside(blocks)
        spans += [(b.start, b.end) for b in blocks if b.kind == "thoughts" and not b.closed]
        found = []
        for start, end in spans:
            found += [obj for obj in _objects(self.text[start:end]) if _looks_like_action(obj)]
        if not found:
            return None
        if len(found) > 1:
            return "many"
        outside = self.outside(blocks)
        if any(found[0] in self.text[s:e] for s, e in outside):
            rest = "".join(self.text[s:e] for s, e in outside).replace(found[0], "")
            if rest.strip():
                self.warn("text_outside_tags")
        elif self.thoughts is not None:
            self.thoughts = self.thoughts.replace(found[0], "").strip() or None
        return found[0]

    # ------------------------------------------------------------------ content

    def read(self, source: str) -> JsonReading | None:
        text = source.strip()
        fenced = _FENCE.match(text)
        repairs: list[str] = []
        if fenced:
            text = fenced.group(1).strip()
            repairs.append("code fences")
        elif text.startswith("```"):
            text = text.strip("`").removeprefix("json").strip()
            repairs.append("code fences")
        if not text.startswith(("{", "[")):
            objects = _objects(text)
            if not objects:
                return None
            text = objects[0]
            repairs.append("text around the JSON")
        try:
            reading = read_json(text)
        except JsonUnreadable:
            return None
        repairs += reading.repairs
        # A "\ud83d" escape in JSON decodes to a lone surrogate, which no record could store.
        reading.value = _scrubbed(reading.value)
        if repairs:
            self.warn("json_repaired", ", ".join(dict.fromkeys(repairs)))
        return reading

    def interpret(self, value: object) -> Action | Issue:
        """Turn the JSON value into an action, or the issue that stops it."""
        if not isinstance(value, dict):
            return Issue("invalid_action", "the action was not a JSON object")
        inner: dict = value
        shape: list[str] = []
        if isinstance(value.get("result"), dict):
            inner = value["result"]
            extra = sorted(set(value) - {"result"})
            if extra:
                self.warn("extra_fields_ignored", ", ".join(map(str, extra)))
        elif "kind" in value or "data" in value:
            shape.append('no "result" wrapper')
        else:
            inner = {"data": value}
            shape.append('no "result" wrapper or "kind"')
        data = inner.get("data")
        if data is None:
            data = {k: v for k, v in inner.items() if k != "kind"}
            if data:
                shape.append('fields outside "data"')
        if not isinstance(data, dict):
            return Issue("invalid_action", '"data" was not an object')
        kind = inner.get("kind")
        if kind is None:
            kind = _infer_kind(data)
            shape.append(f'"kind" missing, taken as {kind}')
        if not isinstance(kind, str):
            return Issue("invalid_action", '"kind" was not a string')
        kind_name = kind.strip().lower().replace("-", "_").replace(" ", "_")
        if kind_name not in ALL_KINDS:
            return Issue("invalid_action", f'unknown kind "{kind[:40]}"')
        if kind_name not in self.allowed:
            return Issue("action_not_allowed", kind_name)
        if kind_name != kind:
            shape.append(f'kind written "{kind[:40]}"')
        if shape:
            self.warn("shape_repaired", "; ".join(shape))
        if kind_name == "do_nothing":
            if data:
                self.warn("extra_fields_ignored", ", ".join(map(str, sorted(data))))
            return DoNothing()
        if kind_name == "send_message":
            return self.message(data)
        return self.interaction(data)

    def message(self, data: dict) -> SendMessage | Issue:
        text = data.get("message")
        if not isinstance(text, str) or not text.strip():
            return Issue("invalid_action", 'send_message needs a non-empty "message" text')
        extra = sorted(set(data) - {"message"})
        if extra:
            self.warn("extra_fields_ignored", ", ".join(map(str, extra)))
        return SendMessage(message=text.strip())

    def interaction(self, data: dict) -> InteractGame | Issue:
        name = data.get("action")
        if not isinstance(name, str) or not name.strip():
            return Issue("invalid_action", 'interact_game needs an "action" name')
        norm = name.strip().lower().replace("-", "_").replace(" ", "_")
        if norm not in MODEL_ACTIONS:
            alias = _WIRE_NAMES.get(norm)
            if alias is None:
                return Issue("invalid_action", f'unknown action "{name[:40]}"')
            self.warn("action_alias", f'"{name[:40]}" (read as {alias})')
            norm = alias
        extra = sorted(set(data) - {"action", "location"})
        if extra:
            self.warn("extra_fields_ignored", ", ".join(map(str, extra)))
        raw = data.get("location")
        if norm not in LOCATED_ACTIONS:
            if raw not in (None, "", {}, []):
                self.warn("location_ignored", norm)
            return InteractGame(action=norm)
        if raw in (None, "", {}, []):
            return Issue("missing_location", norm)
        location = self.location(raw)
        if isinstance(location, Issue):
            return location
        return InteractGame(action=norm, location=location)

    def location(self, raw: object) -> MarkLocation | PointLocation | Issue:
        if self.method == "set-of-marks":
            if isinstance(raw, str):
                label = raw.strip().strip("\"'[]()<> ").upper()
                label = re.sub(r"^(LABEL|MARKER|MARK)\s+", "", label)
                if _LABEL.match(label):
                    return MarkLocation(label=label)
                return Issue("wrong_location_type", f'"{raw[:20]}", not a marker letter')
            return Issue("wrong_location_type", "not a marker letter (this game uses markers)")
        point = _point(raw)
        if point is None:
            return Issue("wrong_location_type", 'not an {"x": …, "y": …} point')
        if not all(math.isfinite(v) for v in point):
            # A 400-digit integer is a number, just not one on the image.
            return Issue("off_screen", "(" + ", ".join(_short(v) for v in point) + ")")
        if not (isinstance(raw, dict) and set(raw) == {"x", "y"}):
            self.warn("shape_repaired", 'location written other than {"x": …, "y": …}')
        return PointLocation(x=point[0], y=point[1])


def _scrubbed(value: JsonValue) -> JsonValue:
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {scrub(str(k)): _scrubbed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrubbed(v) for v in value]
    return value


def _as_float(value: object) -> float | None:
    """A JSON number as a float (±inf beyond float's range); ``None`` for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _short(value: float) -> str:
    return f"{value:g}" if math.isfinite(value) else "a number beyond any pixel"


def _point(raw: object) -> tuple[float, float] | None:
    if isinstance(raw, dict):
        lowered = {str(k).lower(): v for k, v in raw.items()}
        values = [lowered.get("x"), lowered.get("y")]
    elif isinstance(raw, (list, tuple)) and len(raw) == 2:
        values = list(raw)
    elif isinstance(raw, str):
        parts = re.findall(r"-?\d+(?:\.\d+)?", raw)
        values = [float(p) for p in parts] if len(parts) == 2 else []
    else:
        return None
    if len(values) != 2:
        return None
    x, y = _as_float(values[0]), _as_float(values[1])
    if x is None or y is None or math.isnan(x) or math.isnan(y):
        return None
    return x, y


def _infer_kind(data: dict) -> ActionKindName:
    if "action" in data:
        return "interact_game"
    if "message" in data:
        return "send_message"
    return "do_nothing"


def _looks_like_action(obj: str) -> bool:
    return bool(re.search(r"""["']?(result|kind|action|message)["']?\s*:""", obj))


def _objects(text: str) -> list[str]:
    """Top-level ``{…}`` spans of ``text`` (brace-balanced, string-aware); an object left open
    at the end of the text runs to the end.
    """
    found, depth, start, quote, escaped = [], 0, -1, "", False
    for i, ch in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
            continue
        if ch == '"' and depth > 0:
            quote = ch
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                found.append(text[start : i + 1])
    if depth > 0 and start >= 0:
        found.append(text[start:])
    return found


def _describe_slip(raw: str, closing: str, family: str, bracket: str) -> str:
    shown = raw.strip()[:20]
    if not bracket:
        return f"{shown!s} lacked its '>'"
    return f"{shown} instead of <{closing}{family}>"
