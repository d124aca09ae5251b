"""The parent's side of a counterfactual replay's branch: what each seat restores, and the
check that every restored turn is exactly the parent's.

The game is not restored by copying state: the branch starts the same mission with the same
seeds and session id and replays the recorded actions at the recorded game times (the players
restore their turns, ``gptnt.players.replay``), so at the fork the game is where the parent's
was. Each restored turn's record is compared with the parent's (what it received, its output,
its action, the game's answer, the bomb clock and strikes it saw): a difference ends the branch
as crashed, naming the turn, instead of playing on from a state the parent never had.
"""

from __future__ import annotations

import os
from pathlib import Path

from gptnt.bounded import Tally
from gptnt.errors import ConfigError, EpisodeError
from gptnt.protocol import Role
from gptnt.records import EpisodeStarted, Parent, TurnEvent, read_events
from gptnt.services.manager.api import Fork
from gptnt.services.player.api import Restore

_CHECKED = ("received", "raw_output", "action", "result", "seconds_remaining", "strikes")


def parent_record(parent: Path) -> tuple[EpisodeStarted, list[TurnEvent]]:
    """The parent's first line and its turns in record order; a directory that is not an
    episode's, or a record with a line that cannot be read (a restored turn would be missing),
    fails naming it. A torn last line is the one in flight when its writer died: the turns
    before it are whole."""
    tally = Tally()
    events = list(read_events(parent, tally=tally))
    if tally.total:
        raise ConfigError(
            f"EPISODE {parent}: its record is damaged ({'; '.join(tally.lines())}); "
            "replay an intact episode"
        )
    if not events or not isinstance(events[0], EpisodeStarted):
        raise ConfigError(f"EPISODE {parent}: no episode record there (events.jsonl)")
    return events[0], [e for e in events if isinstance(e, TurnEvent)]


class Branch:
    """One fork of one parent, checked up front (``ConfigError`` for a bad turn or message)."""

    def __init__(self, fork: Fork) -> None:
        started, turns = parent_record(fork.parent)
        clock = started.conditions.clock if started.conditions else "wall"
        if started.mode == "async" and clock == "wall":
            raise ConfigError(
                f"EPISODE {fork.parent}: a wall-clock async episode cannot be restored (its "
                "game time followed the providers' latency); replay a sync or --clock virtual one"
            )
        if fork.turn > len(turns):
            raise ConfigError(
                f"--from-turn {fork.turn}: the episode has {len(turns)} turns (0 to {len(turns)})"
            )
        self.fork = fork
        self.started = started
        self._turns = turns
        self._restored = {(t.role, t.turn): t for t in turns[: fork.turn]}
        self.role_at_fork: Role | None = turns[fork.turn].role if fork.turn < len(turns) else None
        if fork.message is not None:
            if self.role_at_fork is None:
                raise ConfigError(
                    f"--message: turn {fork.turn} is past the episode's last turn; give "
                    f"--from-turn below {len(turns)}"
                )
            if any(p.seat in ("solo", "solo-no-manual") for p in started.players):
                raise ConfigError("--message: a solo player has no partner to send it to")

    def idle_pause(self) -> float | None:
        """The idle pause of a virtual-clock parent, read off its timeline (a role's next start
        is its last dispatch + the pause), so a replay under another pause is refused before it
        plays; ``None`` for any other parent or one with no role's second turn."""
        last: dict[Role, TurnEvent] = {}
        for turn in self._turns:
            before = last.get(turn.role)
            if (before is not None and before.dispatch_game_time is not None
                    and turn.game_time is not None):  # fmt: skip
                return round(turn.game_time - before.dispatch_game_time, 3)
            last[turn.role] = turn
        return None

    def restore(self, role: Role) -> Restore:
        """What ``role``'s seat restores: its turns before the fork, and the message if the
        fork is its turn."""
        return Restore(
            parent=self.fork.parent.resolve(),
            turns=sum(1 for r, _ in self._restored if r == role),
            message=self.fork.message if role == self.role_at_fork else None,
        )

    def parent(self, run_dir: Path) -> Parent:
        """The branch's link to its parent, the path relative to the branch's run directory."""
        replaced = self.fork.message is not None
        return Parent(
            episode_id=self.started.episode_id,
            path=os.path.relpath(self.fork.parent.resolve(), run_dir.resolve()),
            fork_turn=self.fork.turn,
            replaced_role=self.role_at_fork if replaced else None,
            message=self.fork.message,
        )

    def check(self, event: TurnEvent) -> None:
        """``EpisodeError`` unless a restored turn is its parent's turn in every checked field."""
        if not event.restored:
            return
        recorded = self._restored[(event.role, event.turn)]
        for name in _CHECKED:
            mine, theirs = getattr(event, name), getattr(recorded, name)
            if mine != theirs:
                raise EpisodeError(
                    f"the replay diverged at {event.role} turn {event.turn}: {name} was "
                    f"{_short(theirs)}, replayed {_short(mine)}"
                )


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."
