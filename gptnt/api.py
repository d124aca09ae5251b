"""The public Python API: what the CLI does, callable from a script or a notebook.

``run_episode`` plays one episode (game + two players over Redis) exactly as ``gptnt run``
does; ``load_records`` reads the episode records of run directories for analysis. The CLI's
commands are parsing, one call to a function here (or to the library function it names), and
printing. See docs/api.md.

Heavy parts (the services, the simulator, pydantic-ai) are imported inside the functions, so
``import gptnt`` stays cheap.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypedDict, Unpack

if TYPE_CHECKING:
    from gptnt.analysis import Run
    from gptnt.config import Layered
    from gptnt.missions import Mission
    from gptnt.protocol import Mode, Role
    from gptnt.records import Clock, Summary, TurnEvent
    from gptnt.services.manager import EpisodeSettings, EpisodeSpec

__all__ = [
    "BaselineRun",
    "BaselineStart",
    "EpisodeOptions",
    "Starting",
    "load_records",
    "replay_episode",
    "run_baseline",
    "run_episode",
    "run_episode_async",
]


# ----------------------------------------------------------------------------- argument types


def _expect(name: str, value: object, kinds: tuple[type, ...] | str, fix: str) -> None:
    """``ConfigError`` naming the argument ``name`` unless ``value`` is one of ``kinds`` (``bool``
    is never a whole number here; ``"callable"``: a function). A notebook passes what it has
    (``3`` for ``"3"``); the types are checked before anything else reads them."""
    if kinds == "callable":
        ok = callable(value)
    else:
        assert isinstance(kinds, tuple)
        ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if not ok:
        raise _wrong(name, value, fix)


def _wrong(name: str, value: object, fix: str) -> Exception:
    from gptnt.errors import ConfigError

    if value is None:
        return ConfigError(f"{name}: None; {fix}")
    shown = repr(value) if isinstance(value, str | int | float | Path) else ""
    kind = type(value).__name__
    what = f"{shown} is a{'n' if kind[0] in 'aeiou' else ''} {kind}" if shown else f"a {kind}"
    return ConfigError(f"{name}: {what}; {fix}")


def _path(value: Path | str | None) -> Path | None:
    """A path argument as a ``Path``: ``_expect`` lets a notebook's text through for it."""
    return None if value is None else Path(value)


def _expect_episode_options(mission: object, options: Mapping[str, object]) -> None:
    from gptnt.config import Layered

    _expect("mission", mission, (str,), "give a mission id as text, e.g. '3' or 'Wires-234'")
    text = (str,)
    for name in ("defuser", "expert", "defuser_base_url", "expert_base_url", "solo", "latency",
                 "clock"):  # fmt: skip
        if options.get(name) is not None:
            _expect(name, options[name], text, "give it as text")
    if options.get("settings") is not None:
        _expect("settings", options["settings"], (Mapping,),
                "give a mapping of dotted keys, e.g. {'records.out': 'runs'}")  # fmt: skip
    if options.get("config") is not None:
        _expect("config", options["config"], (Path, str, Layered),
                "give a YAML file's path or a gptnt.config.Layered")  # fmt: skip
    if options.get("pools") is not None:
        _expect("pools", options["pools"], (Path, str), "give the word pools file's path")
    _expect("no_manual", options.get("no_manual", False), (bool,), "give True or False")
    for name in ("on_start", "on_turn"):
        if options.get(name) is not None:
            _expect(name, options[name], "callable", "give a function")


@dataclass(frozen=True)
class Starting:
    """What an episode is about to play (handed to ``on_start`` before any service starts)."""

    mission: Mission
    spec: EpisodeSpec
    players: str
    """The line-up in words, e.g. ``defuser oracle, expert oracle``."""
    run_dir: Path
    """Where its records are written."""


OnStart = Callable[[Starting], None]
OnTurn = Callable[["EpisodeSpec", "TurnEvent"], None]


