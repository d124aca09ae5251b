"""How an episode is played, in the paper's words: the clock's mode, the two roles, how a bomb ends.

These are the words every layer shares (missions, players, services, records), defined once
here beside the game's own vocabulary. An *episode's* outcome is a different thing from the
bomb's: the records add ``crashed`` (the harness failed, never counted as a model's loss) and
name it ``EpisodeOutcome``.
"""

from __future__ import annotations

from typing import Literal, get_args

Mode = Literal["sync", "async"]
"""How the bomb clock runs: ``sync`` pauses it while models think and steps it by a fixed game
time per Defuser turn (``/timestep``); ``async`` lets it run in real time."""
MODES: tuple[Mode, ...] = get_args(Mode)

Role = Literal["defuser", "expert"]
"""The Defuser sees the bomb and acts on it; the Expert reads the manual and can only talk."""
ROLES: tuple[Role, ...] = get_args(Role)

GameOutcome = Literal["solved", "strikeout", "timeout", "detonated"]
"""How a bomb ended: every module solved, the last strike, the timer at zero, or ``/detonate``."""
