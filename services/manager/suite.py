"""A suite's episodes on a Dask distributed cluster: scheduling, the budget cap, worker loss and
exactly-once accounting. ``run_suite`` is the library's one way to play a suite
(``gptnt suite run`` is its command line).

The engine is Dask distributed (docs/suites.md says why and what it measured). Each attempt is
one task (``gptnt.services.manager.host.play_on_host``) needing one ``game`` resource; the
suite's own local cluster (one worker process per ``--games``) is the default, or the suite is
a client of a scheduler that ``gptnt worker``s on game hosts joined. The scheduler runs with
``allowed-failures`` 0, so a worker lost mid-task (SIGKILL, a host gone: a dropped connection at
once, a cut network after ``worker-ttl``) surfaces here as ``KilledWorker``: the suite records
that attempt ``crashed: worker lost`` and issues the next attempt itself.

The suite is the only writer of the run directory and its ledger the only count of attempts:
it issues every (episode key, attempt number), takes the first result of each and ignores any
later one, checks a result whole before it writes a byte of it (``gptnt.records.check``: a bad
one is refused with a logged line and the attempt counts as crashed), and decides retries and
parking from its ledger alone.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import dask
from distributed import Client, Future, KilledWorker, LocalCluster, wait
from distributed.client import FuturesCancelledError

from gptnt import telemetry
from gptnt.bounded import Tally
from gptnt.errors import ClusterError, ConfigError
from gptnt.records import (
    BundleError,
    FleetView,
    InFlight,
    Ledger,
    LedgerEntry,
    RunInfo,
    RunLock,
    check,
    episode_dir,
    harness,
    unpack,
    usd,
    write_atomic,
    write_fleet,
    write_run_info,
)
from gptnt.services.bus import redis_url as resolve_redis
from gptnt.services.manager._episode import Interrupt, unplayed_summary
from gptnt.services.manager.api import EpisodeSettings, EpisodeSpec
from gptnt.services.manager.host import (
    GAME,
    START_TOPIC,
    TURN_TOPIC,
    GameHost,
    play_on_host,
    stop_run,
)

if TYPE_CHECKING:
    from gptnt.suites import SuiteEpisode

log = logging.getLogger(__name__)

WORKER_TTL = "20s"
"""A worker not heard from for this long is lost (a cut host): the scheduler checks every
``worker-ttl``, so such a loss is noticed within twice this; a killed process at once."""
LOCAL_WORKER_TTL = "300s"
"""The same for the suite's own local cluster, whose workers are processes of this host: one that
dies drops its connection at once (there is no network to cut), so the ttl only ever catches a
worker that stopped answering, and on a loaded host that is the machine, not a loss. With 20 s,
a worker whose heartbeats stall for longer (SIGSTOP, or starved at load 15 on 2 cores) is
restarted by the scheduler through its nanny and its attempt recorded ``crashed: worker lost``
(``tests/integration/test_suites_run.py``). Long, not off: a truly frozen local worker is still
lost in bounded time (within twice this)."""
CLUSTER_CONFIG = {
    "distributed.scheduler.allowed-failures": 0,  # a lost task is the suite's to retry
    "distributed.scheduler.worker-ttl": LOCAL_WORKER_TTL,
    "distributed.worker.daemon": False,  # an episode's services are child processes
}
SCHEDULER_ENV = {
    "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0",
    "DASK_DISTRIBUTED__SCHEDULER__WORKER_TTL": WORKER_TTL,
}
"""The environment of a scheduler started on its own (``dask scheduler``) for suites: the
same policy as ``CLUSTER_CONFIG``, but with ``WORKER_TTL``: a fleet's host can be cut off
(docs/suites.md, docker-compose.yml)."""
STAGING = ".staging"
"""The local cluster's folder in the run directory (``_cluster``); only while the suite runs."""
_TICK_S = 0.5  # wall seconds between the suite's looks at its futures
_FLEET_EVERY_S = 1.0  # wall seconds between rewrites of fleet.json
_DRAIN_S = 120.0  # wall seconds the episodes in flight may take to end once stopped (bounded)
_CONNECT_S = 10.0  # wall seconds to reach a scheduler
NO_HOSTS_S = 600.0
"""Wall seconds a suite waits with no game host in its cluster (none joined, or all lost)
before it stops (``ClusterError``; a rerun resumes)."""
_NO_HOSTS_WARN_S = 30.0  # wall seconds without a game slot before the suite says so


