"""The bus: how the services of a game talk over Redis.

Every wait has exactly one deadline, its caller's (``within``; connections carry no socket
timeout of their own). RPC with a deadline on every call and typed remote errors (``RpcClient``/``RpcServer``),
atomically drained inboxes for the players' dialogue (``Inbox``), the game's event stream
(``EventStream``), heartbeats with a TTL and a readiness list the manager blocks on, key names namespaced per game (``GameKeys``), one ACL
user per service (``create_users``), and the Redis server itself (``EmbeddedRedis``,
``redis_url``).
"""

from __future__ import annotations

from gptnt.services.bus._acl import Credentials, create_users, delete_users
from gptnt.services.bus._deadline import REDIS_CALL_S, REDIS_DOWN, redis_lost, within
from gptnt.services.bus._env import CONFIG_ENV, child_env
from gptnt.services.bus._events import EventStream
from gptnt.services.bus._heartbeat import (
    BEAT_S,
    Heartbeat,
    HeartbeatSender,
    read_heartbeats,
    wait_ready,
)
from gptnt.services.bus._inbox import Inbox, Message
from gptnt.services.bus._keys import GameKeys, Service
from gptnt.services.bus._main import service_main
from gptnt.services.bus._rpc import DISK_FAULT, RpcClient, RpcServer
from gptnt.services.bus._server import (
    ENV_URL,
    TERMINATE_GRACE_S,
    EmbeddedRedis,
    connect,
    die_with_parent,
    free_port,
    redis_url,
)

__all__ = [
    "BEAT_S",
    "CONFIG_ENV",
    "DISK_FAULT",
    "ENV_URL",
    "REDIS_CALL_S",
    "REDIS_DOWN",
    "TERMINATE_GRACE_S",
    "Credentials",
    "EmbeddedRedis",
    "EventStream",
    "GameKeys",
    "Heartbeat",
    "HeartbeatSender",
    "Inbox",
    "Message",
    "RpcClient",
    "RpcServer",
    "Service",
    "child_env",
    "connect",
    "create_users",
    "delete_users",
    "die_with_parent",
    "free_port",
    "read_heartbeats",
    "redis_lost",
    "redis_url",
    "service_main",
    "wait_ready",
    "within",
]
