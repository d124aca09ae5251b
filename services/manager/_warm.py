"""Warm service processes: a fork server that has already imported the game and player stack.

Starting a service as ``python -m gptnt.services.game`` costs an interpreter and its imports (the
simulator, the renderer, pydantic-ai) — seconds per process, three processes per episode. A
suite's workers instead start one ``WarmServer`` each: a child process that imports all of that
once, then forks a fresh child for every service of every episode. The child is a new process
with a copy of the parent's memory (fresh state per episode), runs the very same
``services.<name>`` entry point with its own arguments and its own ACL user's URL, and logs to the
episode's log file; nothing of one episode survives into the next, and a service that dies takes
nothing else with it.

Protocol on the server's stdin/stdout, one JSON object per line:

    → {"id": 1, "module": "game", "args": [...], "env": {...}, "log": "path"}
    ← {"id": 1, "pid": 12345}            (or {"id": 1, "error": "..."})
    ← {"exit": 12345, "code": 0}         (when a forked service ends; negative: by signal -N)

The server dies with its parent (``PR_SET_PDEATHSIG``) and its services die with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import selectors
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from gptnt.services.bus import TERMINATE_GRACE_S, Service, child_env, die_with_parent
from gptnt.services.manager._budget import SPAWN_S
from gptnt.services.manager._launch import exited

# What the forked services import: loaded once, in the server, before any fork. Beyond the
# entry points, what they import only on first use (the in-process simulator's server and its
# HTTP stack, the rule-seed tables, the image plugins PIL loads on its first decode, the masked
# arrays numpy loads on the first median), else paid again in every episode's child.
WARM_MODULES = (
    "gptnt.services.game.__main__",
    "gptnt.services.player.__main__",
    "gptnt.sim",
    "gptnt.sim.render",
    "gptnt.sim.server",
    "gptnt.rules.ruleseed",
    "gptnt.vision",
    "gptnt.players.model",
    "gptnt.players.backends",
    "pydantic_ai",
    "pydantic_ai.direct",
    "anyio._backends._asyncio",
    "numpy.ma",
    *(f"PIL.{name}ImagePlugin" for name in ("Bmp", "Gif", "Jpeg", "Ppm", "Png")),
)
# Packages whose every module is loaded too: the module engines and their renderers, each
# imported on first use of its kind.
WARM_PACKAGES = ("gptnt.sim.modules", "gptnt.sim.render.modules")


# ----------------------------------------------------------------------------- server side


def serve() -> None:
    """The server's main loop (runs in the server process; see the module docstring)."""
    import importlib
    import pkgutil
    import runpy

    for name in WARM_MODULES:
        with contextlib.suppress(ImportError):  # an optional extra that is not installed
            importlib.import_module(name)
    for package in WARM_PACKAGES:
        for found in pkgutil.iter_modules(importlib.import_module(package).__path__):
            importlib.import_module(f"{package}.{found.name}")
    requests = sys.stdin.buffer
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    selector = selectors.DefaultSelector()
    selector.register(requests, selectors.EVENT_READ, "request")
    selector.register(wake_r, selectors.EVENT_READ, "child")

    def send(message: dict[str, object]) -> None:
        replies.write((json.dumps(message) + "\n").encode())

    def reap() -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            send({"exit": pid, "code": os.waitstatus_to_exitcode(status)})

    buffer = b""
    while True:
        for key, _ in selector.select():
            if key.data == "child":
                with contextlib.suppress(BlockingIOError):
                    os.read(wake_r, 512)
                reap()
                continue
            chunk = os.read(requests.fileno(), 65536)
            if not chunk:  # the manager closed the pipe: done
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                request = json.loads(line)
                try:
                    log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
                except OSError as err:
                    send({"id": request["id"], "error": f"cannot open the log: {err}"})
                    continue
                pid = os.fork()
                if pid == 0:  # the service
                    code = 1
                    try:
                        signal.set_wakeup_fd(-1)
                        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                        die_with_parent()
                        null = os.open(os.devnull, os.O_RDONLY)
                        os.dup2(null, 0)
                        os.dup2(log, 1)
                        os.dup2(log, 2)
                        for fd in (null, log, wake_r, wake_w, replies.fileno()):
                            with contextlib.suppress(OSError):
                                os.close(fd)
                        sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115
                        sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
                        os.environ.clear()  # the service's environment, whole (child_env)
                        os.environ.update(request["env"])
                        sys.argv = [f"gptnt.services.{request['module']}", *request["args"]]
                        runpy.run_module(f"gptnt.services.{request['module']}", run_name="__main__")
                        code = 0
                    except SystemExit as done:
                        code = (
                            done.code
                            if isinstance(done.code, int)
                            else (0 if done.code is None else 1)
                        )
                    except BaseException:  # report it in the log, exit non-zero
                        import traceback

                        traceback.print_exc()
                    finally:
                        with contextlib.suppress(Exception):
                            sys.stdout.flush()
                            sys.stderr.flush()
                        os._exit(code)
                os.close(log)
                send({"id": request["id"], "pid": pid})


