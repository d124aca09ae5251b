"""The parser over 12,000 seeded, mutated model outputs: none reaches its last-resort handler.

Outputs start from the corpus and from generated actions (every kind, marks and points, huge
and non-finite numbers, escapes and surrogates in messages), then are mutated the way model
outputs go wrong: cut off anywhere, pieces of syntax inserted, spans dropped or doubled,
characters swapped. Every result must be encodable (it goes into records and is resent).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import yaml

from gptnt.players.feedback import feedback_text
from gptnt.players.parsing import ALL_KINDS, parse_output

OUTPUTS = 12_000
SEED = 18

_CORPUS = [
    case["text"]
    for case in yaml.safe_load(
        Path(__file__).with_name("parser_corpus.yaml").read_text(encoding="utf-8")
    )
]
_PIECES = [
    "<thoughts>", "</thoughts>", "<action>", "</action>", "<thought", "<ACTION ", "</action",
    "{", "}", "[", "]", '"', "'", ":", ",", "\\", "\\u", "\\ud83d", "\\ude00", "\\u12",
    "\ud83d", "\udfff", "\U0001f4a3", "\u201c", "\u2019", "null", "True", "None", "NaN",
    "Infinity", "-0", "1e999", "9" * 400, "-" + "9" * 400, "//", "/*", "*/", "#", "```json",
    "```", "\n", "\t", " ", "\x00", '"result"', '"kind"', '"data"', '"interact_game"',
    '"send_message"', '"do_nothing"', '"action"', '"location"', '"message"', '"click_release"',
    '"hold"', '"x"', '"y"', '"A"', '"ZZ"',
]  # fmt: skip
_ACTIONS = ["click_release", "hold", "release", "rotate_left", "flip", "zoom_out", "press", "x"]
_NUMBERS = [0, 12, 640.5, -3, 10**400, -(10**400), 1e308, "NaN", "Infinity", "12", True, None]
_MESSAGES = ["red wire", "\ud83d", "a\udc00b", "\U0001f4a3 boom", "\\ud83d", "", "x" * 3000]


def _action(rng: random.Random) -> str:
    kind = rng.choice(["interact_game", "send_message", "do_nothing", "Send-Message", "other"])
    data: dict[str, object] = {}
    if kind == "interact_game" or rng.random() < 0.1:
        data["action"] = rng.choice(_ACTIONS)
        if rng.random() < 0.5:
            data["location"] = rng.choice(["A", "b", "label C", 7, [1, 2], {}])
        else:
            data["location"] = {"x": rng.choice(_NUMBERS), "y": rng.choice(_NUMBERS)}
    if "message" in kind.lower() or rng.random() < 0.1:
        data["message"] = rng.choice(_MESSAGES)
    body = json.dumps({"result": {"kind": kind, "data": data}}, ensure_ascii=rng.random() < 0.5)
    # json.dumps writes NaN/Infinity bare and huge ints in full, as a model might.
    return f"<thoughts>{rng.choice(_MESSAGES)[:40]}</thoughts><action>{body}</action>"


def _mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(0, 4)):
        n = len(text)
        i = rng.randint(0, n)
        roll = rng.random()
        if roll < 0.3:
            text = text[:i]  # cut off
        elif roll < 0.6:
            text = text[:i] + rng.choice(_PIECES) + text[i:]
        elif roll < 0.75:
            text = text[:i] + text[rng.randint(i, n) :]
        elif roll < 0.85:
            j = rng.randint(i, n)
            text = text[:j] + text[i:j] + text[j:]
        else:
            text = (
                text[:i]
                + chr(rng.choice([rng.randint(0, 0x7F), rng.randint(0, 0x10FFFF)]))
                + (text[i + 1 :])
            )
    return text


def _outputs(rng: random.Random):  # type: ignore[no-untyped-def]
    for _ in range(OUTPUTS):
        base = rng.choice(_CORPUS) if rng.random() < 0.4 else _action(rng)
        yield _mutate(base, rng)


def test_no_output_reaches_the_last_resort_handler() -> None:
    rng = random.Random(SEED)
    kinds_sets = [ALL_KINDS, ("send_message", "do_nothing"), ("interact_game", "do_nothing")]
    reached: list[tuple[str, str]] = []
    codes: Counter[str] = Counter()
    for text in _outputs(rng):
        allowed = rng.choice(kinds_sets)
        result = parse_output(
            text,
            allowed=allowed,
            method=rng.choice(["set-of-marks", "coordinates"]),
            finish_reason=rng.choice([None, "stop", "length"]),
        )
        codes.update(i.code for i in result.issues)
        internal = [i.detail for i in result.issues if i.detail.startswith("internal ")]
        if internal:
            reached.append((internal[0], text[:120]))
            continue
        assert result.action.kind in allowed
        # What is kept must be storable and resendable: valid UTF-8 throughout.
        result.action.model_dump_json()
        (result.thoughts or "").encode("utf-8")
        feedback = feedback_text(result.issues)
        (feedback or "").encode("utf-8")
        if result.skipped:
            assert feedback and "skipped" in feedback
    assert reached == [], f"{len(reached)} of {OUTPUTS} outputs reached the handler: {reached[:5]}"
    # The generator reaches the interesting paths, not only one failure mode.
    for code in ("output_truncated", "action_cut_off", "off_screen", "json_repaired", "no_action"):
        assert codes[code] > 0, (code, codes)
    assert sum(1 for _ in codes) >= 15
