"""Every Redis key name of one game, in one place.

Keys are namespaced ``gptnt:{game_id}:{owner}:…`` so that an ACL key pattern per owner is enough
to fence a service in (see ``_acl.py``). RPC requests travel on one list per (server, caller), so
a server knows who is calling from the list a request arrived on, not from a self-declared field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gptnt.protocol import Role

Service = Literal["game", Role, "manager"]
"""Who owns keys of a game: the game service, a player (by its role), the manager."""
Wildcard = Literal["*"]
ANY: Wildcard = "*"
"""Given for a part of a key name, it makes the name an ACL key pattern matching any value there
(``_acl.py`` builds every user's patterns this way, so each key shape is written once, here)."""


@dataclass(frozen=True)
class GameKeys:
    """Key names for one game id."""

    game_id: str

    @property
    def prefix(self) -> str:
        return f"gptnt:{self.game_id}:"

    def owned(self, owner: Service) -> str:
        """The start of every key ``owner`` owns: its request lists, inbox, heartbeat, events."""
        return f"{self.prefix}{owner}:"

    def rpc(self, server: Service, caller: Service) -> str:
        """The request list a ``caller`` pushes onto to reach ``server``."""
        return f"{self.owned(server)}rpc:{caller}"

    def reply(self, caller: Service | Wildcard, server: Service, request_id: str) -> str:
        """The one-shot list ``server`` pushes its reply to ``caller``'s request onto. Naming
        both lets each server's ACL user reach only the replies it writes."""
        return f"{self.prefix}reply:{caller}:{server}:{request_id}"

    def inbox(self, role: Role) -> str:
        """A player's inbox: messages from its partner, oldest first."""
        return f"{self.owned(role)}inbox"

    def heartbeat(self, service: Service) -> str:
        return f"{self.owned(service)}hb"

    def ready(self, service: Service) -> str:
        """The list a service pushes one token onto when it first serves, so the manager's
        blocking pop learns it then (not at its next watchdog poll)."""
        return f"{self.owned(service)}ready"

    @property
    def events(self) -> str:
        """The game service's event stream (lifecycle changes, game over)."""
        return f"{self.owned('game')}events"

    def user(self, service: Service) -> str:
        """The Redis ACL user name of a service of this game."""
        return f"gptnt-{self.game_id}-{service}"