# ----------------------------------------------------------------------------- manager side


class WarmServer:
    """The manager's end: start services, learn when they exit. One per manager process; a
    thread reads the server's replies, so it serves any event loop of this process, and wakes
    the coroutines waiting for them as each line arrives (no polling)."""

    def __init__(self) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-P", "-c", "from gptnt.services.manager._warm import serve; serve()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None,
            preexec_fn=die_with_parent,  # see die_with_parent
            env=child_env(),  # no secret: each service's own come with its fork request
        )
        self._next = 0
        self._write = threading.Lock()
        self._replies: dict[int, int | str] = {}  # request id → pid, or the error
        self.exits: dict[int, int] = {}  # pid → exit code of every service that ended
        self._ended = False  # the server's replies ended: it is gone
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self._waiters_lock = threading.Lock()
        threading.Thread(target=self._read, name="warm-server-replies", daemon=True).start()

    def _read(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            message = json.loads(line)
            if "exit" in message:
                self.exits[int(message["exit"])] = int(message["code"])
            else:
                self._replies[int(message["id"])] = message.get("pid") or str(message["error"])
            self._wake()
        self._ended = True
        self._wake()

    def _wake(self) -> None:
        """Tell every waiting coroutine, in whichever event loop, that something arrived."""
        with self._waiters_lock:
            waiters = list(self._waiters)
        for loop, event in waiters:
            with contextlib.suppress(RuntimeError):  # that loop has closed meanwhile
                loop.call_soon_threadsafe(event.set)

    async def _until(self, done: Callable[[], bool], timeout_s: float) -> bool:
        """Wait until ``done()`` (checked again whenever the server says something), the
        server is gone, or ``timeout_s`` pass; ``done()`` then."""
        loop = asyncio.get_running_loop()
        waiter = (loop, asyncio.Event())
        deadline = loop.time() + timeout_s
        with self._waiters_lock:
            self._waiters.add(waiter)
        try:
            while True:
                waiter[1].clear()  # before the check: a line arriving after it sets the event
                left = deadline - loop.time()
                if done() or left <= 0 or not self.alive:
                    return done()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(left):
                        await waiter[1].wait()
        finally:
            with self._waiters_lock:
                self._waiters.discard(waiter)

    @property
    def alive(self) -> bool:
        return not self._ended and self._proc.poll() is None

    async def spawn(self, module: str, args: list[str], env: dict[str, str], log: Path) -> int:
        """Fork one service; its pid (``OSError`` if the server cannot)."""
        assert self._proc.stdin is not None
        with self._write:
            self._next += 1
            ident = self._next
            request = {"id": ident, "module": module, "args": args, "env": env, "log": str(log)}
            try:
                self._proc.stdin.write((json.dumps(request) + "\n").encode())
                self._proc.stdin.flush()
            except (OSError, ValueError):  # a broken or closed pipe: the server is gone
                raise OSError(f"the warm server is gone; cannot start {module}") from None
        if not await self._until(lambda: ident in self._replies, SPAWN_S):
            raise OSError(f"the warm server did not start {module} within {SPAWN_S:g} s")
        reply = self._replies.pop(ident)
        if isinstance(reply, str):
            raise OSError(f"the warm server could not start {module}: {reply}")
        return reply

    async def wait(self, pid: int, timeout_s: float) -> bool:
        """True once ``pid`` has exited (within ``timeout_s``)."""
        await self._until(lambda: pid in self.exits, timeout_s)
        return pid in self.exits or not self.alive

    def close(self) -> None:
        with contextlib.suppress(Exception):
            assert self._proc.stdin is not None
            self._proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=TERMINATE_GRACE_S)
        if self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()


class WarmHandle:
    """A service forked by the warm server (``gptnt.services.manager._launch.Handle``)."""

    def __init__(self, server: WarmServer, name: Service, pid: int, log_path: Path) -> None:
        self.name = name
        self._server = server
        self.pid = pid
        self._log_path = log_path

    def failure(self) -> str | None:
        code = self._server.exits.get(self.pid)
        if code is None:
            if not self._server.alive:
                return f"{self.name}: the warm server died"
            return None
        return exited(self.name, self.pid, code, self._log_path)

    async def finish(self, timeout_s: float) -> None:
        if await self._server.wait(self.pid, timeout_s):
            return
        for sig in (signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)
            if await self._server.wait(self.pid, TERMINATE_GRACE_S):
                return


_SERVER: WarmServer | None = None


def warm_server() -> WarmServer:
    """This process's warm server, started on first use (and again if it died)."""
    global _SERVER
    if _SERVER is None or not _SERVER.alive:
        _SERVER = WarmServer()
    return _SERVER