@dataclass
class Progress:
    """What the suite run has seen so far; ``line`` is the piped progress line."""

    total: int
    spent: float = 0.0  # recorded cost, settled attempts plus the turns of episodes in play
    unpriced: bool = False  # a model call had no price: the cost is partly unknown
    cap: float | None = None
    counts: dict[str, int] = field(
        default_factory=lambda: {"solved": 0, "timeout": 0, "strikeout": 0, "crashed": 0,
                                 "parked": 0, "interrupted": 0}
    )  # fmt: skip
    settled: set[str] = field(default_factory=set)
    in_flight: list[InFlight] = field(default_factory=list)
    live_cost: dict[str, float] = field(default_factory=dict)  # key → cost of turns so far
    started: float = field(default_factory=time.monotonic)
    capped: bool = False
    unscheduled: int = 0

    @property
    def cost(self) -> float:
        return self.spent + sum(self.live_cost.values())

    @property
    def over_budget(self) -> bool:
        return self.cap is not None and self.cost >= self.cap

    def spent_text(self) -> str:
        """``$1.23``, ``$1.23 + unknown`` or ``unknown`` (nothing priced, something unpriced)."""
        if self.unpriced and not self.cost:
            return usd(None)
        return usd(self.cost, partly_unknown=self.unpriced)

    def eta(self) -> str:
        done = len(self.settled)
        if not done or done >= self.total:
            return "–"
        left = (time.monotonic() - self.started) / done * (self.total - done)
        return f"{left / 60:.0f} min" if left >= 90 else f"{left:.0f} s"

    def line(self) -> str:
        c = self.counts
        cap = f" of {self.cap:g}" if self.cap is not None else ""
        return (f"{len(self.settled)}/{self.total} done, {c['solved']} solved, {c['timeout']} "
                f"timeout, {c['strikeout']} strikeout, {c['crashed']} crashed, {c['parked']} "
                f"parked, {self.spent_text()}{cap} spent, {time.monotonic() - self.started:.0f} s, "
                f"ETA {self.eta()}")  # fmt: skip


@dataclass(frozen=True)
class SuiteOutcome:
    """How ``run_suite`` ended: ``interrupted`` names the signal that stopped it ("" if none);
    ``parked`` the episodes that crashed too often."""

    progress: Progress
    interrupted: str
    parked: list[str]


