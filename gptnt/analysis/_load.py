"""Reading runs for analysis: every episode a run's records know of, counted or not.

The ledger says which attempt of each episode counts (the latest). An episode whose latest
attempt crashed (to be retried) or was parked (crashed too often) is kept with that status, and
so is an episode directory with events but no ledger line (a run killed mid-episode): the
report shows each of them and never drops them silently. Only the records are read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from gptnt.bounded import Tally
from gptnt.errors import ConfigError
from gptnt.records import (
    EPISODES,
    READABLE_VERSIONS,
    Conditions,
    EpisodeEnded,
    EpisodeStarted,
    GameStep,
    Harness,
    Ledger,
    Parent,
    PlayerInfo,
    RunInfo,
    SanzaruResult,
    SanzaruStarted,
    SanzaruTurn,
    Summary,
    TurnEvent,
    episode_folders,
    read_events,
    read_run_info,
    read_summary,
    team_label,
    usd,
)

GAME_OUTCOMES = ("solved", "timeout", "strikeout")
"""The outcomes that are the players' results; anything else is never in a rate's n."""

EpisodeStatus = Literal["finished", "crashed", "parked", "incomplete"]
"""``finished``: it has an outcome; ``crashed``: its latest attempt crashed and may be retried;
``parked``: it crashed too often; ``incomplete``: it started but has no ledger line."""


@dataclass(frozen=True)
class RecordedEpisode:
    """One episode of a run (its counted attempt) with everything its records say."""

    run: str  # the run directory's name
    dir: Path
    key: str  # the natural key: mission, mode, players, repeat
    attempt: int
    attempts: int  # attempts the ledger recorded
    status: EpisodeStatus
    started: EpisodeStarted | None
    summary: Summary | None
    turns: tuple[TurnEvent, ...]
    steps: tuple[GameStep, ...]
    ended: EpisodeEnded | None
    sanzaru_turns: tuple[SanzaruTurn, ...] = ()  # a SANZARU episode's agent turns
    sanzaru_started: SanzaruStarted | None = None  # a SANZARU episode's first event

    @property
    def sanzaru(self) -> SanzaruResult | None:
        """A SANZARU episode's own result (``None`` for a KTANE episode or no summary)."""
        return self.summary.sanzaru if self.summary else None

    @property
    def episode_id(self) -> str:
        return self.dir.name

    @property
    def mission_id(self) -> str:
        if self.summary:
            return self.summary.mission_id
        if self.sanzaru_started:
            return self.sanzaru_started.variant
        return self.started.mission_id if self.started else self.key.split(".")[0]

    @property
    def recorded_mode(self) -> str:
        """sync or async, as recorded."""
        if self.summary:
            return self.summary.mode
        if self.sanzaru_started:
            return "sync"  # SANZARU's rounds are turn-based
        return self.started.mode if self.started else "?"

    @property
    def mode(self) -> str:
        """The mode every table groups by: ``sync``, ``async`` (the wall clock, the paper's), or
        ``async, virtual clock (LATENCY)``, so the two clocks' results are never pooled."""
        c = self.conditions
        if c is not None and c.clock == "virtual":
            return f"{self.recorded_mode}, virtual clock ({c.latency})"
        return self.recorded_mode

    @property
    def parent(self) -> Parent | None:
        """A counterfactual replay's link to the episode it branched from."""
        if self.summary and self.summary.parent:
            return self.summary.parent
        return self.started.parent if self.started else None

    @property
    def players(self) -> list[PlayerInfo]:
        if self.summary:
            return self.summary.players
        return self.started.players if self.started else []

    def player(self, role: str) -> PlayerInfo | None:
        return next((p for p in self.players if p.role == role), None)

    @property
    def defuser(self) -> str:
        p = self.player("defuser")
        return p.label if p else "?"

    @property
    def expert(self) -> str:
        """The Expert's label; ``none (solo)`` when one model held both roles."""
        p = self.player("expert")
        return p.label if p else "none (solo)"

    @property
    def pairing(self) -> str:
        """The players and the episode's ``condition``; a SANZARU episode's team (its name and
        the conditions that are not the paper's)."""
        if self.sanzaru is not None:
            return f"SANZARU {self.sanzaru.label()}"
        if self.sanzaru_started is not None:  # its summary missing or unreadable
            return f"SANZARU {team_label(self.sanzaru_started)}"
        return f"{self.defuser} × {self.expert}{self.condition}"

    @property
    def condition(self) -> str:
        """Every condition that differs from the paper's defaults (a rule seed other than the v1
        manual's, a scaled clock, another manual), e.g. `` · time ×2``; empty for the paper's.
        Every table keeps episodes played under different conditions apart."""
        extra = "" if self.rule_seed == 1 else f" · rule seed {self.rule_seed}"
        c = self.conditions
        if c is not None and c.time_factor != 1.0:
            extra += f" · time ×{c.time_factor:g}"
        if c is not None and c.manual != "generated":
            extra += f" · manual {Path(c.manual).name}"
        parent = self.parent
        if parent is not None:  # a counterfactual: never pooled with played episodes
            extra += f" · replay of {parent.episode_id} from turn {parent.fork_turn}"
            if parent.message is not None:
                extra += f" ({parent.replaced_role}'s message replaced)"
        return extra

    @property
    def manual_read(self) -> str | None:
        """The manual a model read, by identity (``generated:rule-seed-1:…``,
        ``imported:<sha256>`` for the official one); ``none`` when played without one; ``None``
        when no model read one (scripted players): the exports' null."""
        read = next((p.manual for p in self.players if p.manual), None)
        if read is not None:
            return read
        c = self.conditions
        return "none" if c is not None and c.no_manual else None

    @property
    def manual_source(self) -> str | None:
        """The manual source the run gave, as the exports share it: ``generated``, or an
        imported or built manual by the identity a model read (``imported:<sha256>``); the
        recorded source is the folder on the machine that ran it, so only its name stands in
        when no model read the manual. ``None`` for records without conditions."""
        c = self.conditions
        if c is None or c.manual == "generated":
            return c.manual if c else None
        read = next((p.manual for p in self.players if p.manual), None)
        return read or Path(c.manual).name

    @property
    def manual(self) -> str:
        """``manual_read`` as tables print it: ``–`` when no model read a manual."""
        return self.manual_read or "–"

    @property
    def conditions(self) -> Conditions | None:
        """The suite settings the episode was played under (``None`` before suites recorded
        them)."""
        if self.summary and self.summary.conditions:
            return self.summary.conditions
        return self.started.conditions if self.started else None

    @property
    def rule_seed(self) -> int:
        if self.summary:
            return self.summary.rule_seed
        return self.started.rule_seed if self.started else 1

    @property
    def repeat(self) -> int:
        """The repeat index from the natural key (``….r<N>``), or a SANZARU episode's."""
        if self.sanzaru is not None:
            return self.sanzaru.repeat
        last = self.key.rsplit(".", 1)[-1]
        return int(last[1:]) if last[:1] == "r" and last[1:].isdigit() else 0

    @property
    def outcome(self) -> str:
        """solved / strikeout / timeout, or crashed (also for parked and incomplete)."""
        return self.summary.outcome if self.summary else "crashed"

    @property
    def scored(self) -> bool:
        """Counts towards success rates: an outcome of the game (solved, timeout, strikeout),
        not an infrastructure failure or a stopped run."""
        return self.status == "finished" and self.outcome in GAME_OUTCOMES

    @property
    def schema_version(self) -> int:
        """The version its first event was written under (a KTANE or a SANZARU one), else its
        summary's, else 1."""
        first = self.started or self.sanzaru_started
        if first:
            return first.schema_version
        return self.summary.schema_version if self.summary else 1

    @property
    def harness(self) -> Harness | None:
        """The harness that wrote it, from its first event (``None``: version 1 records)."""
        first = self.started or self.sanzaru_started
        return first.harness if first else None


