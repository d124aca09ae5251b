#!/usr/bin/env python3
"""Confirm our KTANE mod inside the real game, once, after installing it (docs/mod.md).

Run it against a game at the setup room:

    .venv/bin/python scripts/mod_checklist.py --game http://localhost:8085

It plays one known bomb (seed 7 by default: all eleven vanilla modules on both faces, five
optional widgets), paused, and checks what only the game can show:

1. ``/state`` on that bomb: it parses as the protocol's BombState; no module or widget carries
   ``unreadFields`` (every member read by name exists in this game); eleven modules, one of each
   kind, and the timer in twelve distinct slots (index 0–5, six per face); one serial number and
   five other widgets, each on a side of the case; no module in focus; and every module's state
   is one the manual can solve (the oracle finds its steps), which a misread field breaks —
   a keypad symbol outside one column, a Morse frequency that is not its word's, a maze whose
   circles match no maze.
2. A rotation: ``right`` → bombSide ``right``, ``left`` → ``front``, ``flip`` → ``back``,
   ``flip`` → ``front``.
3. A mask, facing front and then back: exactly N full-value colours HSV(i/N, 1, 1), N being the
   number of modules that ``/state`` puts on that face, and nothing else saturated.

It prints one line per check (``ok`` or ``FAIL`` with the expected and the seen values), then
the serial number and the module slots to compare with the screen, and leaves the game in the
setup room. Exit codes: 0 every check passed; 1 a check failed; 2 bad arguments or the game
does not answer.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import httpx
import numpy as np

from gptnt.protocol import MODULE_KINDS, BombState, decode_buffer
from gptnt.rules import V1, Edgework, solve
from gptnt.sim.render.compositor import hsv_palette

SIDES = ("top", "bottom", "left", "right")
FULL_VALUE_PIXELS = 20  # a region's flat interior; edges blend with black and are darker


@dataclass
class Checklist:
    """The outcome of each check, in order."""

    failures: list[str] = field(default_factory=list)
    count: int = 0

    def check(self, name: str, passed: bool, expected: object, seen: object) -> bool:
        self.count += 1
        print(
            f"{'ok  ' if passed else 'FAIL'} {name}"
            + ("" if passed else f": expected {expected}, saw {seen}")
        )
        if not passed:
            self.failures.append(name)
        return passed


class Game:
    """The protocol over HTTP, with the waits the checklist needs (each bounded)."""

    def __init__(self, url: str, deadline: float) -> None:
        self.http = httpx.Client(base_url=url, timeout=60)
        self.deadline = deadline

    def get(self, route: str, **params: str) -> httpx.Response:
        response = self.http.get(route, params=params)
        response.raise_for_status()
        return response

    def wait_for(self, *states: str) -> str:
        end = time.monotonic() + self.deadline
        while time.monotonic() < end:
            health = self.get("/health").text
            if health in states:
                return health
            time.sleep(0.2)
        raise TimeoutError(f"/health did not reach {' or '.join(states)} in {self.deadline:.0f} s")

    def step(self) -> None:
        self.get("/timestep")

    def state(self) -> tuple[BombState, dict]:
        body = self.get("/state").content
        return BombState.model_validate_json(body), json.loads(body)


def start(game: Game, seed: str) -> None:
    """The known bomb, at lights-on, paused (the harness's sync start)."""
    if game.get("/health").text != "Setup":
        game.get("/reset")
        game.wait_for("Setup")
    mission = {
        "seed": seed, "timeLimit": "600", "numStrikes": "3", "needyTime": "60", "isFront": "false",
        "optWidgets": "5", "components": ",".join(MODULE_KINDS), "timeScale": "1",
        "timeStepSize": "3000",
    }  # fmt: skip
    game.get("/startMission", **mission)
    game.wait_for("LightsOff")
    game.get("/settimescale", value="0")
    for _ in range(5):
        game.step()
        if game.get("/health").text == "LightsOn":
            return
    raise TimeoutError("five /timestep calls after LightsOff did not reach LightsOn")


def check_state(checks: Checklist, bomb: BombState, raw: dict) -> None:
    unread = [
        f"{item['name']}: {item['unreadFields']}"
        for item in raw["modules"] + raw["widgets"]
        if item.get("unreadFields")
    ]
    checks.check("every field read from the game (no unreadFields)", not unread, [], unread)
    names = sorted(m.name for m in bomb.modules)
    checks.check(
        "one module of each kind", names == sorted(MODULE_KINDS), sorted(MODULE_KINDS), names
    )
    places = [(m.on_front, m.index) for m in bomb.modules] + [
        (bomb.timer_module.on_front, bomb.timer_module.index)
    ]
    checks.check(
        "twelve distinct slots with the timer", len(set(places)) == 12, 12, len(set(places))
    )
    per_face = Counter(front for front, _ in places)
    checks.check(
        "six slots per face", per_face == {True: 6, False: 6}, {True: 6, False: 6}, dict(per_face)
    )
    kinds = Counter(w.name for w in bomb.widgets)
    checks.check("one serial number", kinds["SerialNumber"] == 1, 1, kinds["SerialNumber"])
    checks.check(
        "five optional widgets", len(bomb.widgets) - kinds["SerialNumber"] == 5, 5, dict(kinds)
    )
    sides = sorted({w.position for w in bomb.widgets})
    checks.check("widgets on the sides of the case", set(sides) <= set(SIDES), SIDES, sides)
    focused = [m.name for m in bomb.modules if m.in_focus]
    checks.check("no module in focus", not focused, [], focused)
    edgework, rules = Edgework.from_widgets(bomb.widgets), V1
    for module in sorted(bomb.modules, key=lambda m: m.name):
        try:
            steps = solve(module, edgework, rules, strikes=0)
            problem = None if steps else "no steps"
        except Exception as error:  # any misread state is what this reports
            problem = f"{type(error).__name__}: {error}"
        checks.check(
            f"{module.name}'s state is one the manual solves", problem is None, "steps", problem
        )


def check_rotation(checks: Checklist, game: Game) -> None:
    for action, side in (
        ("right", "right"),
        ("left", "front"),
        ("flip", "back"),
        ("flip", "front"),
    ):
        game.get("/action", action=action)
        game.step()
        seen = game.state()[0].bomb_side
        checks.check(f"{action} turns the bomb to {side}", seen == side, side, seen)


def mask_colours(game: Game) -> list[tuple[int, int, int]]:
    """The mask's full-value colours (any channel 255) covering at least a few pixels."""
    buffer = decode_buffer(game.get("/buffer").content)
    if buffer.mask is None:
        return []
    pixels = buffer.mask.reshape(-1, 3)
    full = pixels[pixels.max(axis=1) == 255]
    colours, counts = np.unique(full, axis=0, return_counts=True)
    return [
        tuple(int(c) for c in colour)
        for colour, n in zip(colours, counts)
        if n >= FULL_VALUE_PIXELS
    ]


def check_mask(checks: Checklist, game: Game) -> None:
    for face, front in (("front", True), ("back", False)):
        if face == "back":
            game.get("/action", action="flip")
            game.step()
        bomb = game.state()[0]
        n = sum(1 for m in bomb.modules if m.on_front == front)
        expected = sorted(tuple(int(c) for c in row) for row in hsv_palette(n)[1 : n + 1])
        seen = sorted(mask_colours(game))
        near = len(seen) == n and all(
            max(abs(a - b) for a, b in zip(s, e)) <= 2 for s, e in zip(seen, expected)
        )
        checks.check(f"mask facing {face}: {n} module colours", near, expected, seen)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="exit: 0 all passed, 1 a check failed, 2 bad input or no game",
    )
    parser.add_argument("--game", default="http://localhost:8085", help="the game's mod URL")
    parser.add_argument("--seed", default="7", help="the known bomb's seed (digits)")
    parser.add_argument("--deadline", type=float, default=120.0, help="seconds per lifecycle wait")
    args = parser.parse_args(argv)
    if not args.seed.isdigit():
        print(f"error: --seed must be digits, got {args.seed!r}", file=sys.stderr)
        return 2
    game = Game(args.game.rstrip("/"), args.deadline)
    try:
        game.get("/health")
    except httpx.HTTPError as error:
        print(
            f"error: --game {args.game} does not answer /health ({error}); start the game first",
            file=sys.stderr,
        )
        return 2
    checks = Checklist()
    try:
        start(game, args.seed)
        bomb, raw = game.state()
        check_state(checks, bomb, raw)
        check_rotation(checks, game)
        check_mask(checks, game)
        serial = next((w.serial_number for w in bomb.widgets if w.name == "SerialNumber"), None)
        print(
            f"compare with the screen: serial number {serial}; modules "
            + ", ".join(
                f"{m.name} {'front' if m.on_front else 'rear'} {m.index}" for m in bomb.modules
            )
        )
    except (httpx.HTTPError, TimeoutError) as error:
        print(f"error: the game stopped answering as the protocol says: {error}", file=sys.stderr)
        return 2
    finally:
        with contextlib.suppress(httpx.HTTPError):
            game.get("/reset")
    print(f"{checks.count - len(checks.failures)} of {checks.count} checks passed")
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