class EpisodeOptions(TypedDict, total=False):
    """The keyword arguments of ``run_episode`` and ``run_episode_async`` (each optional)."""

    defuser: str | None
    expert: str | None
    defuser_base_url: str | None
    expert_base_url: str | None
    solo: str | None
    no_manual: bool
    pools: Path | None
    clock: Clock
    latency: str | None
    config: Layered | Path | None
    settings: Mapping[str, object] | None
    on_start: OnStart | None
    on_turn: OnTurn | None


def run_episode(mission: str, mode: Mode = "async", **options: Unpack[EpisodeOptions]) -> Summary:
    """Play one episode to its end and return its summary (records are in ``run_dir`` under
    ``records.out``). Never raises for a game-level failure: a crash is ``outcome="crashed"``.

    Players are named as for ``gptnt run``: ``oracle``, ``random``, ``idle``, a player config
    (``claude-sonnet-4-6``), a YAML file or a pydantic-ai model string (any provider
    pydantic-ai knows: ``azure:gpt-4o``, ``ollama:qwen3``, …); ``defuser_base_url`` /
    ``expert_base_url`` point a model at another endpoint (an OpenAI-compatible server's
    ``…/v1``; ``OPENAI_BASE_URL`` does so for every ``openai:`` model). ``solo`` names one model
    that holds bomb and manual (the paper's ablation; ``no_manual`` takes the manual away).
    ``clock="virtual"`` (async only) advances game time by the ``latency`` model instead of wall
    time: ``measured``, ``fixed:SECONDS`` or ``tokens`` (docs/virtual-clock.md).
    Settings are layered as everywhere: defaults < ``config`` (a YAML file, or a ``Layered``
    from ``gptnt.config.load_config``) < ``GPTNT_*`` variables < ``settings`` (dotted keys,
    e.g. ``{"records.out": "runs", "game.backend": "sim"}``) < ``defuser``/``expert``.
    ``on_start`` hears what is about to play once every input is checked, ``on_turn`` each turn.
    Bad input raises ``gptnt.errors.ConfigError`` (one line naming the field) before anything
    starts. In a running event loop (a notebook) use ``await run_episode_async(...)``.
    """
    import asyncio

    return asyncio.run(run_episode_async(mission, mode, handle_signals=True, **options))


async def run_episode_async(
    mission: str,
    mode: Mode = "async",
    *,
    handle_signals: bool = False,
    **options: Unpack[EpisodeOptions],
) -> Summary:
    """``run_episode`` in a running event loop. ``handle_signals``: the first SIGINT or SIGTERM
    ends the episode as ``interrupted`` (services stopped, summary written)."""
    from gptnt.records import RunLock
    from gptnt.services.bus import redis_url as resolve_redis
    from gptnt.services.manager import Interrupt, play_episode

    _expect_episode_options(mission, options)
    o = options
    urls = {"defuser_base_url": o.get("defuser_base_url"),
            "expert_base_url": o.get("expert_base_url")}  # fmt: skip
    layered = _layered(o.get("config"), o.get("settings"), defuser=o.get("defuser"),
                       expert=o.get("expert"), **urls)  # fmt: skip
    prepared = await _prepare(
        mode, layered, mission, o.get("solo"), o.get("no_manual", False), _path(o.get("pools")),
        o.get("clock", "wall"), o.get("latency"),
    )  # fmt: skip
    on_start = o.get("on_start")
    if on_start is not None:
        on_start(prepared.starting)
    interrupt = Interrupt()
    if handle_signals:
        interrupt.install()
    # One writer per run directory (a second gets one line and exit 2), for the whole episode.
    from gptnt import telemetry

    lock = RunLock(prepared.starting.run_dir)
    with telemetry.running("gptnt"), lock, resolve_redis(layered.config.bus.redis_url) as url:
        return await play_episode(
            prepared.starting.spec, prepared.settings, admin_url=url,
            run_dir=prepared.starting.run_dir, on_turn=o.get("on_turn"), interrupt=interrupt,
        )  # fmt: skip


@dataclass(frozen=True)
class _Prepared:
    starting: Starting
    settings: EpisodeSettings


