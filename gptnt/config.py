"""The run configuration: one typed section per component, layered from four sources.

Each value comes from the last of these that sets it::

    defaults (the fields below)  <  YAML file (--config run.yaml)  <  GPTNT_* environment  <  flags

The YAML file holds one mapping per section (``game:``, ``players:``, ``timing:``, ``bus:``,
``records:``). A variable is ``GPTNT_<SECTION>_<FIELD>`` in capitals (``GPTNT_GAME_WIDTH=800``,
``GPTNT_TIMING_GAME_CALL_S=20``); ``GPTNT_REDIS_URL`` is also ``bus.redis_url``. Flags are dotted
keys (``game.width``) as the CLI sets them. Each service receives only its own section, as one
typed value (the same object in a task, its JSON on a process's command line), and
``gptnt config show`` prints every value in force with the layer it came from.

Every deadline and wait has its one default here, in seconds of wall time unless it says game
time.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from gptnt.bounded import MAX_SECONDS, MAX_SEED, RuleSeed, read_yaml
from gptnt.endpoints import scrub_text, url_problem
from gptnt.errors import ConfigError, first_problem, reason

__all__ = [
    "ONE_EPISODE_LAUNCH",
    "SECTIONS",
    "SUITE_LAUNCH",
    "BusConfig",
    "Config",
    "GameConfig",
    "Launch",
    "Layered",
    "PlayersConfig",
    "RecordsConfig",
    "TimingConfig",
    "load_config",
]

ENV_PREFIX = "GPTNT_"
_ENV_ALIASES = {"bus.redis_url": "GPTNT_REDIS_URL"}
"""Variables that predate the scheme and keep working."""


Launch = Literal["process", "warm", "task"]
"""How an episode's services start: ``process``, each its own child process (a fresh
interpreter); ``warm``, each its own process forked from a server that has the game and player
stack imported (``gptnt.services.manager._warm``); ``task``, all in this process (for debugging)."""

ONE_EPISODE_LAUNCH: Launch = "process"
"""The launch of one episode (``gptnt run``, ``EpisodeSettings``) when none is set."""
SUITE_LAUNCH: Launch = "warm"
"""The launch of a suite's games when none is set: the stack is imported once, not per
service of every episode."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class GameConfig(_Section):
    """What the game service needs: which backend, its frame size and rules, its deadlines."""

    backend: str = "sim"
    """``sim`` (the simulator inside the game service), ``sim-process`` (``gptnt sim serve`` as
    a child process) or the URL of a protocol server (a recorded stub, the real game's mod)."""
    width: int = Field(640, ge=64, le=4096)
    """Frame width in pixels."""
    height: int = Field(480, ge=64, le=4096)
    """Frame height in pixels."""
    rule_seed: RuleSeed = 1
    """The rule seed of game, manual and oracle together. Set in any layer, every episode of
    ``gptnt run``/``suite run``/``baseline`` plays it; else each plays its mission's
    ``ruleSeed``, else 1. The manager copies the episode's into the section it hands on."""
    record: Path | None = None
    """Write the game service's whole exchange with the backend to this recording (a zip the
    recorded-game stub replays); None records nothing."""
    call_deadline_s: float = Field(10.0, gt=0, le=MAX_SECONDS)
    """Wall seconds one HTTP call to the backend may take (per-route limits are capped by it)."""
    startup_timeout_s: float = Field(60.0, gt=0, le=MAX_SECONDS)
    """Wall seconds for the backend to answer and to reach lights off and lights on; the manager
    waits as long for the services to be ready."""
    poll_interval_s: float = Field(0.2, gt=0, le=60)
    """Wall seconds between state polls while a mission runs (game over is seen within two)."""
    backend_failures: int = Field(3, ge=1, le=1000)
    """Consecutive failed polls after which the backend counts as dead."""

    @field_validator("backend")
    @classmethod
    def _known_backend(cls, value: str) -> str:
        if value in ("sim", "sim-process"):
            return value
        problem = url_problem(value, ("http", "https"))
        if problem:
            raise ValueError(
                f"{problem}; give the game's URL (e.g. http://localhost:8085), or sim / sim-process"
            )
        return value


