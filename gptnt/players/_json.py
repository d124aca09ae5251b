"""A forgiving JSON reader for model output, which names every repair it had to make.

Models write almost-JSON: single quotes, trailing commas, Python's ``True``/``None``, unquoted
keys, comments, raw newlines inside strings, curly quotes, or an object cut off at the end.
``read_json`` accepts all of these and reports what it fixed, so the parser can turn the
repairs into soft warnings, and reports whether the text ended before the value was closed
(which matters when the output hit the token cap).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Literal

JsonValue = object

_MAX_DEPTH = 32
_LITERALS: dict[str, tuple[JsonValue, bool]] = {
    "true": (True, False),
    "false": (False, False),
    "null": (None, False),
    "True": (True, True),
    "False": (False, True),
    "None": (None, True),
}
_HEX4 = re.compile(r"[0-9A-Fa-f]{4}")
_CURLY = {"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"}


class JsonUnreadable(Exception):
    """Private: the text is not even almost-JSON."""


@dataclass
class JsonReading:
    value: JsonValue
    repairs: list[str] = field(default_factory=list)
    complete: bool = True
    """False when the text ended inside the value and closing brackets were supplied."""
    cut: bool = False
    """True when the text ended inside a string or where a value was due: not only closing
    brackets are missing, part of the value itself is (a response cut off mid-action)."""


def read_json(text: str) -> JsonReading:
    """Read one JSON value from ``text`` (which should hold nothing else)."""
    try:
        return JsonReading(json.loads(text))
    except (ValueError, RecursionError):
        pass
    reader = _Reader(text)
    value = reader.value(0)
    reader.skip_space()
    if reader.pos < len(reader.text):
        reader.note("text after the JSON value")
    if not reader.repairs:
        reader.note("non-standard JSON")
    return JsonReading(value, sorted(set(reader.repairs)), reader.complete, reader.cut)


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.repairs: list[str] = []
        self.complete = True
        self.cut = False

    def note(self, repair: str) -> None:
        self.repairs.append(repair)

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def skip_space(self) -> None:
        text = self.text
        while self.pos < len(text):
            ch = text[self.pos]
            if ch.isspace():
                self.pos += 1
            elif text.startswith("//", self.pos) or ch == "#":
                end = text.find("\n", self.pos)
                self.pos = len(text) if end < 0 else end + 1
                self.note("comments")
            elif text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                self.pos = len(text) if end < 0 else end + 2
                self.note("comments")
            else:
                return

    def value(self, depth: int) -> JsonValue:
        if depth > _MAX_DEPTH:
            raise JsonUnreadable("nested too deeply")
        self.skip_space()
        ch = self.peek()
        if ch == "":
            # Checked first: the empty string is "in" every string of quote characters.
            if depth == 0:
                raise JsonUnreadable("no value")
            self.complete = False
            self.cut = True
            return None
        if ch == "{":
            return self.obj(depth)
        if ch == "[":
            return self.array(depth)
        if ch in "\"'" or ch in _CURLY:
            return self.string()
        return self.scalar()

    def _at_item(self, close: str) -> Literal["end", "comma", "item"]:
        """Where a container's loop stands: at its ``end`` (its closing bracket, consumed, or
        the end of the text: cut short), at a ``comma`` (consumed), or at an ``item``."""
        self.skip_space()
        ch = self.peek()
        if ch == close:
            self.pos += 1
            return "end"
        if ch == "":
            self.complete = False
            self.note("missing closing brackets")
            return "end"
        if ch == ",":
            self.pos += 1
            self.skip_space()
            if self.peek() == close:
                self.note("trailing commas")
            return "comma"
        return "item"

    def obj(self, depth: int) -> dict[str, JsonValue]:
        self.pos += 1
        out: dict[str, JsonValue] = {}
        while (at := self._at_item("}")) != "end":
            if at == "comma":
                continue
            key = self.key()
            self.skip_space()
            if self.peek() == ":":
                self.pos += 1
            elif self.peek() == "":
                self.complete = False
                self.note("missing closing brackets")
                return out
            else:
                raise JsonUnreadable(f"expected ':' at {self.pos}")
            out[key] = self.value(depth + 1)
            self.skip_space()
            if self.peek() not in ",}":
                if self.peek() == "":
                    continue
                self.note("missing commas")
        return out

    def array(self, depth: int) -> list[JsonValue]:
        self.pos += 1
        out: list[JsonValue] = []
        while (at := self._at_item("]")) != "end":
            if at == "item":
                out.append(self.value(depth + 1))
        return out

    def key(self) -> str:
        ch = self.peek()
        if ch in "\"'" or ch in _CURLY:
            return self.string()
        start = self.pos
        while self.pos < len(self.text) and (
            self.text[self.pos].isalnum() or self.text[self.pos] in "_-"
        ):
            self.pos += 1
        if self.pos == start:
            raise JsonUnreadable(f"expected a key at {start}")
        self.note("unquoted keys")
        return self.text[start : self.pos]

    def string(self) -> str:
        opening = self.text[self.pos]
        quote = _CURLY.get(opening, opening)
        if opening in _CURLY:
            self.note("curly quotes")
        elif quote == "'":
            self.note("single quotes")
        closers = {quote} | {c for c, q in _CURLY.items() if q == quote}
        self.pos += 1
        chars: list[str] = []
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            if ch == "\\" and self.pos + 1 < len(self.text):
                chars.append(self._escape())
                continue
            if ch in closers:
                self.pos += 1
                return "".join(chars)
            if ch == "\n":
                self.note("raw line breaks in strings")
            chars.append(ch)
            self.pos += 1
        self.complete = False
        self.cut = True
        self.note("unterminated string")
        return "".join(chars)

    def _escape(self) -> str:
        nxt = self.text[self.pos + 1]
        simple = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "/": "/"}
        if nxt == "u":
            digits = self.text[self.pos + 2 : self.pos + 6]
            if _HEX4.fullmatch(digits):
                self.pos += 6
                return chr(int(digits, 16))  # a lone surrogate is replaced later (scrub)
            self.note("bad escapes")
            self.pos += 2
            return "u"
        self.pos += 2
        return simple.get(nxt, nxt)

    def scalar(self) -> JsonValue:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in ",:}]\n\r\t ":
            self.pos += 1
        word = self.text[start : self.pos]
        if word in _LITERALS:
            value, repaired = _LITERALS[word]
            if repaired:
                self.note("Python literals")
            return value
        try:
            number = float(word)
        except ValueError:
            raise JsonUnreadable(f"unexpected {word[:20]!r} at {start}") from None
        if not math.isfinite(number):
            raise JsonUnreadable(f"not a finite number: {word[:20]!r}")
        return (
            int(number)
            if number.is_integer() and "." not in word and "e" not in word.lower()
            else number
        )