async def _prepare(
    mode: str, layered: Layered, mission: str, solo: str | None, no_manual: bool,
    pools: Path | None, clock: Clock, latency: str | None,
) -> _Prepared:  # fmt: skip
    """Every input checked, cheapest first, and every endpoint probed: one ``ConfigError``
    line naming the field and the fix before any service starts."""
    from gptnt.errors import ConfigError
    from gptnt.missions import get_mission
    from gptnt.players.seats import attach_manual, resolve_lineup
    from gptnt.preflight import Needs, check_inputs, probe, use_rule_seed
    from gptnt.protocol import MODES, ROLES
    from gptnt.services.manager import EpisodeSettings, EpisodeSpec, check_turns

    if mode not in MODES:
        raise ConfigError(f"--mode {mode!r}: use sync or async")
    latency = _check_clock(clock, latency, mode)
    cfg = layered.config
    if solo is not None:  # one model holds both roles: a Defuser or Expert set anywhere clashes
        for key in ("players.defuser", "players.expert"):
            if key in layered.sources:
                raise ConfigError(f"--solo: one model holds both roles; drop {layered.named(key)}")
    names = (None, None) if solo is not None else (cfg.players.defuser, cfg.players.expert)
    manual = cfg.players.manual
    needs = Needs(game=cfg.game.backend, redis_url=cfg.bus.redis_url, out=cfg.records.out)
    check_inputs(needs)
    found = get_mission(mission)
    rule_seed = use_rule_seed(
        layered.given("game.rule_seed"), pools, [found], name=layered.named("game.rule_seed")
    )
    # Unknown players, then keys, endpoints, the game and Redis (checked and probed), then a
    # bad manual.
    urls: dict[Role, str | None] = {
        "defuser": cfg.players.defuser_base_url,
        "expert": cfg.players.expert_base_url,
    }
    seats = resolve_lineup(
        *names, solo=solo, manual=manual, no_manual=no_manual, read_manual=False,
        rule_seed=rule_seed, names={r: layered.named(f"players.{r}") for r in ROLES},
        base_urls=urls,
    )  # fmt: skip
    needs = dataclasses.replace(needs, players=[c.config for c in seats if c and c.config])
    check_inputs(needs)
    await probe(needs)
    lineup = [attach_manual(c, manual) for c in seats if c is not None]
    spec = EpisodeSpec.make(
        found.id, mode, solo or cfg.players.defuser, cfg.players.expert,
        seed=cfg.players.seed, solo=solo is not None, no_manual=no_manual, manual=manual,
        rule_seed=rule_seed, clock=clock, latency=latency,
        defuser_base_url=urls["defuser"], expert_base_url=urls["expert"],
    )  # fmt: skip
    settings = EpisodeSettings.from_config(cfg)
    check_turns(lineup, settings)  # every turn leaves its model call time (the Budget)
    if cfg.game.record is not None:  # the game service may run in another directory
        game = settings.game.model_copy(update={"record": cfg.game.record.resolve()})
        settings = settings.model_copy(update={"game": game})
    run_dir = cfg.records.out / f"{time.strftime('%Y%m%d-%H%M%S')}-{found.id}-{mode}"
    players = ", ".join(f"{c.role if c.seat in (None, c.role) else c.seat} {c.label}"
                        for c in lineup)  # fmt: skip
    starting = Starting(mission=found, spec=spec, players=players, run_dir=run_dir)
    return _Prepared(starting=starting, settings=settings)


def _check_clock(clock: str, latency: str | None, mode: str) -> str | None:
    """``--clock`` and ``--latency`` checked together: the latency model's canonical name for
    the virtual clock (default ``measured``), ``None`` for the wall clock."""
    from gptnt.errors import ConfigError
    from gptnt.players.clock import parse_latency

    if clock not in ("wall", "virtual"):
        raise ConfigError(f"--clock {clock!r}: use wall or virtual")
    if clock == "wall":
        if latency is not None:
            raise ConfigError("--latency: a latency model needs --clock virtual")
        return None
    if mode != "async":
        raise ConfigError("--clock virtual: the virtual clock times async play; add --mode async")
    return parse_latency(latency or "measured").name


