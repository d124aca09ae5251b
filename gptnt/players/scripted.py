"""Scripted players: the privileged oracle pair, random Defuser and Expert, the idle Expert, and
the oracle alone (``OracleSolo``: the oracle Defuser with the oracle Expert's rules in its head).

They are *not* models and are labelled so everywhere (``PlayerInfo.kind == "scripted"``). They
implement the same ``Policy`` interface (``gptnt.players.policy``) a model policy does: one call
per turn, given the partner's messages (and, for the Defuser, the observation with its set of
marks), returning one ``Action`` of the player vocabulary plus the text it "said".

The oracle pair really talks. The oracle Defuser reads the true bomb state (privileged: a model
Defuser sees only pixels) and *describes* the focused module in a message; the oracle Expert,
which has no game access at all, applies the ruleset (``gptnt.rules.oracle.solve``) to that
description and answers with the steps. The Defuser carries them out through set-of-marks
letters: element *i* of ``elements(module)`` is painted with mask colour HSV(i/N), so the mark
whose hue is i/N is that element. To reach a module it clicks the module's mark on the bomb
face (marks in reading order ↔ slots in row-major order) and flips the bomb for the back face.

Messages carry a human sentence and, on the last line, the JSON the partner parses::

    Defuser: "Module Wires (front slot 2), stage …: please tell me what to do.\n#4 {…}"
    Expert:  "#4: press wire-2.\n#4 [{"kind": "press", "element": "wire-2"}]"

The ``#n`` tag pairs instructions with the description they answer, so a late answer to an old
description is ignored.
"""

from __future__ import annotations

import colorsys
import hashlib
import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from gptnt.players.actions import DoNothing, InteractGame, Interaction, MarkLocation, SendMessage
from gptnt.players.policy import Decision, Policy, TurnInput
from gptnt.protocol import (
    UNLOCATED_ACTIONS,
    BombState,
    Mode,
    ModuleState,
    Role,
    Widget,
    timer_text,
)
from gptnt.rules import Edgework, Hold, Press, Release, Step, Timing, elements, solve
from gptnt.rules.oracle import record
from gptnt.rules.ruleset import Ruleset, ruleset
from gptnt.vision import SetOfMarks

# ---------------------------------------------------------------------------- helpers

_MODULE = TypeAdapter(ModuleState)
_WIDGETS = TypeAdapter(list[Widget])
_STEPS = TypeAdapter(list[Press | Hold | Release])
_STEP: TypeAdapter[Step] = TypeAdapter(Step)
_TAGGED = re.compile(r"^#(\d+) (.+)$", re.MULTILINE)
_ROTATE_TO_OTHER_FACE = "flip"


class _Scripted:
    """What every scripted player shares: it names places by set-of-marks letters and looks
    at the newest frame only (class attributes: ``_Scripted`` is no dataclass, so they are no
    fields of its dataclass subclasses)."""

    interaction: Interaction = Interaction()
    sequence_frames: int = 1


def _wait(text: str) -> Decision:
    return Decision(DoNothing(), text)


# Mask objects per element where the mod's segmentation lists more objects than elements:
# Complicated Wires colours two objects per wire holder (hues at i/12 for 6 wires).
_OBJECTS_PER_ELEMENT = {"Venn": 2}


