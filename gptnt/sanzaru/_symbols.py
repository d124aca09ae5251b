"""The gesture alphabet: 42 emoji symbols, each with a name (the paper's Figure 5 lists 42; their
identity is not given, so this set is ours). None is a digit or a letter and none names a
colour: a team must give symbols a meaning before they carry one."""

from __future__ import annotations

SYMBOLS: tuple[tuple[str, str], ...] = (
    ("thumbs_up", "👍"), ("thumbs_down", "👎"), ("victory", "✌️"), ("fist", "✊"),
    ("raised_hand", "✋"), ("point_up", "👆"), ("point_down", "👇"), ("point_left", "👈"),
    ("point_right", "👉"), ("ok_hand", "👌"), ("crossed_fingers", "🤞"), ("call_me", "🤙"),
    ("clap", "👏"), ("folded_hands", "🙏"), ("horns", "🤘"), ("wave", "👋"),
    ("splayed_hand", "🖐️"), ("back_hand", "🤚"), ("point_at_you", "🫵"), ("handshake", "🤝"),
    ("heart", "❤️"), ("star", "⭐"), ("fire", "🔥"), ("droplet", "💧"), ("moon", "🌙"),
    ("sun", "☀️"), ("lightning", "⚡"), ("snowflake", "❄️"), ("apple", "🍎"), ("banana", "🍌"),
    ("grapes", "🍇"), ("clover", "🍀"), ("monkey", "🐵"), ("see_no_evil", "🙈"),
    ("hear_no_evil", "🙉"), ("speak_no_evil", "🙊"), ("check", "✅"), ("cross", "❌"),
    ("question", "❓"), ("exclamation", "❗"), ("repeat", "🔁"), ("hourglass", "⏳"),
)  # fmt: skip
NAMES = tuple(name for name, _ in SYMBOLS)
GLYPH = dict(SYMBOLS)
NAME_OF = {glyph: name for name, glyph in SYMBOLS}
assert len(SYMBOLS) == 42 and len(set(NAMES)) == 42 and len(NAME_OF) == 42


def resolve(symbols: list[str]) -> tuple[list[str], list[str]]:
    """Glyphs for symbols given by name or glyph; and the ones that are neither."""
    glyphs, unknown = [], []
    for s in symbols:
        s = str(s).strip()
        if s in GLYPH:
            glyphs.append(GLYPH[s])
        elif s in NAME_OF:
            glyphs.append(s)
        else:
            unknown.append(s[:20])
    return glyphs, unknown


def alphabet_text() -> str:
    return ", ".join(f"{glyph} {name}" for name, glyph in SYMBOLS)