def _layered(
    config: Layered | Path | None,
    settings: Mapping[str, object] | None,
    *,
    defuser: str | None,
    expert: str | None,
    defuser_base_url: str | None = None,
    expert_base_url: str | None = None,
) -> Layered:
    from gptnt.config import Layered, load_config

    flags = dict(settings or {})
    names = {key: "settings" for key in flags}
    given = (("defuser", defuser), ("expert", expert), ("defuser_base_url", defuser_base_url),
             ("expert_base_url", expert_base_url))  # fmt: skip
    for role, name in given:
        if name is not None:
            flags[f"players.{role}"] = name
            names[f"players.{role}"] = f"argument {role}"
    if isinstance(config, Layered):
        if flags:
            from gptnt.errors import ConfigError

            raise ConfigError("config: a Layered config takes no settings, defuser or expert "
                              "beside it; give them inside it, or pass a YAML path")  # fmt: skip
        return config
    return load_config(_path(config), flags=flags, flag_names=names)


def replay_episode(
    episode: Path,
    from_turn: int,
    *,
    defuser: str | None = None,
    expert: str | None = None,
    message: str | None = None,
    out: Path | None = None,
    config: Layered | Path | None = None,
    settings: Mapping[str, object] | None = None,
    on_start: Callable[[Path], None] | None = None,
    on_turn: OnTurn | None = None,
    handle_signals: bool = True,
) -> Summary:
    """Restore a recorded episode to turn ``from_turn`` (counted over both players' turns in
    record order) and play on as a new episode linked to its parent (docs/virtual-clock.md):
    the game rebuilt from its seed and recorded actions, each player's conversation from the
    records; ``message`` replaces that turn's output; ``defuser``/``expert`` take over from the
    fork. The branch is written to ``out`` (default: the parent's run directory). Bad input
    raises ``ConfigError`` before anything starts."""
    import asyncio

    _expect("episode", episode, (Path, str), "give the recorded episode's folder")
    _expect("from_turn", from_turn, (int,), "give a turn number, e.g. 2")
    if out is not None:
        _expect("out", out, (Path, str), "give a folder's path")
    episode, out = Path(episode), _path(out)

    from gptnt.errors import ConfigError
    from gptnt.records import RunLock
    from gptnt.services.bus import redis_url as resolve_redis
    from gptnt.services.manager import Branch, EpisodeSettings, Fork, Interrupt, check_replayable
    from gptnt.services.manager import replay_episode as play_branch

    if not (episode / "events.jsonl").is_file():
        raise ConfigError(f"EPISODE {episode}: no events.jsonl; give an episode directory")
    if message is not None and not message.strip():
        raise ConfigError("--message: give the text to send")
    cfg = _layered(config, settings, defuser=None, expert=None).config
    run_dir = out or episode.resolve().parent.parent
    fork = Fork(parent=episode, turn=from_turn, message=message)
    branch = Branch(fork)  # a bad turn or message fails before Redis or any service starts
    episode_settings = EpisodeSettings.from_config(cfg)
    check_replayable(branch, episode_settings)  # so do settings that change its timeline
    if on_start is not None:  # every input checked: the branch is about to play into run_dir
        on_start(run_dir)

    async def play(url: str) -> Summary:
        interrupt = Interrupt()
        if handle_signals:
            interrupt.install()
        return await play_branch(
            fork, episode_settings, admin_url=url, run_dir=run_dir, defuser=defuser,
            expert=expert, on_turn=on_turn, interrupt=interrupt,
        )  # fmt: skip

    with RunLock(run_dir), resolve_redis(cfg.bus.redis_url) as url:  # one writer per run
        return asyncio.run(play(url))


@dataclass(frozen=True)
class BaselineStart:
    """What a baseline run is about to play (handed to ``on_start``)."""

    missions: list[Mission]
    episodes: int
    workers: int
    run_dir: Path