def run_suite(
    run_dir: Path,
    specs: list[EpisodeSpec],
    settings: EpisodeSettings,
    *,
    suite: str | None = None,
    estimated_cost_usd: float | None = None,
    games: int = 2,
    retries: int = 2,
    max_cost_usd: float | None = None,
    queue_depth: int | None = None,
    scheduler: str | None = None,
    redis_url: str | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> SuiteOutcome:
    """Play every episode of ``specs`` that ``run_dir``'s ledger does not count as done.

    ``scheduler``: the address of a Dask scheduler whose ``gptnt worker``s play the games;
    unset, a local cluster of ``games`` worker processes, whose games meet on ``redis_url``
    (unset: ``$GPTNT_REDIS_URL``, else an embedded server). At most ``queue_depth`` episodes
    are handed to the cluster ahead (default: its game slots), so that ``max_cost_usd`` stops
    scheduling once the recorded cost (settled attempts plus the turns in play) reaches it. A
    crashed episode is played again, as the next attempt, ``retries`` times before it is
    parked. SIGINT or SIGTERM ends the episodes in flight as ``interrupted`` (recorded; a
    rerun plays them again); a second one kills the process. ``run.json`` and ``fleet.json``
    in ``run_dir`` say how it went; ``on_progress`` is called about twice a second.
    """
    with RunLock(run_dir):  # one writer per run directory (ConfigError if another holds it)
        return _run(
            run_dir,
            specs,
            settings,
            suite,
            estimated_cost_usd,
            games,
            retries,
            max_cost_usd,
            queue_depth,
            scheduler,
            redis_url,
            on_progress,
        )


def _run(run_dir: Path, specs: list[EpisodeSpec], settings: EpisodeSettings, suite: str | None,
         estimated_cost_usd: float | None, games: int, retries: int, max_cost_usd: float | None,
         queue_depth: int | None, scheduler: str | None, redis_url: str | None,
         on_progress: Callable[[Progress], None] | None) -> SuiteOutcome:  # fmt: skip
    ledger = Ledger(run_dir)
    skipped = Tally()
    ledger.reconcile(tally=skipped)
    for line in skipped.lines():  # folders no attempt's: named, never fatal
        log.warning("suite: %s", line)
    done = ledger.done()
    todo = deque(spec.model_copy(update={"attempt": ledger.next_attempt(spec.key)})
                 for spec in specs if spec.key not in done)  # fmt: skip
    spent, unpriced = ledger.spent()
    progress = Progress(total=len(todo), spent=spent, unpriced=unpriced, cap=max_cost_usd)
    info = RunInfo(suite=suite, episodes=len(specs), estimated_cost_usd=estimated_cost_usd,
                   max_cost_usd=max_cost_usd, spent_usd=spent, unpriced=unpriced)  # fmt: skip
    write_run_info(run_dir, info)
    with (
        telemetry.running("gptnt-suite"),
        telemetry.span("suite", gptnt__suite=suite, gptnt__run=run_dir.name,
                       gptnt__episodes=len(todo)),
        _signals() as stop,
        _cluster(scheduler, games, redis_url, run_dir / STAGING) as (client, where, local),
    ):  # fmt: skip
        played = _Played(client, run_dir, settings, local, where, progress, retries + 1,
                         len(specs), telemetry.carrier())  # fmt: skip
        played.run(todo, queue_depth, stop, on_progress)
    write_run_info(run_dir, info.model_copy(update={
        "spent_usd": progress.spent, "unpriced": progress.unpriced, "capped": progress.capped,
        "unscheduled": progress.unscheduled,
    }))  # fmt: skip
    parked = sorted(k for k, e in ledger.latest().items() if e.status == "parked")
    return SuiteOutcome(progress=progress, interrupted=stop.reason, parked=parked)


def episode_spec(ep: SuiteEpisode) -> EpisodeSpec:
    """What a worker plays for one episode of the suite's grid (its key names the episode)."""
    return EpisodeSpec.make(
        ep.mission_id, ep.mode, ep.defuser, ep.expert or ep.defuser, repeat=ep.repeat,
        seed=ep.repeat, solo=ep.solo, no_manual=ep.no_manual, manual=ep.manual,
        rule_seed=ep.rule_seed, time_factor=ep.time_factor, suite=ep.suite,
    )  # fmt: skip


# ----------------------------------------------------------------------------- the cluster


@contextlib.contextmanager
def _signals() -> Iterator[Interrupt]:
    """The first SIGINT or SIGTERM sets the stop (the episodes in flight end ``interrupted``,
    their records kept); a second one leaves at once (``_abandon``)."""
    stop = Interrupt()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handle(signum: int, _frame: FrameType | None) -> None:
        name = signal.Signals(signum).name
        if stop.is_set():
            _abandon(signum, name)
        stop.set(name)
        os.write(2, f"{name}: stopping; the episodes in flight end as interrupted, their "
                    "records kept (send it again to stop at once)\n".encode())  # fmt: skip

    before = {sig: signal.signal(sig, handle) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def _abandon(signum: int, name: str) -> None:
    """A second signal: kill every process this one started (the local cluster's workers, their
    games' services, the embedded Redis) and exit now with ``128 + signum`` (130 for SIGINT),
    as a process the signal killed. The attempts in flight get no ledger line, so a rerun of
    the same command plays them again; what is recorded stays consistent (each file is written
    whole, the ledger line last) and the run's lock is taken over (its holder is dead)."""
    os.write(2, f"{name} again: stopped at once; the episodes in flight are not recorded "
                "(rerun the same command to play them)\n".encode())  # fmt: skip
    for pid in _descendants(os.getpid()):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    os._exit(128 + signum)


def _descendants(pid: int) -> list[int]:
    """Every living process below ``pid`` (read from ``/proc``)."""
    children: dict[int, list[int]] = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        with contextlib.suppress(OSError, ValueError, StopIteration):
            line = next(x for x in status.read_text().splitlines() if x.startswith("PPid:"))
            children.setdefault(int(line.split()[1]), []).append(int(status.parent.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found


@contextlib.contextmanager
def _cluster(scheduler: str | None, games: int, redis_url: str | None,
             staging: Path) -> Iterator[tuple[Client, str, GameHost | None]]:  # fmt: skip
    """A client of the cluster at ``scheduler`` (checked to leave lost tasks to the suite), or
    of a local cluster of ``games`` worker processes whose games meet on the suite's Redis and
    which stage their records, and keep Dask's scratch files, in ``staging``: inside the run
    directory, so that a killed suite leaves nothing elsewhere; what one left, this run (the
    lock's holder) removes first."""
    if scheduler is not None:
        client = _connect(scheduler)
        try:
            yield client, scheduler, None
        finally:
            client.close(timeout=_CONNECT_S)
        return
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(resolve_redis(redis_url))
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        stack.callback(shutil.rmtree, staging, ignore_errors=True)
        stack.enter_context(
            dask.config.set({**CLUSTER_CONFIG, "temporary-directory": str(staging)})
        )
        # A Ctrl-C reaches the whole process group: the workers leave it to the suite, which
        # ends their episodes in flight cleanly (they inherit SIGINT ignored).
        before = signal.signal(signal.SIGINT, signal.SIG_IGN) if _main_thread() else None
        try:
            cluster = LocalCluster(n_workers=games, threads_per_worker=1, processes=True,
                                   resources={GAME: 1}, dashboard_address=None, scheduler_port=0,
                                   worker_dashboard_address=None,
                                   silence_logs=logging.ERROR)  # fmt: skip
        finally:
            if before is not None:
                signal.signal(signal.SIGINT, before)
        stack.callback(cluster.close, timeout=_CONNECT_S)
        client = Client(cluster)
        stack.callback(client.close, timeout=_CONNECT_S)
        yield client, "local", GameHost(admin_url=url, staging=staging)


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _connect(scheduler: str) -> Client:
    try:
        client = Client(scheduler, timeout=_CONNECT_S)
    except (OSError, TimeoutError) as err:
        raise ConfigError(f"--scheduler {scheduler}: no Dask scheduler answers there ({err}); "
                          "start one (docs/suites.md, 'Many hosts')") from None  # fmt: skip

    def allowed_failures(dask_scheduler) -> int:
        return int(dask_scheduler.allowed_failures)

    allowed = client.run_on_scheduler(allowed_failures)
    if allowed != 0:
        client.close()
        raise ConfigError(
            f"--scheduler {scheduler}: the scheduler retries lost tasks itself "
            f"(allowed-failures {allowed}), so the suite could not count each attempt; start it "
            "with DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES=0"
        )
    return client


# ----------------------------------------------------------------------------- the run


@dataclass(frozen=True)
class _Issued:
    spec: EpisodeSpec
    at: float  # wall clock when it was handed to the cluster


class _Played:
    """One suite run on one cluster: hands attempts out, accounts for each exactly once."""

    def __init__(self, client: Client, run_dir: Path, settings: EpisodeSettings,
                 local: GameHost | None, where: str, progress: Progress, park_after: int,
                 episodes: int, traceparent: str | None = None) -> None:  # fmt: skip
        self.client = client
        self.run_dir = run_dir
        # This suite's run on the cluster: the run's name and a mark of this invocation, so that
        # its stop, its events and its staging on the workers are its own. By name alone, a
        # Ctrl-C stayed on every long-lived worker for the next suite of that name (a resume):
        # each of its tasks came back unplayed, for ever; two suites of one name mixed events.
        self.name = f"{run_dir.name}-{uuid.uuid4().hex[:8]}"
        self.ledger = Ledger(run_dir)
        self.settings = settings
        self.local = local
        self.where = where
        self.progress = progress
        self.park_after = park_after
        self.episodes = episodes
        self.traceparent = traceparent  # the suite's span: every episode's parent
        self.live: dict[Future, _Issued] = {}
        self.started: dict[tuple[str, int], InFlight] = {}
        self.lock = threading.Lock()  # the event handlers run on the client's thread
        self.last_fleet = 0.0
        self.no_hosts_since: float | None = None
        self.warned = False
        client.subscribe_topic(START_TOPIC, self._on_start)
        client.subscribe_topic(TURN_TOPIC, self._on_turn)

    # -------------------------------------------------------------- events (client thread)

    def _on_start(self, event: tuple[float, dict]) -> None:
        msg = event[1]
        if msg.get("run") != self.name:
            return
        # Timed by this clock, not the host's (which may be off by any amount): the event
        # reaches the suite within a tick of the start.
        flight = InFlight(key=str(msg["key"]), attempt=int(msg["attempt"]), host=str(msg["host"]),
                          worker=str(msg["name"]), started_at=time.time())  # fmt: skip
        with self.lock:
            self.started[(flight.key, flight.attempt)] = flight

    def _on_turn(self, event: tuple[float, dict]) -> None:
        msg = event[1]
        if msg.get("run") != self.name:
            return
        with self.lock:
            key = str(msg["key"])
            if msg["cost"] is None:  # a model call without a price
                self.progress.unpriced = True
                return
            self.progress.live_cost[key] = self.progress.live_cost.get(key, 0.0) + float(
                msg["cost"]
            )

    # -------------------------------------------------------------- the loop

    def run(self, todo: deque[EpisodeSpec], depth: int | None, stop: Interrupt,
            on_progress: Callable[[Progress], None] | None) -> None:  # fmt: skip
        drain_until: float | None = None
        while self.live or (todo and not self.progress.capped and not stop.is_set()):
            if stop.is_set() and drain_until is None:
                drain_until = time.monotonic() + _DRAIN_S
                with contextlib.suppress(Exception):  # a worker that is gone has nothing to end
                    self.client.run(stop_run, self.name, stop.reason, on_error="ignore")
            if drain_until is not None and time.monotonic() > drain_until:
                log.warning("suite: %d episode(s) did not end within %.0f s of the stop",
                            len(self.live), _DRAIN_S)  # fmt: skip
                self.client.cancel(list(self.live))
                break
            slots = self._slots()
            if not stop.is_set():
                self._schedule(todo, depth or max(slots, 1))
            finished = self._wait()
            for future in finished:
                self._settle(future, todo, stop)
            self._report(todo, on_progress)
        self._report(todo, on_progress, final=True)

    def _slots(self) -> int:
        """The cluster's game slots now; ``ClusterError`` after ``NO_HOSTS_S`` with none (or
        with the scheduler out of reach)."""
        try:
            slots = sum(self._hosts())
        except (OSError, TimeoutError) as err:
            slots, why = 0, f"its scheduler is out of reach ({type(err).__name__})"
        else:
            why = "no game host is in it"
        if slots:
            self.no_hosts_since = None
            return slots
        now = time.monotonic()
        if self.no_hosts_since is None:
            self.no_hosts_since, self.warned = now, False
        elif now - self.no_hosts_since > _NO_HOSTS_WARN_S and not self.warned:
            self.warned = True
            log.warning("suite: the cluster at %s has no game slot: %s; the suite stops in "
                        "%.0f s unless a game host joins", self.where, why,
                        NO_HOSTS_S - (now - self.no_hosts_since))  # fmt: skip
        if now - self.no_hosts_since > NO_HOSTS_S:
            raise ClusterError(
                f"the cluster at {self.where} had no game slot for {NO_HOSTS_S:.0f} s ({why}); "
                f"start `gptnt worker --scheduler {self.where}` on a game host, then rerun to "
                "resume"
            )
        return 0

    def _hosts(self) -> list[int]:
        """The game slots of each worker that offers any."""
        # Asked of the scheduler itself: the client's cached identity is refreshed in the
        # background without the workers, so it may have none at any moment.
        info = self.client.sync(self.client.scheduler.identity, n_workers=-1)
        workers = info.get("workers", {})
        slots = (int(w.get("resources", {}).get(GAME, 0)) for w in workers.values())
        return [n for n in slots if n]

    def _schedule(self, todo: deque[EpisodeSpec], depth: int) -> None:
        while todo and len(self.live) < depth:
            if self.progress.over_budget:
                self.progress.capped = True
                self.progress.unscheduled = len(todo)
                return
            spec = todo.popleft()
            future = self.client.submit(
                play_on_host, self.name, spec, self.settings, self.local, self.traceparent,
                key=f"{spec.key}-a{spec.attempt}-{uuid.uuid4().hex[:8]}", pure=False,
                resources={GAME: 1},
            )  # fmt: skip
            self.live[future] = _Issued(spec=spec, at=time.time())

    def _wait(self) -> list[Future]:
        if not self.live:
            time.sleep(_TICK_S)
            return []
        try:
            done, _ = wait(list(self.live), timeout=_TICK_S, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return []
        except FuturesCancelledError as err:
            # Only the cluster cancels the suite's futures (their keys are this run's): its
            # scheduler went away and took every attempt in flight with it. None is recorded,
            # so a rerun plays them again, as after a second Ctrl-C.
            reasons = ", ".join(sorted({group.reason for group in err.error_groups}))
            raise ClusterError(
                f"the cluster at {self.where} dropped the {len(self.live)} episode(s) in flight "
                f"({reasons}): its scheduler went away; rerun the same command to resume"
            ) from None
        return list(done)

    def _settle(self, future: Future, todo: deque[EpisodeSpec], stop: Interrupt) -> None:
        issued = self.live.pop(future)
        spec = issued.spec
        try:
            result: object = future.result(timeout=60)
        except KilledWorker as err:
            result = err
        except Exception as err:
            result = err
        finally:
            future.release()
        with self.lock:
            self.started.pop((spec.key, spec.attempt), None)
            self.progress.live_cost.pop(spec.key, None)
        if result is None:  # not played: the worker was stopping
            if not stop.is_set():
                todo.appendleft(spec)
            return
        entry = self._account(spec, result, issued.at)
        if entry is None:
            return
        if entry.cost_usd is None:
            self.progress.unpriced = True
        else:
            self.progress.spent += entry.cost_usd
        if entry.status in ("crashed", "interrupted"):
            self.progress.counts[entry.status] += 1
            if not stop.is_set():  # the next attempt, issued by the suite
                todo.appendleft(spec.model_copy(update={"attempt": entry.attempt + 1}))
            return
        self.progress.counts["parked" if entry.status == "parked" else entry.outcome] += 1
        self.progress.settled.add(entry.episode_key)

    def _account(self, spec: EpisodeSpec, result: object, issued_at: float) -> LedgerEntry | None:
        """The attempt's one ledger line (``None`` for a duplicate): its checked records
        written first, or a crashed summary of the suite's own when there are none to take."""
        if self.ledger.has(spec.key, spec.attempt):
            log.warning("suite: a second result for %s attempt %d ignored", spec.key, spec.attempt)
            return None
        target = episode_dir(self.run_dir, spec.key, spec.attempt)
        if isinstance(result, BaseException):
            why = (f"worker lost ({result.last_worker.name or result.last_worker.address})"
                   if isinstance(result, KilledWorker)
                   else f"worker error: {type(result).__name__}: {str(result)[:300]}")  # fmt: skip
            log.warning("suite: %s attempt %d: %s", spec.key, spec.attempt, why)
            summary = unplayed_summary(spec, why, issued_at)
            files = None
        else:
            try:
                files, summary = check(result, attempt=spec.attempt, mission_id=spec.mission_id,
                                       harness=harness())  # fmt: skip
            except BundleError as err:
                log.warning("suite: refused the result of %s attempt %d: %s", spec.key,
                            spec.attempt, err)  # fmt: skip
                summary = unplayed_summary(spec, f"bad result: {err}", issued_at)
                files = None
        if target.exists():  # an earlier suite's partial copy of this very attempt
            shutil.rmtree(target)
        target.mkdir(parents=True)
        if files is None:
            write_atomic(target / "summary.json", summary.model_dump_json(indent=2).encode())
        else:
            unpack(files, target)
        return self.ledger.settle(spec.key, summary, park_after=self.park_after)

    def _report(self, todo: deque[EpisodeSpec], on_progress: Callable[[Progress], None] | None,
                final: bool = False) -> None:  # fmt: skip
        with self.lock:
            flights = list(self.started.values())
        self.progress.in_flight = sorted(flights, key=lambda f: f.started_at)
        if on_progress is not None:
            on_progress(self.progress)
        now = time.monotonic()
        if not final and now - self.last_fleet < _FLEET_EVERY_S:
            return
        self.last_fleet = now
        flying = {(f.key, f.attempt) for f in flights}
        queued = [s.key for s in todo] + [i.spec.key for i in self.live.values()
                                          if (i.spec.key, i.spec.attempt) not in flying]  # fmt: skip
        try:
            hosts = self._hosts()
        except (OSError, TimeoutError):
            hosts = []
        latest = self.ledger.latest()
        view = FleetView(
            updated_at=time.time(), active=not final, scheduler=self.where, workers=len(hosts),
            slots=sum(hosts), episodes=self.episodes, queued=queued,
            in_flight=[] if final else self.progress.in_flight,
            done=sum(e.status == "finished" for e in latest.values()),
            parked=sum(e.status == "parked" for e in latest.values()),
        )  # fmt: skip
        write_fleet(self.run_dir, view)