def parent_of(e: RecordedEpisode, by_dir: dict[Path, RecordedEpisode]) -> RecordedEpisode | None:
    """A replay's parent among the loaded episodes (``by_dir``: by resolved directory), found
    by the path its link records; ``None`` for a played episode or a parent not loaded."""
    link = e.parent
    if link is None:
        return None
    return by_dir.get(_resolved(e.dir.parent.parent / link.path))


def by_dir(episodes: Sequence[RecordedEpisode]) -> dict[Path, RecordedEpisode]:
    """The episodes by resolved directory, for ``parent_of``."""
    return {_resolved(e.dir): e for e in episodes}


def _resolved(path: Path) -> Path:
    """``path`` resolved, or only made absolute where it cannot be (a symlink loop in the
    records must not stop a report)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def same_turn(a: TurnEvent | None, b: TurnEvent | None) -> bool:
    """Two records of one turn say the same: who, what it received, its output, its action and
    the game's answer (a replay's restored turns must, a branch parts where they do not)."""
    if a is None or b is None:
        return a is b
    return (a.role, a.received, a.raw_output, a.action, a.result) == (
        b.role, b.received, b.raw_output, b.action, b.result,
    )  # fmt: skip


def first_difference(a: Sequence[TurnEvent], b: Sequence[TurnEvent]) -> int | None:
    """The first turn (record order) where two episodes differ, or ``None``: none does."""
    for n in range(max(len(a), len(b))):
        if not same_turn(a[n] if n < len(a) else None, b[n] if n < len(b) else None):
            return n
    return None


@dataclass(frozen=True)
class Run:
    name: str
    dir: Path
    episodes: tuple[RecordedEpisode, ...]
    info: RunInfo | None = None  # the run's run.json (suite runs): plan, budget cap
    unreadable: tuple[str, ...] = ()
    """One line per record file with items that could not be read and were skipped
    (``2 lines unreadable in …``); every table is still made from the rest."""

    @property
    def capped(self) -> str | None:
        """A sentence saying the budget cap stopped the run, if it did."""
        info = self.info
        if info is None or not info.capped:
            return None
        return (
            f"Capped run {self.name}: the budget cap of ${info.max_cost_usd:g} stopped scheduling "
            f"at {usd(info.spent_usd, partly_unknown=info.unpriced)} recorded; {info.unscheduled} of {info.episodes} episodes "
            "were not played, so these tables cover only part of the suite."
        )


def load_run(run_dir: Path) -> Run:
    """Every episode of a run; ``ConfigError`` naming RUN_DIR when it is not a run."""
    ledger = Ledger(run_dir)
    if not ledger.path.exists() and not (run_dir / EPISODES).is_dir():
        raise ConfigError(
            f"RUN_DIR {run_dir}: no ledger.jsonl or episodes/ here; pass a run directory"
        )
    info = read_run_info(run_dir)
    tally = Tally()
    entries = list(ledger.entries(tally=tally))
    latest = {e.episode_key: e for e in entries}
    counted: dict[str, tuple[Path, int, EpisodeStatus]] = {
        # An interrupted attempt ended before its outcome, as a killed run's would: incomplete.
        key: (
            run_dir / e.episode_dir,
            e.attempt,
            "incomplete" if e.status == "interrupted" else e.status,
        )
        for key, e in latest.items()
    }
    # A directory whose key the ledger never saw: a run killed mid-episode.
    for folder, key, attempt in episode_folders(run_dir, tally):
        known = counted.get(key)
        if key not in latest and (known is None or attempt > known[1]):
            counted[key] = (folder, attempt, "incomplete")
    episodes = [
        _episode(run_dir.name, key, folder, attempt, status,
                 sum(1 for e in entries if e.episode_key == key), tally)
        for key, (folder, attempt, status) in sorted(counted.items())
    ]  # fmt: skip
    return Run(run_dir.name, run_dir, tuple(episodes), info, tuple(tally.lines()))


def load_runs(run_dirs: Sequence[Path]) -> list[Run]:
    if not run_dirs:
        raise ConfigError("RUN_DIR: give at least one run directory")
    names = [d.name for d in run_dirs]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ConfigError(f"RUN_DIR: {', '.join(twice)} given twice; each run once")
    return [load_run(d) for d in run_dirs]


def _episode(
    run: str,
    key: str,
    folder: Path,
    attempt: int,
    status: EpisodeStatus,
    attempts: int,
    tally: Tally,
) -> RecordedEpisode:
    started = None
    ended = None
    turns: list[TurnEvent] = []
    steps: list[GameStep] = []
    rounds: list[SanzaruTurn] = []
    sanzaru_started = None
    for event in read_events(folder, tally=tally):
        if isinstance(event, EpisodeStarted | SanzaruStarted):
            if event.schema_version not in READABLE_VERSIONS:
                raise ConfigError(
                    f"{folder}: record schema version {event.schema_version} is newer than "
                    f"this harness reads ({', '.join(map(str, READABLE_VERSIONS))}); upgrade gptnt"
                )
            if isinstance(event, EpisodeStarted):
                started = event
            else:
                sanzaru_started = event
        elif isinstance(event, SanzaruTurn):
            rounds.append(event)
        elif isinstance(event, TurnEvent):
            turns.append(event)
        elif isinstance(event, GameStep):
            steps.append(event)
        elif isinstance(event, EpisodeEnded):
            ended = event
    summary = read_summary(folder, tally=tally)
    return RecordedEpisode(run, folder, key, attempt, max(attempts, 1), status, started, summary,
                   tuple(turns), tuple(steps), ended, tuple(rounds), sanzaru_started)  # fmt: skip