class PlayersConfig(_Section):
    """Who plays: a scripted name, a player config, a YAML file or a ``provider:model`` string."""

    defuser: str = "oracle"
    expert: str = "oracle"
    seed: int = Field(0, ge=0, le=MAX_SEED)
    """Seed of the players' own randomness (scripted random play, sampling where supported)."""
    manual: str = "generated"
    """The manual a model Expert reads: ``generated`` or a manual directory."""
    defuser_base_url: str | None = None
    """The Defuser model's endpoint (an OpenAI-compatible server's ``…/v1``), over its
    config's ``base_url``; a solo model's too."""
    expert_base_url: str | None = None
    """The Expert model's endpoint, over its config's ``base_url``."""


class TimingConfig(_Section):
    """The experiment manager's waits and pacing."""

    game_call_s: float = Field(15.0, gt=0, le=MAX_SECONDS)
    """Wall seconds one call to the game service may take, by the manager or a player (it makes
    up to a few backend calls)."""
    turn_timeout_s: float | None = Field(None, gt=0, le=MAX_SECONDS)
    """Wall seconds one player turn may take, for every player; unset: a model player's own
    ``turn_timeout_s`` (its player config), ``gptnt.services.manager._budget.SCRIPTED_TURN_S``
    for a scripted player. Every other deadline of the turn and of the episode is derived from
    the turns' (``Budget``; ``gptnt config show --mission ID`` prints them)."""
    stop_timeout_s: float = Field(5.0, gt=0, le=MAX_SECONDS)
    """Wall seconds the services get to stop when asked, before they are terminated."""
    idle_sleep_s: float = Field(0.5, ge=0, le=MAX_SECONDS)
    """async: wall seconds each player pauses between its turns."""
    step_sleep_s: float = Field(0.0, ge=0, le=MAX_SECONDS)
    """sync: wall seconds slept after each ``/timestep`` (GPTNT slept 3 so the real game could
    animate; the simulator's ``/timestep`` is complete when it returns)."""


class BusConfig(_Section):
    """Where the services meet and how they are started."""

    redis_url: str | None = None
    """An admin URL of the Redis to use; unset: an embedded server for this run."""
    launch: Launch | None = None
    """``process``, ``warm`` or ``task`` (see ``Launch``); unset: ``process`` for one episode
    (``gptnt run``), ``warm`` for a suite's games."""

    scheduler: str | None = None
    """The Dask scheduler of a suite's cluster of game hosts (``tcp://suite-host:8786``);
    unset: ``suite run`` plays on a local cluster of its own (``--games`` workers)."""

    def scheduler_address(self, who: str) -> str:
        """The scheduler of a suite's cluster, which ``who`` (a worker) cannot do without."""
        if self.scheduler is None:
            raise ConfigError(
                f"bus.scheduler is unset: {who} plays a suite's episodes from its Dask "
                "scheduler; pass --scheduler tcp://HOST:8786, set GPTNT_BUS_SCHEDULER, or give "
                "bus.scheduler in --config"
            )
        return self.scheduler

    def launch_for(self, suite: bool) -> Launch:
        """The launch in force for one episode or (``suite``) for a suite's games."""
        if self.launch is not None:
            return self.launch
        return SUITE_LAUNCH if suite else ONE_EPISODE_LAUNCH


class RecordsConfig(_Section):
    """Where episode records go."""

    out: Path = Path("runs")
    """Directory that receives the run directories."""


class Config(_Section):
    """The whole configuration, one section per component."""

    game: GameConfig = GameConfig()
    players: PlayersConfig = PlayersConfig()
    timing: TimingConfig = TimingConfig()
    bus: BusConfig = BusConfig()
    records: RecordsConfig = RecordsConfig()


SECTIONS: dict[str, type[_Section]] = {
    # every field of Config is annotated with its section class (FieldInfo says type[Any] | None)
    name: info.annotation  # type: ignore[misc]
    for name, info in Config.model_fields.items()
}


