"""The Player Service: one role's seat (Defuser or Expert) in one game (see ``api``)."""

from __future__ import annotations

from gptnt.services.player._service import PARTNER, PlayerService, seat_player
from gptnt.services.player.api import PlayerServiceConfig

__all__ = ["PARTNER", "PlayerService", "PlayerServiceConfig", "seat_player"]
