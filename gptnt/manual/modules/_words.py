"""Small phrasings more than one module section uses."""

from __future__ import annotations

from gptnt.rules import _edgework as edge

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


def ordinal(n: int) -> str:
    """``1`` → "first"; ``-1`` → "last"."""
    return "last" if n == -1 else ORDINALS[n - 1]


def count_words(n: int) -> str:
    """``2`` → "two" (up to six; larger numbers as digits)."""
    return ("no", "one", "two", "three", "four", "five", "six")[n] if n <= 6 else str(n)


def upper_first(text: str) -> str:
    """The text with its first letter in capitals."""
    return text[:1].upper() + text[1:]


def edgework_condition(c: edge.EdgeworkCondition) -> str:
    """The wording of an edgework condition, shared by every module whose rules ask one."""
    match c:
        case edge.SerialOdd():
            return "the serial number ends in an odd digit"
        case edge.SerialStartsWithLetter():
            return "the serial number starts with a letter"
        case edge.BatteriesAbove(n):
            return f"the bomb carries more than {count_words(n)} batter{'y' if n == 1 else 'ies'}"
        case edge.LitIndicator(label):
            return f"a lit indicator labelled {label} is on the bomb"
        case edge.PortPresent(port):
            return f"the bomb has a {port} port"
        case edge.EmptyPortPlate():
            return "the bomb has an empty port plate (a plate with no port on it)"
    raise AssertionError(f"no wording for edgework condition {c!r}")