@dataclass(frozen=True)
class Layered:
    """The configuration in force and, per dotted key, the layer that set it."""

    config: Config
    sources: dict[str, str] = field(default_factory=dict)

    def given(self, key: str) -> Any:
        """The setting's value if some layer set it, else None (the command's own choice)."""
        if key not in self.sources:
            return None
        section, _, name = key.partition(".")
        return getattr(getattr(self.config, section), name)

    def named(self, key: str) -> str:
        """How an error names the setting: the flag as typed (``--defuser``), else the layer
        and the key (``file run.yaml: players.defuser``)."""
        source = self.sources.get(key, "default")
        return source if source.startswith("--") else f"{source}: {key}"

    def rows(self) -> list[tuple[str, object, str]]:
        """``(key, value, source)`` for every setting, in section and field order."""
        out = []
        for section, model in SECTIONS.items():
            values = getattr(self.config, section)
            for name in model.model_fields:
                key = f"{section}.{name}"
                out.append((key, getattr(values, name), self.sources.get(key, "default")))
        return out


def env_name(key: str) -> str:
    """The environment variable of a dotted key (``game.width`` → ``GPTNT_GAME_WIDTH``)."""
    return ENV_PREFIX + key.replace(".", "_").upper()


def load_config(
    path: Path | None = None,
    *,
    env: Mapping[str, str] | None = None,
    flags: Mapping[str, object] | None = None,
    flag_names: Mapping[str, str] | None = None,
) -> Layered:
    """Layer defaults, the YAML file at ``path``, the ``GPTNT_*`` variables of ``env`` (default:
    this process's) and ``flags`` (dotted key → value; ``None`` values are not set).
    ``flag_names`` gives the command-line spelling of flag keys (``game.backend`` → ``--game``).

    Every problem is one ``ConfigError`` naming the key, the layer it came from and the fix.
    """
    flag_names = flag_names or {}
    env = os.environ if env is None else env
    merged: dict[str, dict[str, object]] = {name: {} for name in SECTIONS}
    sources: dict[str, str] = {}

    def put(key: str, value: object, source: str) -> None:
        section, _, name = key.partition(".")
        model = SECTIONS.get(section)
        if model is None or name not in model.model_fields:
            raise ConfigError(f"{source}: {key!r} is not a setting; see `gptnt config show`")
        merged[section][name] = value
        sources[key] = source

    if path is not None:
        for key, value in _read_yaml(path).items():
            put(key, value, f"file {path}")
    for section, model in SECTIONS.items():
        for name in model.model_fields:
            key = f"{section}.{name}"
            for var in (env_name(key), _ENV_ALIASES.get(key)):
                if var is not None and env.get(var) not in (None, ""):
                    put(key, _text_value(env[var]), f"env {var}")
                    break
    for key, value in (flags or {}).items():
        if value is not None:
            put(key, value, flag_names.get(key, f"flag {key}"))
    try:
        config = Config.model_validate(merged)
    except ValidationError as err:
        raise ConfigError(_problem(err, merged, sources)) from None
    return Layered(config, sources)


def _problem(
    err: ValidationError, merged: dict[str, dict[str, object]], sources: dict[str, str]
) -> str:
    """One line: where the value came from, the key and value, and pydantic's reason."""
    first = err.errors()[0]
    loc = [str(part) for part in first["loc"]]
    if len(loc) < 2:
        return first_problem(err, whole="config")
    key = f"{loc[0]}.{loc[1]}"
    source = sources.get(key, "default")
    why = reason(first)
    # The value as given, with any secret in it (a URL's password, a key) masked.
    value = scrub_text(repr(merged.get(loc[0], {}).get(loc[1])))
    if source.startswith("--"):  # a command-line flag: named as the user typed it
        return f"{source} {value}: {why}"
    return f"{source}: {'.'.join(loc)} {value}: {why}"


def _read_yaml(path: Path) -> dict[str, object]:
    """The file's settings as dotted keys."""
    data = read_yaml(path, where=f"--config {path}")
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(
            f"--config {path}: expected a mapping of sections ({', '.join(SECTIONS)})"
        )
    out: dict[str, object] = {}
    for section, values in data.items():
        if not isinstance(values, dict):
            raise ConfigError(
                f"--config {path}: {section!r} must be a mapping of settings "
                f"(sections: {', '.join(SECTIONS)})"
            )
        for name, value in values.items():
            out[f"{section}.{name}"] = value
    return out


def _text_value(text: str) -> Any:
    """An environment value: ``none``/``null`` unset an optional setting; the rest is text that
    each field parses (``800``, ``2.5``, ``true``)."""
    return None if text.strip().lower() in ("none", "null") else text