@dataclass(frozen=True)
class BaselineRun:
    """What a baseline run played: the missions, every episode's summary, on how many
    workers, in how many wall seconds."""

    missions: list[Mission]
    summaries: list[Summary]
    workers: int
    elapsed_s: float

    def outcomes(self, by: Literal["kind", "mission"]) -> dict[str, list[str]]:
        """Every episode's outcome per module type (``kind``) or per mission, in play order."""
        kinds = self.kinds
        grouped: dict[str, list[str]] = {}
        for s in self.summaries:
            key = kinds[s.mission_id] if by == "kind" else s.mission_id
            grouped.setdefault(key, []).append(s.outcome)
        return grouped

    @property
    def kinds(self) -> dict[str, str]:
        """The module type of each mission played."""
        return {m.id: m.config.components[0] for m in self.missions}


def run_baseline(
    repeats: int = 3,
    *,
    module: str | None = None,
    workers: int = 0,
    fresh_bombs: int = 0,
    pools: Path | None = None,
    config: Layered | Path | None = None,
    settings: Mapping[str, object] | None = None,
    on_start: Callable[[BaselineStart], None] | None = None,
    on_done: Callable[[Summary], None] | None = None,
) -> BaselineRun:
    """The paper's random-Defuser baseline (``gptnt baseline random``): ``repeats`` sync
    episodes of every single-module mission (or of ``fresh_bombs`` fresh bombs per module type),
    in-process on ``workers`` processes (0: one per core), recorded like a suite's run under
    ``records.out``. Returns the missions played and every episode's summary."""
    import os

    for name, value in (("repeats", repeats), ("workers", workers), ("fresh_bombs", fresh_bombs)):
        _expect(name, value, (int,), "give a whole number")
    if pools is not None:
        _expect("pools", pools, (Path, str), "give the word pools file's path")
    pools = _path(pools)

    from gptnt.errors import ConfigError
    from gptnt.missions import fresh_missions, load_missions
    from gptnt.preflight import use_rule_seed
    from gptnt.services.manager import baseline_spec, play_baseline

    layered = _layered(config, settings, defuser=None, expert=None)
    out = layered.config.records.out
    singles = [m for m in load_missions().values() if m.kind == "single"]
    missions = [m for m in singles if module is None or m.config.components[0] == module]
    if not missions:
        kinds = sorted({m.config.components[0] for m in singles})
        raise ConfigError(f"--module {module!r}: no single-module missions of that type; "
                          f"use one of {', '.join(kinds)}")  # fmt: skip
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out}: not a directory; name a directory for the records")
    seed = use_rule_seed(
        layered.given("game.rule_seed"), pools, missions, name=layered.named("game.rule_seed")
    )
    if fresh_bombs:
        missions = fresh_missions(missions, fresh_bombs)
    workers = workers or os.cpu_count() or 1
    specs = [baseline_spec(m.id, r, seed) for m in missions for r in range(repeats)]
    run_dir = out / f"{time.strftime('%Y%m%d-%H%M%S')}-baseline-random"
    if on_start is not None:
        on_start(BaselineStart(missions, len(specs), workers, run_dir))
    started = time.perf_counter()
    summaries = play_baseline(specs, run_dir, workers=workers, on_done=on_done, missions=missions)
    return BaselineRun(missions, summaries, workers, time.perf_counter() - started)


def load_records(runs: Iterable[Path | str]) -> list[Run]:
    """The episode records of run directories, one ``Run`` each, as ``gptnt report`` reads
    them (summaries, turns, ledgers), for tables of your own (``gptnt.analysis``)."""
    from gptnt.analysis import load_runs

    fix = "give a list of run directories, e.g. [Path('runs/my-run')]"
    if isinstance(runs, str | Path):
        from gptnt.errors import ConfigError

        raise ConfigError(f"runs: {runs!r} is one {type(runs).__name__}; {fix}")
    _expect("runs", runs, (Iterable,), fix)
    folders = list(runs)
    for folder in folders:
        _expect("runs", folder, (Path, str), "give a run directory's path")
    return load_runs([Path(r) for r in folders])
