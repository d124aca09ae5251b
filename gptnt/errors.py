"""The one error tree of gptnt, split by who must act.

::

    GptntError                      base; the CLI prints ``str(err)`` on one line and exits 1
    ├── ConfigError                 you misused it: names the field and the fix
    │   ├── MissionError            a mission or suite file is malformed or unknown
    │   ├── PlayerConfigError       a player config that does not load
    │   │   └── UnknownPlayerError  no config, YAML file or ``provider:model`` by that name
    │   ├── QueryError              a query parameter is missing or not of its type
    │   ├── QueryValueError         a query parameter parsed but is out of its bounds
    │   └── UnreadableError         outside bytes that are not what they must be (too big,
    │                               torn, not UTF-8/JSON/YAML, wrong shape): names the source
    ├── ProtocolError               the game answered badly: names the route and the body
    │   ├── GameHTTPError           non-2xx status
    │   ├── GameRefusedError        HTTP 200 with a failure body (``Error: …``, ``Unknown route.``,
    │   │                           ``Please enter …``) as the shipped mod answers
    │   ├── GameTimeoutError        the deadline of a call passed
    │   └── FrameBufferError        ``/buffer`` bytes that do not match the layout
    ├── SimulatorError              the embedded game refused an input (bad action, wrong state)
    ├── BusError                    Redis transport problems
    │   ├── RemoteError             an exception raised by another service, carried over Redis
    │   └── DeadlineExceeded        an RPC got no reply before its deadline
    └── EpisodeError                an episode could not run to an outcome (becomes ``crashed``)

A model's bad output is *not* an exception: it becomes execution feedback and a record.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import ValidationError


class GptntError(Exception):
    """Base of every error gptnt raises on purpose."""


class ConfigError(GptntError):
    """Bad configuration or arguments. The message names the field and the fix."""


class MissionError(ConfigError):
    """A mission or suite file is malformed, or an id is unknown."""


class PlayerConfigError(ConfigError):
    """An unknown model, policy or player config."""


class UnknownPlayerError(PlayerConfigError):
    """A player reference that names no config, YAML file or ``provider:model`` string."""


class QueryError(ConfigError):
    """A query parameter is missing or does not parse as its type (the mod's ``Error: …``)."""

    def __init__(self, message: str, *, parameter: str) -> None:
        super().__init__(message)
        self.parameter = parameter


class QueryValueError(ConfigError):
    """A query parameter parsed but is out of its bounds (the mod's ``Please enter …``)."""

    def __init__(self, message: str, *, parameter: str | None) -> None:
        super().__init__(message)
        self.parameter = parameter
        """The parameter as the wire spells it (``timeLimit``); ``None`` if no one is at fault."""


class UnreadableError(ConfigError):
    """Bytes from outside (a file, a zip member, a message) that are too big, torn, not UTF-8,
    not JSON or YAML, or not of their type; raised by the readers of ``gptnt.bounded`` only."""


class ProtocolError(GptntError):
    """The game backend answered in a way the protocol does not allow."""

    def __init__(self, message: str, *, route: str = "", body: str = "") -> None:
        super().__init__(message)
        self.route = route
        self.body = body


class GameHTTPError(ProtocolError):
    """The game answered with a non-2xx status."""

    def __init__(self, message: str, *, route: str = "", body: str = "", status: int = 0) -> None:
        super().__init__(message, route=route, body=body)
        self.status = status


class GameRefusedError(ProtocolError):
    """The game answered HTTP 200 with a failure body, as the shipped mod does."""


class GameTimeoutError(ProtocolError):
    """A call to the game did not complete before its deadline."""


class FrameBufferError(ProtocolError):
    """``/buffer`` bytes that do not match the documented layout."""


class SimulatorError(GptntError):
    """The embedded game refused an input (unknown action, bad coordinates, wrong state)."""

    def __init__(self, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class BusError(GptntError):
    """A Redis transport problem."""


class RemoteError(BusError):
    """An exception raised in another service, carried back over Redis."""

    def __init__(self, kind: str, message: str, service: str) -> None:
        super().__init__(f"{service}: {kind}: {message}")
        self.kind = kind
        self.message = message
        self.service = service


class DeadlineExceeded(BusError):
    """An RPC got no reply before its deadline."""


class EpisodeError(GptntError):
    """An episode could not run to an outcome; it is recorded as ``crashed`` with this reason."""


class ClusterError(GptntError):
    """A suite's cluster cannot play: no game host joined it in time, or its scheduler went
    away; the run stops and a rerun resumes."""


def first_problem(
    err: ValidationError, *, whole: str, field_name: Callable[[str], str] | None = None
) -> str:
    """The first problem of a pydantic validation as one line, ``field.path: reason``.

    ``whole`` names the thing when the problem is not in one field (``file``, ``body``);
    ``field_name`` may rename the path's first part (a field's wire alias).
    """
    first = err.errors()[0]
    loc = [str(part) for part in first["loc"]]
    if loc and field_name is not None:
        loc[0] = field_name(loc[0])
    return f"{'.'.join(loc) or whole}: {reason(first)}"


def reason(detail: Mapping[str, Any]) -> str:
    """Pydantic's message of one error, without the prefix it puts before our own checks'."""
    return str(detail["msg"]).removeprefix("Value error, ")
