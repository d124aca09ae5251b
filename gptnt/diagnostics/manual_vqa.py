"""Manual VQA: what an Expert must do with the manual, as multiple-choice questions (paper §9.1).

Five categories (the paper's Table G.20): **reading** a value from the manual's tables,
**element grounding** (finding a described element — a keypad column, a maze — in the manual),
**procedural** reasoning (the instruction the rules give for a described bomb; easy = one or two
lookups, hard = several steps or sub-tables), **ambiguity** (the description leaves out a fact
the answer depends on: the right option asks for it) and **hallucination** (the description
cannot occur under these rules: the right option says so).

Every answer comes from the ruleset; procedural options are carried out on a copy of the live
simulated bomb, so the right option is the only one that makes the same progress without a
strike.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, cast

from gptnt.diagnostics._dataset import Question
from gptnt.diagnostics._states import Situation, situations
from gptnt.diagnostics._words import (
    POSITIONS_6,
    TITLES,
    describe,
    describe_edgework,
    mhz,
    ordinal,
    say,
    when,
)
from gptnt.errors import ConfigError
from gptnt.protocol import (
    BigButtonModule,
    KeypadModule,
    MazeModule,
    MemoryModule,
    MorseModule,
    PasswordModule,
    SimonModule,
    VennModule,
    WhosOnFirstModule,
    WireSequenceModule,
    WiresModule,
    state_as,
)
from gptnt.rules import Edgework, Indicator, Press, Step, oracle
from gptnt.rules.modules import keypad as keypad_rules
from gptnt.rules.modules import password as password_rules
from gptnt.rules.ruleset import Ruleset

ASK_PREFIX = "Ask the Defuser first for"
IMPOSSIBLE = (
    "None of these: what is described cannot occur on this module — ask the Defuser to check again."
)
FACT_WORDS = {
    "serial": "the serial number",
    "batteries": "the number of batteries",
    "indicators": "the indicators",
    "ports": "the ports",
    "strikes": "the number of strikes",
}
INSTRUCTIONS = {
    "cut": "Cut the wire",
    "dont_cut": "Do not cut the wire",
    "serial_even": "Cut the wire if the last digit of the serial number is even",
    "parallel_port": "Cut the wire if the bomb has a parallel port",
    "two_batteries": "Cut the wire if the bomb has two or more batteries",
}


def _stem(s: Situation, rules: Ruleset, *, hide: str | None = None) -> str:
    return (
        f'The Defuser says: "{describe(s.module, rules, s.history)} '
        f'{describe_edgework(s.edgework, s.strikes, hide=hide)}"'
    )


def _question(
    qid: str,
    category: str,
    s: Situation | None,
    kind: str,
    prompt: str,
    right: str,
    wrong: list[str],
    rng: random.Random,
    truth: Mapping[str, Any] | None = None,
    **extra: object,
) -> Question | None:
    """A question with the right option shuffled among 1–7 distinct wrong ones."""
    wrong = list(dict.fromkeys(w for w in wrong if w != right))[:7]
    if not wrong:
        return None
    options = [right, *wrong]
    rng.shuffle(options)
    facts = dict(truth or {})
    if s is not None:
        facts |= {
            "module": s.module.to_wire(),
            "edgework": dataclasses.asdict(s.edgework),
            "strikes": s.strikes,
            "history": [
                dataclasses.asdict(h)
                if dataclasses.is_dataclass(h) and not isinstance(h, type)
                else h
                for h in s.history
            ],
        }
    return Question(
        id=qid,
        task="manual_vqa",
        category=category,
        module=kind,
        prompt=prompt,
        options=tuple(options),
        answer=options.index(right),
        truth=facts,
        **extra,
    )


# ----------------------------------------------------------------------------- procedural


def _alternatives(s: Situation, right: list[Step], rules: Ruleset) -> Iterator[list[Step]]:
    """Plausible wrong step lists: each mistake, one step swapped for another element, a step
    dropped, the order changed, another frequency (Morse)."""
    names = oracle.elements(s.module)
    kind = s.module.name
    if kind == "Morse":
        dial = list(rules.morse_rules.dial)
        here = dial.index(round(state_as(s.module, MorseModule).current_frequency))
        for goal in range(len(dial)):
            arrow = "right" if goal > here else "left"
            yield [*[Press(arrow)] * abs(goal - here), Press("transmit")]
        return
    if kind == "BigButton":
        from gptnt.rules import Hold, Release, Timing

        if state_as(s.module, BigButtonModule).is_held:
            for d in range(1, 6):
                yield [Release(Timing("timer_has_digit", d))]
        else:
            yield [Press("button")]
            yield [Hold("button")]
        return
    for mistake in oracle.mistakes(
        s.module, s.edgework, rules, s.strikes, history=s.oracle_history
    ):
        yield [mistake]
    presses = [(i, st) for i, st in enumerate(right) if isinstance(st, Press)]
    for i, press in presses:
        for name in names:
            if name != press.element:
                yield [*right[:i], Press(name), *right[i + 1 :]]
    if len(right) > 1:
        yield right[:-1]
        yield list(reversed(right))
        for i in range(len(right) - 1):
            yield [*right[:i], right[i + 1], right[i], *right[i + 2 :]]


def _difficulty(s: Situation, right: list[Step]) -> str:
    kind = s.module.name
    if kind in ("Maze", "WireSequence"):
        return "hard"
    if isinstance(s.module, MemoryModule) and s.module.stage > 1:
        return "hard"
    if kind in ("Simon", "Venn", "Keypad") and len(right) > 2:
        return "hard"
    return "easy"


def procedural(s: Situation, rules: Ruleset, rng: random.Random, qid: str) -> Question | None:
    kind = s.module.name
    prompt = f"{_stem(s, rules)}\nWhat should the Defuser do now, according to the manual?"
    if kind == "Password":
        columns = cast("Sequence[Sequence[str]]", s.history[0])
        goal = password_rules.candidates(["".join(c) for c in columns], rules.password_rules)
        if len(goal) != 1:
            return None
        others = [w for w in rules.password_rules.words if w != goal[0]]
        rng.shuffle(others)
        word = "Submit the password {}.".format
        return _question(
            qid,
            "procedural",
            s,
            kind,
            prompt,
            word(goal[0]),
            [word(w) for w in others[: rng.randint(2, 4)]],
            rng,
            difficulty="easy",
        )
    right = s.solve(rules)
    if not right:
        return None
    target = s.outcome(right)
    if target is None or target[0] != 0:
        return None
    right_text = say(s.module, right, rules)
    wrong: list[str] = []
    for steps in _alternatives(s, right, rules):
        text = say(s.module, steps, rules)
        if text == right_text or text in wrong:
            continue
        result = s.outcome(steps)
        if result is None or result == target:
            continue  # it would work too (or cannot be tried): not a wrong option
        wrong.append(text)
    rng.shuffle(wrong)
    return _question(
        qid,
        "procedural",
        s,
        kind,
        prompt,
        right_text,
        wrong[: rng.randint(2, 4)],
        rng,
        difficulty=_difficulty(s, right),
    )


# ----------------------------------------------------------------------------- ambiguity


def edgework_variants(edgework: Edgework, strikes: int, fact: str) -> list[tuple[Edgework, int]]:
    """Other values the hidden fact could take (the situation's own value first)."""
    replace = dataclasses.replace
    out = [(edgework, strikes)]
    match fact:
        case "serial":
            for serial in ("AB3DE4", "KT2WX7", "BQ9ZC2", "EL1XN5"):
                out.append((replace(edgework, serial=serial), strikes))
        case "batteries":
            for holders in ((), (1,), (2,), (2, 1), (2, 2, 1)):
                out.append((replace(edgework, battery_holders=holders), strikes))
        case "indicators":
            for extra in ((), (Indicator("CAR", True),), (Indicator("FRK", True),)):
                out.append((replace(edgework, indicators=extra), strikes))
        case "ports":
            for plates in ((), (("Parallel", "Serial"),)):
                out.append((replace(edgework, port_plates=plates), strikes))
        case "strikes":
            out += [(edgework, n) for n in (0, 1, 2)]
    return out


def ambiguity(s: Situation, rules: Ruleset, rng: random.Random, qid: str) -> Question | None:
    kind = s.module.name
    if kind == "Password":
        return None
    facts = list(FACT_WORDS)
    rng.shuffle(facts)
    for fact in facts:
        answers: list[str] = []
        for edgework, strikes in edgework_variants(s.edgework, s.strikes, fact):
            try:
                steps = s.solve(rules, strikes=strikes, edgework=edgework)
            except ConfigError:  # a variant the rules cannot take gives no answer
                continue
            if steps:
                answers.append(say(s.module, steps, rules))
        distinct = list(dict.fromkeys(answers))
        if len(distinct) < 2:
            continue
        prompt = (
            f"{_stem(s, rules, hide=fact)} (The Defuser has not said anything about "
            f"{FACT_WORDS[fact]}.)\nWhat should the Expert say next?"
        )
        right = f"{ASK_PREFIX} {FACT_WORDS[fact]}."
        rng.shuffle(distinct)
        return _question(
            qid, "ambiguity", s, kind, prompt, right, distinct[:4], rng, truth={"hidden": fact}
        )
    return None


# ----------------------------------------------------------------------------- hallucination


def _impossible_description(s: Situation, rules: Ruleset, rng: random.Random) -> str | None:
    """The situation's description changed so that no state of this module matches it."""
    text = describe(s.module, rules, s.history)
    match s.module:
        case WiresModule() | VennModule():
            colour = next(w.color for w in s.module.wires if w is not None).split(", ")[0]
            return text.replace(colour, rng.choice(("green", "orange", "purple")), 1)
        case BigButtonModule():
            return text.replace(
                s.module.button_word.upper(), rng.choice(("EXPLODE", "STOP", "ARM"))
            )
        case SimonModule():
            return text.replace(s.module.beep_sequence[0], rng.choice(("purple", "orange")), 1)
        case WhosOnFirstModule():
            words = [
                w
                for w in ("MAYBE", "WAIT NO", "CLOCK", "DONE!")
                if w not in rules.whos_on_first.display_position
            ]
            return text.replace(f'"{s.module.display_word}"', f'"{rng.choice(words)}"', 1)
        case MemoryModule():
            return text.replace(
                f"shows {s.module.display_number}", f"shows {rng.choice((0, 5, 7))}"
            )
        case MorseModule():
            known = {w for w, _ in rules.morse_rules.words}
            for _ in range(50):
                word = "".join(rng.choice("abcdefghiklmnorstuvwxy") for _ in range(5))
                if word not in known:
                    letters = " / ".join(rules.morse_rules.code(c) for c in word)
                    _, _, tail = text.partition(", then")
                    return f"Morse Code: the light blinks {letters}, then{tail}"
            return None
        case WireSequenceModule():
            if " to " not in text:
                return None
            for letter in "ABC":
                if f" to {letter}" in text:
                    return text.replace(f" to {letter}", " to D", 1)
            return None
        case MazeModule():
            mazes = {frozenset(m.circles) for m in rules.maze.mazes}
            for _ in range(100):
                a = (rng.randrange(6), rng.randrange(6))
                b = (rng.randrange(6), rng.randrange(6))
                if a != b and frozenset((a, b)) not in mazes:
                    circles = (
                        f"column {a[1] + 1}, row {a[0] + 1} and column {b[1] + 1}, row {b[0] + 1}"
                    )
                    _, _, tail = text.partition("; the white square")
                    return f"Maze: green circles at {circles}; the white square{tail}"
            return None
        case KeypadModule():
            return _impossible_keypad(text, s, rules, rng)
        case PasswordModule():
            return _impossible_password(s, rules, rng)
    return None


def _impossible_keypad(text: str, s: Situation, rules: Ruleset, rng: random.Random) -> str | None:
    everywhere = {sym for column in rules.keypad.columns for sym in column}
    m = state_as(s.module, KeypadModule)
    keys = (m.top_left, m.top_right, m.bottom_left, m.bottom_right)
    for _ in range(100):
        swap = rng.choice(sorted(everywhere))
        symbols: list[str] = [k.symbol for k in keys]
        symbols[rng.randrange(4)] = swap
        if len(set(symbols)) == 4 and not any(set(symbols) <= set(c) for c in rules.keypad.columns):
            new = text
            for old, sym in zip((k.symbol for k in keys), symbols, strict=True):
                if old != sym:
                    new = new.replace(f": {old}", f": {sym}", 1)
            return new
    return None


def _impossible_password(s: Situation, rules: Ruleset, rng: random.Random) -> str | None:
    columns = [list(col) for col in cast("Sequence[Sequence[str]]", s.history[0])]
    for _ in range(200):
        i = rng.randrange(len(columns))
        j = rng.randrange(len(columns[i]))
        columns[i][j] = rng.choice("QXZJV")
        if not password_rules.candidates(["".join(c) for c in columns], rules.password_rules):
            listed = "; ".join(f"column {n + 1}: {' '.join(c)}" for n, c in enumerate(columns))
            return f"Password: the columns can show these letters — {listed}."
    return None


def hallucination(s: Situation, rules: Ruleset, rng: random.Random, qid: str) -> Question | None:
    impossible = _impossible_description(s, rules, rng)
    if impossible is None or impossible == describe(s.module, rules, s.history):
        return None
    prompt = (
        f'The Defuser says: "{impossible} {describe_edgework(s.edgework, s.strikes)}"\n'
        "What should the Expert say next?"
    )
    plausible = [
        say(s.module, steps, rules)
        for steps in _alternatives(s, s.solve(rules) or [Press("x")], rules)
        if s.module.name != "Password"
    ]
    if s.module.name == "Password":
        plausible = [f"Submit the password {w}." for w in rules.password_rules.words[:20]]
    plausible = list(dict.fromkeys(plausible))
    rng.shuffle(plausible)
    return _question(
        qid,
        "hallucination",
        s,
        s.module.name,
        prompt,
        IMPOSSIBLE,
        plausible[: rng.randint(2, 4)],
        rng,
        truth={"description": impossible},
    )


# ----------------------------------------------------------------------------- reading


def reading(kind: str, rules: Ruleset, rng: random.Random, qid: str) -> Question | None:
    """A value read straight from one of the manual's tables for ``kind``."""
    make = READERS.get(kind)
    return make(rules, rng, qid) if make else None


def _read_morse(rules: Ruleset, rng: random.Random, qid: str) -> Question | None:
    words = list(rules.morse_rules.words)
    rng.shuffle(words)
    (word, freq), others = words[0], words[1:5]
    prompt = f'According to the Morse Code section, which frequency goes with the word "{word}"?'
    return _question(
        qid,
        "reading",
        None,
        "Morse",
        prompt,
        mhz(freq),
        [mhz(f) for _, f in others],
        rng,
        truth={"word": word},
    )


def _read_whos_first_position(rules: Ruleset, rng: random.Random, qid: str) -> Question | None:
    table = rules.whos_on_first.display_position
    display = rng.choice(sorted(table))
    right = POSITIONS_6[table[display]]
    shown = "(an empty display)" if display == "" else f'"{display}"'
    prompt = (
        f"Who's on First, step 1: when the display reads {shown}, which button's label "
        "must the Defuser read?"
    )
    return _question(
        qid,
        "reading",
        None,
        "WhosOnFirst",
        prompt,
        right,
        [p for p in POSITIONS_6 if p != right],
        rng,
        truth={"display": display},
    )


def _read_whos_first_list(rules: Ruleset, rng: random.Random, qid: str) -> Question | None:
    priority = rules.whos_on_first.priority
    label = rng.choice(sorted(priority))
    words = priority[label]
    n = rng.randrange(min(4, len(words)))
    right = words[n]
    wrong = [w for w in words[n + 1 :]]
    rng.shuffle(wrong)
    prompt = (
        f'Who\'s on First, step 2: in the list for the label "{label}", which word comes '
        f"{ordinal(n + 1)}?"
    )
    return _question(
        qid,
        "reading",
        None,
        "WhosOnFirst",
        prompt,
        f'"{right}"',
        [f'"{w}"' for w in wrong[:4]],
        rng,
        truth={"label": label},
    )


def _read_button_strip(rules: Ruleset, rng: random.Random, qid: str) -> Question | None:
    table = rules.big_button.strip_release
    colour = rng.choice([*sorted(table), "red"])
    timing = table.get(colour, rules.big_button.other_release)
    prompt = (
        f"The Button: the Defuser is holding the button and the strip is {colour}. When "
        "should they release it?"
    )
    from gptnt.rules import Timing

    right = when(timing).capitalize() + "."
    others = {when(Timing("timer_has_digit", d)).capitalize() + "." for d in range(1, 6)}
    others |= {when(t).capitalize() + "." for t in table.values()}
    return _question(
        qid,
        "reading",
        None,
        "BigButton",
        prompt,
        right,
        sorted(others - {right}),
        rng,
        truth={"strip": colour},
    )


def _read_simon(rules: Ruleset, rng: random.Random, qid: str) -> Question | None:
    vowel = rng.random() < 0.5
    strikes = rng.randrange(0, rules.simon.max_strike_row + 1)
    flash = rng.choice(("red", "blue", "green", "yellow"))
    right = rules.simon.table[(vowel, strikes)][flash]
    prompt = (
        f"Simon Says: the serial number {'contains' if vowel else 'has no'} vowel and there "
        f"{'is' if strikes == 1 else 'are'} {strikes} strike{'' if strikes == 1 else 's'}. "
        f"Which button must be pressed for a {flash} flash?"
    )
    return _question(
        qid,
        "reading",
        None,
        "Simon",
        prompt,
        right,
        [c for c in ("red", "blue", "green", "yellow") if c != right],
        rng,
        truth={"vowel": vowel, "strikes": strikes, "flash": flash},
    )


def _read_password(rules: Ruleset, rng: random.Random, qid: str) -> Question | None:
    words = set(rules.password_rules.words)
    right = rng.choice(sorted(words))
    fakes: list[str] = []
    while len(fakes) < 3:
        w = list(rng.choice(sorted(words)))
        w[rng.randrange(5)] = rng.choice("ABCDEFGHIJKLMNOPRSTUVWY")
        fake = "".join(w)
        if fake not in words and fake not in fakes:
            fakes.append(fake)
    prompt = "Password: which of these words is one of the manual's possible passwords?"
    return _question(qid, "reading", None, "Password", prompt, right, fakes, rng)


def _read_wire_sequence(rules: Ruleset, rng: random.Random, qid: str) -> Question | None:
    colour, letters = rng.choice(rules.wire_sequence.cut_letters)
    n = rng.randrange(len(letters))

    def fmt(x: str) -> str:
        return " or ".join(x)

    prompt = (
        f"Wire Sequence: the {ordinal(n + 1)} {colour} wire so far is cut when it is "
        "connected to which letter(s)?"
    )
    others = sorted({x for x in ("A", "B", "C", "AB", "AC", "BC", "ABC") if x != letters[n]})
    rng.shuffle(others)
    return _question(
        qid,
        "reading",
        None,
        "WireSequence",
        prompt,
        fmt(letters[n]),
        [fmt(o) for o in others[:4]],
        rng,
        truth={"colour": colour, "occurrence": n + 1},
    )


def _memory_choice(choice: object) -> str:
    from gptnt.rules.modules import memory as m

    match choice:
        case m.AtPosition(p):
            return f"Press the button in the {ordinal(p)} position."
        case m.WithLabel(label):
            return f"Press the button labelled {label}."
        case m.PositionOfStage(stage):
            return f"Press the button in the same position as in stage {stage}."
        case m.LabelOfStage(stage):
            return f"Press the button with the same label as in stage {stage}."
    raise AssertionError(choice)


def _read_memory(rules: Ruleset, rng: random.Random, qid: str) -> Question | None:
    stages = rules.memory.stages
    stage = rng.randrange(len(stages))
    display = rng.randrange(len(stages[stage]))
    right = _memory_choice(stages[stage][display])
    pool = {_memory_choice(c) for row in stages for c in row} - {right}
    wrong = sorted(pool)
    rng.shuffle(wrong)
    prompt = (
        f"Memory, stage {stage + 1}: the display shows {display + 1}. What does the manual say?"
    )
    return _question(
        qid,
        "reading",
        None,
        "Memory",
        prompt,
        right,
        wrong[:4],
        rng,
        truth={"stage": stage + 1, "display": display + 1},
    )


def _read_venn(rules: Ruleset, rng: random.Random, qid: str) -> Question | None:
    (red, blue, star, led), instruction = rng.choice(rules.venn.diagram)
    colour = {
        (False, False): "white",
        (True, False): "red",
        (False, True): "blue",
        (True, True): "red and blue",
    }[(red, blue)]
    prompt = (
        f"Complicated Wires: what does the manual say for a {colour} wire "
        f"{'with' if star else 'without'} a star and with its LED {'on' if led else 'off'}?"
    )
    right = INSTRUCTIONS[instruction]
    return _question(
        qid,
        "reading",
        None,
        "Venn",
        prompt,
        right,
        [v for v in INSTRUCTIONS.values() if v != right],
        rng,
    )


READERS: dict[str, Callable[[Ruleset, random.Random, str], Question | None]] = {
    "Morse": _read_morse,
    "WhosOnFirst": lambda r, g, q: (
        _read_whos_first_position if g.random() < 0.5 else _read_whos_first_list
    )(r, g, q),
    "BigButton": _read_button_strip,
    "Simon": _read_simon,
    "Password": _read_password,
    "WireSequence": _read_wire_sequence,
    "Memory": _read_memory,
    "Venn": _read_venn,
}


# ----------------------------------------------------------------------------- grounding


def grounding(s: Situation, rules: Ruleset, rng: random.Random, qid: str) -> Question | None:
    """Find the described element in the manual: the keypad column, the maze."""
    kind = s.module.name
    if isinstance(s.module, KeypadModule):
        symbols = [
            k.symbol
            for k in (
                s.module.top_left,
                s.module.top_right,
                s.module.bottom_left,
                s.module.bottom_right,
            )
        ]
        column = keypad_rules.column_of(symbols, rules.keypad)
        index = list(rules.keypad.columns).index(column)
        prompt = (
            f"Keypad: the Defuser sees the symbols {', '.join(symbols)}. Which column of the "
            "manual's symbol table holds all four (columns numbered from the left)?"
        )
        names = [f"Column {n + 1}" for n in range(len(rules.keypad.columns))]
        return _question(
            qid,
            "element_grounding",
            s,
            kind,
            prompt,
            names[index],
            [n for n in names if n != names[index]],
            rng,
        )
    if isinstance(s.module, MazeModule):
        cells = [(c.row, c.column) for c in s.module.circle_positions]
        maze = rules.maze.by_circles(cells)
        index = list(rules.maze.mazes).index(maze)
        circles = " and ".join(f"column {c + 1}, row {r + 1}" for r, c in cells)
        prompt = (
            f"Maze: the green circles are at {circles}. Which of the manual's mazes is it "
            "(numbered in reading order, left to right, top to bottom)?"
        )
        names = [f"Maze {n + 1}" for n in range(len(rules.maze.mazes))]
        wrong = [n for n in names if n != names[index]]
        rng.shuffle(wrong)
        return _question(qid, "element_grounding", s, kind, prompt, names[index], wrong[:4], rng)
    return None


# ----------------------------------------------------------------------------- build

SITUATED: dict[str, Callable[[Situation, Ruleset, random.Random, str], Question | None]] = {
    "procedural": procedural,
    "ambiguity": ambiguity,
    "hallucination": hallucination,
    "element_grounding": grounding,
}
GROUNDING_KINDS = ("Keypad", "Maze")


def build(
    counts: dict[str, int], modules: tuple[str, ...], rules: Ruleset, seed: int
) -> list[Question]:
    """``counts[category]`` questions per category, spread evenly over ``modules``."""
    rng = random.Random(f"manual_vqa:{seed}")
    streams = {kind: situations(kind, rules, random.Random(f"{seed}:{kind}")) for kind in modules}
    questions: list[Question] = []
    for category, n in counts.items():
        kinds = [k for k in modules if category != "element_grounding" or k in GROUNDING_KINDS]
        if category == "reading":
            kinds = [k for k in kinds if k in READERS]
        made = 0
        attempts = 0
        while made < n and kinds and attempts < 50 * n:
            kind = kinds[attempts % len(kinds)]
            attempts += 1
            qid = f"mvqa-{category}-{made:04d}"
            if category == "reading":
                q = reading(kind, rules, rng, qid)
            else:
                q = SITUATED[category](next(streams[kind]), rules, rng, qid)
            if q is not None:
                questions.append(q)
                made += 1
    return questions


__all__ = ["ASK_PREFIX", "IMPOSSIBLE", "TITLES", "build", "edgework_variants"]
