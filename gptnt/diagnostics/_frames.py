"""Frames worth asking about: the simulator zoomed in on a module, along oracle and random play.

As in the paper (its G.3), two agents collect trajectories — the oracle, which solves, and a
random Defuser, which strikes and wanders — on single-module bombs in sync mode (virtual time,
one action and one 3 s step at a time). Each ``Shot`` keeps the frame, its segmentation mask,
the set-of-marks built from it, and the bomb state of that moment; shots are deduplicated by
the focused module's state and capped per module kind.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from gptnt.diagnostics._words import TITLES
from gptnt.players.scripted import element_marks
from gptnt.protocol import BombState, Lifecycle, MissionConfig, ModuleState
from gptnt.rules import Edgework, oracle
from gptnt.rules.ruleset import Ruleset
from gptnt.vision import Region, SetOfMarks, build_marks

if TYPE_CHECKING:
    from gptnt.sim.game import Game

CAP_PER_MODULE = 40  # the paper samples up to 40 images per module (G.3)
MAX_ACTIONS = 40  # per trajectory


@dataclass(frozen=True)
class Shot:
    """One frame zoomed in on one module, with what the game knows about it."""

    source: str  # "oracle" or "random"
    state: BombState
    module: ModuleState
    frame: np.ndarray = field(repr=False)
    mask: np.ndarray = field(repr=False)
    marks: SetOfMarks = field(repr=False)
    labels: dict[str, str]
    """Element id → set-of-marks letter, for the elements on screen."""

    @property
    def key(self) -> str:
        """What makes two shots the same picture question-wise."""
        text = self.module.model_dump_json() + f"|{len(self.state.strikes)}"
        return hashlib.sha256(text.encode()).hexdigest()

    def colour_of(self, element: str) -> tuple[int, int, int] | None:
        """The element's flat colour in the mask."""
        label = self.labels.get(element)
        mark = self.marks.get(label) if label else None
        if mark is None:
            return None
        r, g, b = (int(c) for c in mark.region.colour)
        return r, g, b

    def region(self, element: str) -> Region | None:
        label = self.labels.get(element)
        mark = self.marks.get(label) if label else None
        return mark.region if mark else None


def _start(kind: str, seed: int, rules: Ruleset, size: tuple[int, int]) -> Game:
    from gptnt.sim.game import Game

    game = Game(
        width=size[0], height=size[1], ruleset=rules, transition_seconds=0.0, clock=lambda: 0.0
    )
    game.health()
    game.start_mission(
        MissionConfig(
            seed=seed, time_limit=900, components=[kind], is_front=True, opt_widgets=seed % 6
        )
    )
    while game.health() != Lifecycle.LIGHTS_ON.value:
        game.timestep()
    return game


def _click_at(game: Game, marks: SetOfMarks, label: str, action: str = "click") -> None:
    point = marks.click_point(label)
    if point is not None:
        game.action(action, *point)


def _shot(game: Game, source: str) -> Shot | None:
    state = game.state()
    module = state.focused
    frames = game.buffer(last=1)
    if module is None or frames.mask is None or getattr(module, "is_emerged", True) is False:
        return None
    frame = frames.frames[-1]
    marks = build_marks(frames.mask, frame, module.name)
    names = oracle.elements(module)
    by_index = element_marks(marks, len(names), module.name)
    labels = {names[i]: label for i, label in by_index.items() if i < len(names)}
    return Shot(source, state, module, frame, frames.mask, marks, labels)


def trajectory(
    kind: str, seed: int, source: str, rules: Ruleset, size: tuple[int, int] = (640, 480)
) -> Iterator[Shot]:
    """Shots along one oracle or random trajectory on a one-module bomb."""
    game = _start(kind, seed, rules, size)
    rng = random.Random(f"frames:{kind}:{seed}:{source}")
    history: list[object] = []
    frames = game.buffer(last=1)
    assert frames.mask is not None  # _start waits for the lights, when every frame has a mask
    marks = build_marks(frames.mask, frames.frames[-1], None)
    if not marks.marks:
        return
    _click_at(game, marks, marks.marks[0].label)  # zoom in on the module
    game.timestep()
    for _ in range(MAX_ACTIONS):
        if game.health() != Lifecycle.LIGHTS_ON.value:
            return
        state = game.state()
        if state.is_detonated or state.all_solved:
            return
        shot = _shot(game, source)
        if shot is None:
            game.timestep()
            continue
        yield shot
        if source == "oracle":
            steps = oracle.solve(
                shot.module,
                Edgework.from_widgets(state.widgets),
                rules,
                len(state.strikes),
                history=history,
            )
            step = steps[0] if steps else None
            if step is None:
                game.timestep()
                continue
            if step.kind == "release":
                game.action("release")
            else:
                label = shot.labels.get(step.element)
                if label is None:
                    return
                history = oracle.record(shot.module, step, history)
                _click_at(game, shot.marks, label, "hold" if step.kind == "hold" else "click")
        else:
            mark = rng.choice(shot.marks.marks)
            _click_at(game, shot.marks, mark.label, rng.choice(("click", "click", "hold")))
            if rng.random() < 0.5 and game.health() == Lifecycle.LIGHTS_ON.value:
                game.action("release")
        game.timestep()


def collect(
    kinds: tuple[str, ...],
    rules: Ruleset,
    seed: int,
    *,
    cap: int = CAP_PER_MODULE,
    size: tuple[int, int] = (640, 480),
    progress: Callable[[str], None] | None = None,
) -> dict[str, list[Shot]]:
    """Up to ``cap`` distinct shots per module kind, half oracle and half random play;
    ``progress`` is told each kind as it starts."""
    out: dict[str, list[Shot]] = {}
    for number, kind in enumerate(kinds, 1):
        if progress:
            progress(f"  frames of {kind} ({number}/{len(kinds)})")
        seen: set[str] = set()
        shots: list[Shot] = []
        rng = random.Random(f"collect:{seed}:{kind}")
        for attempt in range(cap * 4):
            if len(shots) >= cap:
                break
            source = ("oracle", "random")[attempt % 2]
            for shot in trajectory(kind, rng.randrange(1 << 30), source, rules, size):
                if shot.key in seen or not shot.labels:
                    continue
                seen.add(shot.key)
                shots.append(shot)
                if len(shots) >= cap or sum(s.source == source for s in shots) >= cap // 2 + 1:
                    break
        out[kind] = shots
    return out


Template = Callable[[Shot, random.Random], Sequence[tuple]]
"""A module kind's question templates on one shot: candidates whose first item is their
category."""


def draws(
    counts: dict[str, int],
    shots: dict[str, list[Shot]],
    templates: Mapping[str, Template],
    rng: random.Random,
    keep: Callable[[Shot, tuple], bool],
) -> Iterator[tuple[str, int, str, Shot, tuple]]:
    """``(category, index, kind, shot, candidate)``: ``counts[category]`` candidates per category,
    rotating over the module kinds, each from a random shot and accepted by ``keep``."""
    kinds = [k for k in shots if shots[k]]
    for category, n in counts.items():
        made = attempts = 0
        while made < n and attempts < 100 * n and kinds:
            kind = kinds[attempts % len(kinds)]
            attempts += 1
            shot = rng.choice(shots[kind])
            candidates = [
                c for c in templates[kind](shot, rng) if c[0] == category and keep(shot, c)
            ]
            if candidates:
                yield category, made, kind, shot, rng.choice(candidates)
                made += 1


def frame_prompt(kind: str, text: str) -> str:
    return f"The picture shows a bomb, zoomed in on one module ({TITLES[kind]}). {text}"
