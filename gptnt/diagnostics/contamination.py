"""Contamination probes: what a model knows of the rules without the manual (paper §10.2, App. J).

Two categories. **procedural_no_manual**: the Manual VQA procedural questions asked with no
manual (the paper's Table 12). **open_recall**: short open questions with no context and no
options ("which frequency goes with *shell*?"), scored against the ruleset's answer.

Under a rule seed other than 1 the seeded rules give the right answer, and the v1 rules — what a
model may remember from the web — give another: each question then records that answer too
(``vanilla_answer`` for options, ``truth["vanilla"]`` for open questions), so a report can count
"matches the seeded rules" and "matches vanilla" apart.
"""

from __future__ import annotations

import random

from gptnt.diagnostics import manual_vqa
from gptnt.diagnostics._dataset import Question
from gptnt.diagnostics._states import Situation, situations
from gptnt.diagnostics._words import POSITIONS_6, mhz, say
from gptnt.errors import ConfigError
from gptnt.rules.modules import password as password_rules
from gptnt.rules.ruleset import V1, Ruleset


def _no_manual(q: Question, s_vanilla: str | None) -> Question:
    options = list(q.options)
    vanilla = None
    assert q.answer is not None, "a procedural question is multiple choice"
    if s_vanilla is not None and s_vanilla != options[q.answer]:
        if s_vanilla not in options:
            options.append(s_vanilla)
        vanilla = options.index(s_vanilla)
    return q.model_copy(
        update={
            "task": "contamination",
            "category": "procedural_no_manual",
            "options": tuple(options),
            "vanilla_answer": vanilla,
        }
    )


def _vanilla_say(situation: Situation, rules: Ruleset) -> str | None:
    """The instruction the v1 rules give for the same situation (None: they cannot say)."""
    if rules.rule_seed == 1:
        return None
    if situation.module.name == "Password":  # the word v1's list can spell from these columns
        spun = situation.history[0]  # each column's letters (``situations`` puts them there)
        assert isinstance(spun, tuple)
        columns = ["".join(c) for c in spun]
        words = password_rules.candidates(columns, V1.password_rules)
        return f"Submit the password {words[0]}." if len(words) == 1 else None
    try:
        steps = situation.solve(V1)
    except ConfigError:  # a seeded state v1 cannot read (a word it does not know…)
        return None
    return say(situation.module, steps, V1) if steps else None


OPEN_KINDS = ("BigButton", "Simon", "Morse", "WhosOnFirst")


def _open(rules: Ruleset, rng: random.Random, qid: str, modules: tuple[str, ...]) -> Question:
    """One open recall question: its accepted answers under ``rules`` and under v1."""
    which = rng.choice([i for i, k in enumerate(OPEN_KINDS) if k in modules])
    if which == 0:
        colour = rng.choice([*sorted(V1.big_button.strip_release), "red"])
        prompt = (
            f"In Keep Talking and Nobody Explodes, when you hold The Button and its strip "
            f"lights {colour}, on which digit of the timer do you release it? Answer with "
            "the digit only."
        )

        def digit(r: Ruleset) -> str:
            timing = r.big_button.strip_release.get(colour, r.big_button.other_release)
            return str(timing.digit) if timing.kind == "timer_has_digit" else ""

        right, vanilla, module = digit(rules), digit(V1), "BigButton"
        if not right:  # the seeded rule releases on no single digit: ask something else
            return _open(rules, rng, qid, modules)
    elif which == 1:
        vowel = rng.random() < 0.5
        strikes = rng.randrange(3)
        flash = rng.choice(("red", "blue", "green", "yellow"))
        prompt = (
            f"In Keep Talking and Nobody Explodes, Simon Says: with {strikes} strike(s) and "
            f"a serial number {'with' if vowel else 'without'} a vowel, which colour do you "
            f"press when {flash} flashes? Answer with the colour only."
        )

        def colour_of(r: Ruleset) -> str:
            return r.simon.table[(vowel, min(strikes, r.simon.max_strike_row))][flash]

        right, vanilla, module = colour_of(rules), colour_of(V1), "Simon"
    elif which == 2:
        word, freq = rng.choice(rules.morse_rules.words)
        prompt = (
            f"In Keep Talking and Nobody Explodes, Morse Code: which frequency goes with the "
            f'word "{word}"? Answer like 3.5xx MHz.'
        )
        vanilla_freq = dict(V1.morse_rules.words).get(word)
        right, module = mhz(freq), "Morse"
        vanilla = mhz(vanilla_freq) if vanilla_freq is not None else ""
    else:
        display = rng.choice(sorted(rules.whos_on_first.display_position))
        shown = "an empty display" if display == "" else f'the display word "{display}"'
        prompt = (
            f"In Keep Talking and Nobody Explodes, Who's on First, step 1: for {shown}, "
            "which button's label do you read? Answer with one of: "
            f"{', '.join(POSITIONS_6)}."
        )
        right = POSITIONS_6[rules.whos_on_first.display_position[display]]
        v1_pos = V1.whos_on_first.display_position.get(display)
        vanilla = POSITIONS_6[v1_pos] if v1_pos is not None else ""
        module = "WhosOnFirst"
    return Question(
        id=qid,
        task="contamination",
        category="open_recall",
        module=module,
        prompt=prompt,
        truth={"accept": right, "vanilla": vanilla},
    )


def build(
    counts: dict[str, int], modules: tuple[str, ...], rules: Ruleset, seed: int
) -> list[Question]:
    rng = random.Random(f"contamination:{seed}")
    questions: list[Question] = []
    n = counts.get("procedural_no_manual", 0)
    streams = {k: situations(k, rules, random.Random(f"contam:{seed}:{k}")) for k in modules}
    made = attempts = 0
    while made < n and attempts < 50 * n:
        kind = modules[attempts % len(modules)]
        attempts += 1
        situation = next(streams[kind])
        q = manual_vqa.procedural(situation, rules, rng, f"contam-procedural_no_manual-{made:04d}")
        if q is None:
            continue
        questions.append(_no_manual(q, _vanilla_say(situation, rules)))
        made += 1
    if any(k in modules for k in OPEN_KINDS):
        for i in range(counts.get("open_recall", 0)):
            questions.append(_open(rules, rng, f"contam-open_recall-{i:04d}", modules))
    return questions
