"""Small phrasings more than one module section uses."""

from __future__ import annotations

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