def element_marks(marks: SetOfMarks, count: int, kind: str | None = None) -> dict[int, str]:
    """Element index → letter of a module of ``kind``, from each mark's segmentation hue
    (object j of N·k has hue j/(N·k); element i owns objects i·k … i·k + k − 1, with k the
    kind's objects per element)."""
    per_element = _OBJECTS_PER_ELEMENT.get(kind or "", 1)
    objects = count * per_element
    found: dict[int, str] = {}
    for mark in marks.marks:
        r, g, b = (c / 255 for c in mark.region.colour)
        hue = colorsys.rgb_to_hsv(r, g, b)[0]
        found.setdefault((round(hue * objects) % objects) // per_element, mark.label)
    return found


def _module_key(module: ModuleState) -> tuple[str, bool, int]:
    return (module.name, module.on_front, module.index)


def _describe(module: ModuleState) -> str:
    face = "front" if module.on_front else "back"
    return f"Module {module.name} ({face} slot {module.index})"


def _tagged(messages: list[str]) -> list[tuple[int, str]]:
    return [(int(m.group(1)), m.group(2)) for text in messages for m in _TAGGED.finditer(text)]


# ---------------------------------------------------------------------------- oracle Defuser


class _Description(BaseModel):
    module: ModuleState
    widgets: list[Widget]
    strikes: int


@dataclass
class OracleDefuser(_Scripted):
    """Privileged scripted Defuser: describes what it sees from the true state, does as told."""

    name: str = "oracle"
    privileged: bool = True
    async_margin_s: float = 0.3  # async: release only if the digit stays shown this long
    _asked: int = 0  # tag of the latest description sent
    _waiting: bool = False  # a description is out and unanswered
    _steps: list[Step] = field(default_factory=list)
    _steps_for: tuple[tuple[str, bool, int], int] | None = None  # (module key, strikes)

    async def decide(self, turn: TurnInput) -> Decision:
        self._take_instructions(turn.messages)
        obs = turn.observation
        if obs is None or obs.state is None or obs.marks is None:
            return _wait("I cannot see the bomb right now.")
        state, marks = obs.state, obs.marks
        module = state.focused
        if module is None:
            return self._find_module(state, marks)
        if module.is_solved:
            self._steps = []
            return Decision(InteractGame(action="zoom_out"), f"{_describe(module)} is solved.")
        if getattr(module, "is_emerged", True) is False:
            return _wait(f"{_describe(module)} is changing; waiting for it to settle.")
        strikes = len(state.strikes)
        if self._steps and self._steps_for == (_module_key(module), strikes):
            return self._do_step(module, state, marks, turn.mode)
        self._steps = []
        if self._waiting:
            return _wait("Waiting for the Expert's instructions.")
        return self._ask(module, state)

    def _take_instructions(self, messages: list[str]) -> None:
        for tag, payload in _tagged(messages):
            if tag != self._asked or not self._waiting:
                continue  # an answer to an older description
            try:
                self._steps = list(_STEPS.validate_json(payload))
            except ValidationError:
                continue
            self._waiting = False

    def _ask(self, module: ModuleState, state: BombState) -> Decision:
        self._asked += 1
        self._waiting = True
        self._steps_for = (_module_key(module), len(state.strikes))
        described = _Description(module=module, widgets=state.widgets, strikes=len(state.strikes))
        text = (
            f"{_describe(module)}; {len(state.strikes)} strike(s). What do I do?\n"
            f"#{self._asked} {described.model_dump_json(by_alias=True)}"
        )
        return Decision(SendMessage(message=text), text)

    def _find_module(self, state: BombState, marks: SetOfMarks) -> Decision:
        on_front = state.bomb_side == "front"
        if state.bomb_side not in ("front", "back"):
            return Decision(InteractGame(action="rotate_left"), "Turning the bomb upright.")
        here = sorted((m for m in state.modules if m.on_front == on_front), key=lambda m: m.index)
        for position, module in enumerate(here):
            if not module.is_solved and position < len(marks.marks):
                label = marks.marks[position].label
                return Decision(
                    InteractGame(action="click_release", location=MarkLocation(label=label)),
                    f"Zooming into {_describe(module)} (mark {label}).",
                )
        if any(not m.is_solved for m in state.modules):
            return Decision(
                InteractGame(action=_ROTATE_TO_OTHER_FACE), "Turning to the other face."
            )
        return _wait("Every module is solved.")

    def _do_step(
        self, module: ModuleState, state: BombState, marks: SetOfMarks, mode: Mode
    ) -> Decision:
        step = self._steps[0]
        remaining = state.timer_module.seconds_remaining
        margin = self.async_margin_s if mode == "async" else 0.0
        when = step.when if isinstance(step, Press | Release) else None
        if when is not None and not (when.holds(remaining) and when.holds(remaining - margin)):
            return _wait(f"The timer shows {timer_text(remaining)}; waiting until {_moment(when)}.")
        if isinstance(step, Release):
            self._steps.pop(0)
            return Decision(InteractGame(action="release"), f"Releasing: {_moment(step.when)}.")
        names = elements(module)
        if step.element not in names:
            self._steps = []
            return _wait(f"There is no {step.element} on {_describe(module)}.")
        label = element_marks(marks, len(names), module.name).get(names.index(step.element))
        if label is None:
            return _wait(f"I cannot see {step.element} on screen yet.")
        self._steps.pop(0)
        action = "hold" if isinstance(step, Hold) else "click_release"
        verb = "Holding" if isinstance(step, Hold) else "Pressing"
        return Decision(
            InteractGame(action=action, location=MarkLocation(label=label)),
            f"{verb} {step.element} (mark {label}) on {_describe(module)}.",
        )


# ---------------------------------------------------------------------------- oracle Expert


@dataclass
class OracleExpert(_Scripted):
    """Scripted Expert: the ruleset applied to the Defuser's description. No game access.

    Like a human Expert it remembers what it asked for on each module (Memory needs that).
    """

    name: str = "oracle"
    privileged: bool = False
    rules: Ruleset = field(default_factory=lambda: ruleset(1))
    # What it told the Defuser to press, per module: Memory's later stages depend on it, and
    # the description (like the module itself) does not show it.
    _history: dict[tuple[str, bool, int], list[object]] = field(default_factory=dict)

    async def decide(self, turn: TurnInput) -> Decision:
        latest = _tagged(turn.messages)
        if not latest:
            return _wait("No description to work from yet.")
        tag, payload = latest[-1]
        try:
            described = _Description.model_validate_json(payload)
        except ValidationError as err:
            return Decision(
                SendMessage(
                    message=f"I could not read description #{tag}: {err.errors()[0]['msg']}"
                ),
                "The description did not parse.",
            )
        module = described.module
        key = _module_key(module)
        history = self._history.get(key, [])
        steps = solve(
            module, Edgework.from_widgets(described.widgets), self.rules, described.strikes,
            history=history,
        )  # fmt: skip
        for step in steps:
            history = record(module, step, history)
        self._history[key] = history
        said = ", then ".join(_say(step) for step in steps) or "nothing: it is solved"
        text = f"#{tag}: {said}.\n#{tag} {json.dumps([_step_json(s) for s in steps])}"
        return Decision(SendMessage(message=text), text)


def _moment(when: Timing) -> str:
    """A timer moment in words, e.g. ``timer has digit 4``."""
    text = when.kind.replace("_", " ")
    return text if when.digit is None else f"{text} {when.digit}"


def _say(step: Step) -> str:
    if isinstance(step, Release):
        return f"release when {_moment(step.when)}"
    verb = "hold" if isinstance(step, Hold) else "press"
    timed = f" when {_moment(step.when)}" if isinstance(step, Press) and step.when else ""
    return f"{verb} {step.element}{timed}"


def _step_json(step: Step) -> dict[str, object]:
    return _STEP.dump_python(step, mode="json", exclude_none=True)


@dataclass
class OracleSolo(_Scripted):
    """The oracle alone with the bomb (the paper's single-agent setting, §10.2): it describes
    the module to an ``OracleExpert`` of its own and acts on the answer in the same turn."""

    name: str = "oracle"
    privileged: bool = True
    rules: Ruleset = field(default_factory=lambda: ruleset(1))
    _defuser: OracleDefuser = field(default_factory=OracleDefuser)
    _expert: OracleExpert = field(init=False)

    def __post_init__(self) -> None:
        self._expert = OracleExpert(rules=self.rules)

    async def decide(self, turn: TurnInput) -> Decision:
        decision = await self._defuser.decide(turn)
        if not isinstance(decision.action, SendMessage):
            return decision
        asked = decision.action.message
        answer = await self._expert.decide(
            TurnInput(role="expert", turn=turn.turn, mode=turn.mode, messages=[asked])
        )
        said = answer.action.message if isinstance(answer.action, SendMessage) else ""
        return await self._defuser.decide(
            TurnInput(role=turn.role, turn=turn.turn, mode=turn.mode, messages=[said],
                      observation=turn.observation)
        )  # fmt: skip


# ---------------------------------------------------------------------------- random, idle


def episode_seed(mission_id: str, seed: int, repeat: int) -> int:
    """One 64-bit seed per (mission, seed, repeat): the seed of a scripted policy's randomness.

    Every mission and every repeat gets its own random sequence (a seed of the repeat number
    alone would play the same action sequence on every mission).
    """
    digest = hashlib.sha256(f"{mission_id}\x1f{seed}\x1f{repeat}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


@dataclass
class _Random(_Scripted):
    """A random player: its draws come from its own stream, seeded by ``seed``."""

    seed: int = 0
    name: str = "random"
    privileged: bool = False
    _rng: random.Random = field(init=False)
    _stream: ClassVar[str]
    """Names the role's stream, so a Defuser and an Expert of one seed draw apart."""

    def __post_init__(self) -> None:
        self._rng = random.Random(f"{self._stream}:{self.seed}")


@dataclass
class RandomDefuser(_Random):
    """The paper's random baseline: uniform over plausible actions of the current view.

    The choices are those of the shipped mod's ``lottery`` (docs/protocol.md §6.4): click or
    hold each element that is segmented in the current view (one set-of-marks label each),
    release, zoom out and the five rotations. ``gptnt baseline random`` plays this same class
    in-process through ``choose``, so the baseline and ``--defuser random`` agree.
    """

    _stream: ClassVar[str] = "random-defuser"

    def choose(self, labels: Sequence[str]) -> InteractGame:
        """One uniform draw among the unlocated actions and click/hold of each label (marks in
        reading order, as ``build_marks`` letters them)."""
        # The draw is ``choice`` over [*UNLOCATED_ACTIONS, then click and hold of each label];
        # only the drawn one is built (``choice(seq)`` is ``seq[randrange(len(seq))]``).
        n = self._rng.randrange(len(UNLOCATED_ACTIONS) + 2 * len(labels))
        if n < len(UNLOCATED_ACTIONS):
            return InteractGame(action=UNLOCATED_ACTIONS[n])
        label, hold = divmod(n - len(UNLOCATED_ACTIONS), 2)
        location = MarkLocation(label=labels[label])
        return InteractGame(action="hold" if hold else "click_release", location=location)

    def decide_on(self, labels: Sequence[str]) -> Decision:
        """The turn's decision given the labels on screen (``decide`` without the I/O)."""
        action = self.choose(labels)
        where = f" {action.location.label}" if isinstance(action.location, MarkLocation) else ""
        return Decision(action, f"random: {action.action}{where}")

    async def decide(self, turn: TurnInput) -> Decision:
        marks = turn.observation.marks if turn.observation else None
        return self.decide_on(marks.labels if marks else ())


@dataclass
class RandomExpert(_Random):
    """A random Expert, uniform over its two action kinds: wait, or tell the Defuser to press a
    random one of the set-of-marks letters (which it never sees)."""

    _stream: ClassVar[str] = "random-expert"

    async def decide(self, turn: TurnInput) -> Decision:
        if self._rng.random() < 0.5:
            return _wait("random: wait")
        text = f"Press {self._rng.choice('ABCDEFGHIJKL')}."
        return Decision(SendMessage(message=text), f"random: {text}")


@dataclass
class IdleExpert(_Scripted):
    """An Expert that never says anything (a baseline for the Defuser alone)."""

    name: str = "idle"
    privileged: bool = False

    async def decide(self, turn: TurnInput) -> Decision:
        return _wait("idle")


# ---------------------------------------------------------------------------- lookup

SCRIPTED: dict[Role, dict[str, type]] = {
    "defuser": {"oracle": OracleDefuser, "random": RandomDefuser},
    "expert": {"oracle": OracleExpert, "idle": IdleExpert, "random": RandomExpert},
}


def scripted_policy(
    role: Role, name: str, *, seed: int = 0, solo: bool = False, rule_seed: int = 1
) -> Policy:
    """The scripted policy ``name`` for ``role`` (``solo``: alone with the bomb);
    ``PlayerConfigError`` names the choices."""
    from gptnt.errors import PlayerConfigError

    if solo and (role, name) == ("defuser", "oracle"):
        return OracleSolo(rules=ruleset(rule_seed))
    kinds = SCRIPTED[role]
    if name not in kinds:
        raise PlayerConfigError(
            f"--{role} {name!r}: no such scripted {role}; use one of {', '.join(kinds)}"
        )
    cls = kinds[name]
    if cls in (RandomDefuser, RandomExpert):
        return cls(seed=seed)
    if cls is OracleExpert:
        return cls(rules=ruleset(rule_seed))
    return cls()
