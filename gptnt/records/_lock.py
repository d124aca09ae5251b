"""One writer per run directory: ``<run>/.writer.lock`` names the host and pid that hold it.

A second ``gptnt run`` or ``suite run`` on the same directory gets one line naming the holder
(and exit 2) instead of playing every episode twice and deleting the other's attempts. A lock
whose holder is a dead process on this host (a killed run) is taken over; one held from another
host is never guessed at: the message says which host, to stop it there or delete the file.
"""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path
from types import TracebackType
from typing import Self

from gptnt.bounded import read_json
from gptnt.errors import ConfigError, UnreadableError

LOCK = ".writer.lock"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive
    return True


class RunLock:
    """``with RunLock(run_dir):`` holds the run directory's lock for the block."""

    def __init__(self, run_dir: Path, *, flag: str = "--out") -> None:
        self.run_dir = run_dir
        self.path = run_dir / LOCK
        self._flag = flag
        self._held = False

    def acquire(self) -> None:
        if self.run_dir.exists() and not self.run_dir.is_dir():
            raise ConfigError(f"{self._flag} {self.run_dir}: not a directory; name a directory "
                              "(it is made if missing)")  # fmt: skip
        try:
            self.run_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:  # a file on the way, no permission, read-only
            raise ConfigError(f"{self._flag} {self.run_dir}: cannot make it ({err.strerror}); "
                              "choose another") from None  # fmt: skip
        host = socket.gethostname()
        me = {"host": host, "pid": os.getpid(), "since": time.time()}
        for _ in range(3):
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                self._take_over_if_stale(host)
                continue
            with os.fdopen(fd, "w") as out:
                json.dump(me, out)
            self._held = True
            return
        raise ConfigError(f"{self._flag} {self.run_dir}: its lock {self.path} changed hands while "
                        "taken; retry")  # fmt: skip

    def _take_over_if_stale(self, host: str) -> None:
        try:
            holder = read_json(self.path, json.loads, limit=4096)
            other_host, pid = str(holder["host"]), int(holder["pid"])
        except FileNotFoundError:
            return
        except (UnreadableError, KeyError, TypeError, ValueError):
            raise ConfigError(
                f"{self._flag} {self.run_dir}: {self.path} is not a lock gptnt wrote; if no run "
                "writes here, delete it"
            ) from None
        if other_host != host or _alive(pid):
            since = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(holder.get("since", 0))))
            raise ConfigError(
                f"{self._flag} {self.run_dir}: another run writes here (host {other_host}, pid "
                f"{pid}, since {since}); wait for it, stop it, or choose another {self._flag}"
            )
        # A dead process of this host: move its lock aside (only one taker can) and retry.
        stale = self.path.with_name(f"{LOCK}.stale.{os.getpid()}")
        try:
            os.rename(self.path, stale)
        except FileNotFoundError:
            return
        stale.unlink(missing_ok=True)

    def held(self) -> bool:
        """Whether a run holds the lock now: one of another host (never guessed at), or a live
        process of this one; a dead holder's lock, or none, is no run."""
        if not self.path.exists():
            return False
        try:
            holder = read_json(self.path, json.loads, limit=4096)
            other_host, pid = str(holder["host"]), int(holder["pid"])
        except (UnreadableError, KeyError, TypeError, ValueError):
            return True  # not ours to judge: as acquire would refuse it
        return other_host != socket.gethostname() or _alive(pid)

    def check(self) -> None:
        """Refuse now (``ConfigError``, as ``acquire`` would) when another live run holds the
        lock, before anything is printed or written; takes nothing (a dead holder's lock is
        cleared)."""
        if self.path.exists():
            self._take_over_if_stale(socket.gethostname())

    def release(self) -> None:
        if self._held:
            self.path.unlink(missing_ok=True)
            self._held = False

    def __enter__(self) -> Self:
        self.acquire()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
