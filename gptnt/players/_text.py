"""Model text as we keep it: valid Unicode, and no longer than a stated cap.

A provider can hand back text no JSON encoder accepts (a lone UTF-16 surrogate such as
``\\ud83d``, from a model cut off in the middle of an emoji) and text of any length (a model
that loops until the token cap of a generous server). Both are normalised once, where the
reply enters the player, so the parser, the conversation that is resent on every turn and the
episode record all see the same, bounded, encodable text.
"""

from __future__ import annotations

from dataclasses import dataclass

OUTPUT_CAP_CHARS = 50_000
"""Characters of one reply kept in the conversation and the record (about 12,500 tokens, over
ten times the paper's 1,000-token output cap, so only a runaway answer is ever cut)."""


def scrub(text: str) -> str:
    """``text`` with surrogate pairs joined and lone surrogates replaced by U+FFFD."""
    if text.isascii():
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


@dataclass(frozen=True)
class KeptText:
    """A reply as kept: ``text`` (scrubbed, at most ``cap`` characters) and the length of the
    reply as received (``original_chars`` > ``len(text)`` when it was cut)."""

    text: str
    original_chars: int

    @property
    def cut(self) -> bool:
        return self.original_chars > len(self.text)


def keep(text: str, cap: int = OUTPUT_CAP_CHARS) -> KeptText:
    """The reply as kept: scrubbed, and cut to its first ``cap`` characters."""
    clean = scrub(text)
    return KeptText(clean[:cap], len(clean))
